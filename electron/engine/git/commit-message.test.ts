// What Ratchet writes into git as a message is plain text: a step title's escape sequences never reach `git log`.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StepSpec } from '../../../shared/domain';
import { parsePlanMarkdown } from '../../../shared/plan-markdown';
import type { Engine } from '../engine';
import { makeRepo, sh, tempDir } from '../testing/temp-repo';
import { closeEngine, envEngine, runWorkflow } from '../testing/worktree-env-fixtures';
import { commitAll } from './repo-git';
import { pinWorktree } from './worktree-integrity';

const PWN = '\x1b]0;pwn\x07\x1b[31m';
// eslint-disable-next-line no-control-regex -- the control characters are what this looks for
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

let engine: Engine | undefined;
afterEach(async () => {
  if (engine) await closeEngine(engine);
  engine = undefined;
});

describe('control characters in step titles and commit messages', () => {
  it('a workflow step titled with an escape sequence commits a subject with none of it', async () => {
    engine = envEngine();
    const repo = makeRepo({ 'README.md': '# app\n' });
    const r = await runWorkflow(
      engine,
      repo,
      `
gates: { test: "true" }
agent: { kind: command, command: ["sh", "-c", "date > work.txt"] }
steps: [{ title: "add \\e]0;pwn\\a\\e[31mhealth\\u009b2J" }]
`,
    );
    expect(r.doc.status).toBe('succeeded');
    const subject = execFileSync('git', ['log', '-1', '--format=%s'], { cwd: r.worktree, encoding: 'utf8' }).trim();
    expect(subject).not.toMatch(CONTROL);
    expect(subject).toBe('step 1: add health');
    expect(engine.status(r.runId).steps[0]!.title).toBe('add health');
  });

  it('a drafted plan, the app and a revised plan (the one step schema) keep no control character in a title', () => {
    const drafted = parsePlanMarkdown(`## 1. Add ${PWN}login\nDo it.\n## 2. ${PWN}\n`);
    expect(drafted.map((s) => s.title)).toEqual(['Add login']);
    expect(StepSpec.parse({ title: `fix\tthe ${PWN}bug\r\n` }).title).toBe('fix the bug');
    expect(StepSpec.safeParse({ title: PWN }).success).toBe(false);
  });

  it('any message Ratchet commits (a rescue, a step already stored with one) is cleaned where git is run', async () => {
    const repo = makeRepo({ 'a.txt': 'one\n' });
    const worktree = join(tempDir('ratchet-msg-'), 'wt');
    sh(repo, 'worktree', 'add', '-q', '-b', 'task', worktree);
    await commitAll(pinWorktree(repo, worktree), `rescue: ${PWN}work\n\nbody line\twith tab\x07`);
    const message = sh(worktree, 'log', '-1', '--format=%B');
    expect(message).not.toMatch(CONTROL);
    expect(message).toBe('rescue: work\n\nbody line with tab');
  });
});
