// A success means a check ran: `ratchet run` refuses a plan no gate checks before any agent call; --no-gates runs it, and says so (issue 29 item 1).
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunListItem, StatusDocument } from '../../shared/domain';
import { makeRepo, tempDir } from '../engine/testing/temp-repo';
import { cli } from './testing/run-cli';

/** The agent (a command) writes out.txt: if it ever ran, the file is in a worktree. */
const AGENT = 'agent: { kind: command, command: ["sh", "-c", "echo done > out.txt"] }\nbackoff: { base_s: 0, max_s: 0, jitter: 0 }\n';

function project(workflow: string) {
  const repo = makeRepo({ 'a.txt': 'a\n' });
  writeFileSync(join(repo, 'ratchet.yml'), `${AGENT}${workflow}`);
  const home = join(tempDir('ratchet-nogates-home-'), 'h');
  return { repo, file: join(repo, 'ratchet.yml'), env: { RATCHET_HOME: home } };
}

describe('a plan no gate checks', () => {
  it('is invalid for `ratchet check` (exit 1), whether the workflow defines no gate or a step runs none', async () => {
    for (const wf of ['steps:\n  - title: one\n', 'gates: {}\nsteps:\n  - title: one\n', 'gates: { ok: "exit 0" }\nsteps:\n  - title: one\n    gates: []\n']) {
      const p = project(wf);
      const r = await cli(['check', p.file], p.env);
      expect(r.code, wf).toBe(1);
      expect(r.err).toMatch(/error: steps\[0\].*nothing checks this work — add a gate, or pass `--no-gates`/);
    }
    const ok = project('gates: { ok: "exit 0" }\nsteps:\n  - title: one\n');
    expect((await cli(['check', ok.file], ok.env)).code).toBe(0);
  });

  it('is refused by `ratchet run` with exit 2 before any agent call or worktree', async () => {
    const p = project('steps:\n  - title: one\n');
    const r = await cli(['run', p.repo, '--yes', '--trust', '--json'], p.env);
    expect(r.code).toBe(2);
    expect(r.err).toContain('Nothing checks this work — add a gate, or pass --no-gates');
    expect(r.out).toBe('');
    const worktrees = join(p.env.RATCHET_HOME, 'worktrees');
    expect(existsSync(worktrees) ? readdirSync(worktrees) : []).toEqual([]);
    const list = await cli(['list', '--json'], p.env);
    expect(RunListItem.array().parse(JSON.parse(list.out || '[]'))).toEqual([]);
  });

  it('runs with --no-gates: the run may succeed, its status document says "checked": false and the console says unchecked', async () => {
    const p = project('steps:\n  - title: one\n');
    const r = await cli(['run', p.repo, '--yes', '--trust', '--json', '--no-gates'], p.env);
    expect(r.code).toBe(0);
    const doc = StatusDocument.parse(JSON.parse(r.out));
    expect(doc.status).toBe('succeeded');
    expect(doc.checked).toBe(false);
    const status = await cli(['status', doc.id, '--json'], p.env);
    expect(JSON.parse(status.out).checked).toBe(false);
    const plain = await cli(['status', doc.id], p.env);
    expect(plain.out).toMatch(/succeeded, unchecked/);
    const list = await cli(['list'], p.env);
    expect(list.out).toMatch(/unchecked/);
  });

  it('says "checked": true for a run whose steps all ran a gate', async () => {
    const p = project('gates: { ok: "exit 0" }\nsteps:\n  - title: one\n');
    const r = await cli(['run', p.repo, '--yes', '--trust', '--json'], p.env);
    expect(r.code).toBe(0);
    expect(StatusDocument.parse(JSON.parse(r.out)).checked).toBe(true);
    const list = await cli(['list'], p.env);
    expect(list.out).not.toMatch(/unchecked/);
  });
});
