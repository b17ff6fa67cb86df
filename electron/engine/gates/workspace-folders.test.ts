// A monorepo's package names mapped to folders from the worktree, so the recorded yarn (-v), npm workspaces and pnpm --filter outputs,
// which name a package and not its folder, give locations from the repository root.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS_DIR } from './testing/failure-corpus';
import { parseFailures } from './parse-failures';
import { workspaceFolders, workspacePatterns } from './workspace-folders';

const PROJECT = path.resolve(import.meta.dirname, '../../../scripts/record-corpus/projects/pnpm-workspace');
let root: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'ratchet-ws-folders-'));
  fs.cpSync(PROJECT, root, { recursive: true });
});

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describe('workspace folders', () => {
  it('maps each package of the workspace (package.json workspaces and pnpm-workspace.yaml) to its folder', () => {
    expect(workspacePatterns(root)).toEqual(['packages/*', 'packages/*']);
    expect([...workspaceFolders(root)]).toEqual([
      ['@mono/core', 'packages/core'],
      ['@mono/prompts', 'packages/prompts'],
      ['@mono/utils', 'packages/utils'],
    ]);
  });

  it('follows no link out of the worktree and no pattern that leaves it', () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'ratchet-ws-outside-'));
    try {
      fs.writeFileSync(path.join(outside, 'package.json'), '{"name":"secret"}');
      fs.symlinkSync(outside, path.join(root, 'packages', 'linked'));
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ratchet-ws-dotdot-'));
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ workspaces: ['../*', path.join(outside)] }));
      expect(workspaceFolders(dir).size).toBe(0);
      expect([...workspaceFolders(root).keys()]).not.toContain('secret');
      fs.rmSync(dir, { recursive: true, force: true });
    } finally {
      fs.rmSync(path.join(root, 'packages', 'linked'), { force: true });
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('gives the recorded yarn -v, npm workspaces, pnpm --filter and turbo failures their location from the repository root', () => {
    for (const id of ['yarn-foreach-verbose', 'npm-workspaces', 'pnpm-filter', 'turbo-run']) {
      const output = fs.readFileSync(path.join(CORPUS_DIR, 'monorepo', `${id}.txt`), 'utf8');
      expect(parseFailures({ output })[0]).toMatchObject({ file: 'test/select.test.ts', line: 16 });
      expect(parseFailures({ output, workspaceFolders: () => workspaceFolders(root) })[0]).toMatchObject({
        name: 'test/select.test.ts > select > picks by position',
        file: 'packages/prompts/test/select.test.ts',
        line: 16,
      });
    }
  });
});
