// `ratchet trust <repo> --list/--revoke`, and retry/resume keeping to the trust a run started with: no new question, a refusal (exit 2) once that version is no longer trusted.
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { privateRoot } from '../engine/sandbox/private-dirs';
import { makeRepo, sh, tempDir } from '../engine/testing/temp-repo';
import { cli } from './testing/run-cli';

/** A repository whose own ratchet.yml runs a command agent and a gate that passes once the test drops `pass` in the run's TMPDIR. */
function repoWithWorkflow(): { repo: string; env: NodeJS.ProcessEnv; yml: string } {
  const yml =
    'agent: { kind: command, command: [sh, -c, "echo x >> f.txt"] }\ngates:\n  always: "true"\n  ok: \'test -f "$TMPDIR/pass"\'\nmax_retries: 0\nsteps:\n  - { title: One, gates: [always] }\n  - { title: Two, gates: [ok] }\n';
  return { repo: makeRepo({ 'ratchet.yml': yml, 'f.txt': 'a\n' }), env: { RATCHET_HOME: tempDir() }, yml };
}

/** Starts a run with --trust whose second step fails its gate (step one is done); returns its id and lets its next gate pass. */
async function failedRun(repo: string, env: NodeJS.ProcessEnv): Promise<string> {
  const r = await cli(['run', repo, '--yes', '--trust', '--json'], env);
  expect(r.code, r.err).not.toBe(0);
  const runs = JSON.parse((await cli(['list', '--json'], env)).out) as Array<{ id: string; status: string; worktree?: string }>;
  const run = runs[0] as { id: string; status: string };
  expect(['failed', 'paused']).toContain(run.status);
  const status = JSON.parse((await cli(['status', run.id, '--json'], env)).out) as { run?: { worktree?: string }; worktree?: string };
  const worktree = status.run?.worktree ?? status.worktree;
  expect(worktree).toBeTruthy();
  // The run's private TMPDIR (see os-sandbox.ts): the gate passes from now on.
  const tmp = join(privateRoot(), basename(worktree as string), 'tmp');
  mkdirSync(tmp, { recursive: true });
  writeFileSync(join(tmp, 'pass'), '');
  return run.id;
}

describe('ratchet trust', () => {
  it('answers --help with --list and --revoke', async () => {
    const r = await cli(['trust', '--help'], {});
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/ratchet trust <repo> \[--list \| --revoke\]/);
  });

  it('trusts the workflow as it is now, lists it (file, hash, when) and revokes it', async () => {
    const { repo, env } = repoWithWorkflow();
    expect((await cli(['trust', repo, '--list'], env)).out).toContain('Nothing is trusted');
    const t = await cli(['trust', repo], env);
    expect(t.code, t.err).toBe(0);
    expect(t.out).toContain('agent: sh -c echo x >> f.txt');
    const list = JSON.parse((await cli(['trust', repo, '--list', '--json'], env)).out) as Array<{ file: string; sha256: string; trustedAt: string }>;
    expect(list).toHaveLength(1);
    expect(list[0]?.file.endsWith('ratchet.yml')).toBe(true);
    expect(list[0]?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(Number.isNaN(Date.parse(list[0]?.trustedAt ?? ''))).toBe(false);
    expect((await cli(['run', repo, '--yes', '--json'], env)).code).not.toBe(2);
    const rv = await cli(['trust', repo, '--revoke'], env);
    expect(rv.code).toBe(0);
    expect(rv.out).toContain('Revoked trust');
    expect((await cli(['trust', repo, '--list'], env)).out).toContain('Nothing is trusted');
    const again = await cli(['run', repo, '--yes', '--json'], env);
    expect(again.code).toBe(2);
    expect(again.err).toContain('not trusted');
  });

  it('refuses a path that is not a repository (exit 2) and --list with --revoke', async () => {
    expect((await cli(['trust', tempDir(), '--list'], {})).code).toBe(2);
    expect((await cli(['trust', makeRepo(), '--list', '--revoke'], {})).code).toBe(2);
  });
});

describe('retry and resume under the trust the run started with', () => {
  it('retry asks nothing for the trusted workflow, even after the file changed without being trusted again', async () => {
    const { repo, env, yml } = repoWithWorkflow();
    const id = await failedRun(repo, env);
    writeFileSync(join(repo, 'ratchet.yml'), yml.replace('One', 'Changed'));
    sh(repo, 'commit', '-qam', 'change the workflow');
    const r = await cli(['retry', id, '--yes', '--json'], env);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('"succeeded"');
  });

  it('retry refuses (exit 2, nothing run) once the trust was revoked; --trust trusts that version again', async () => {
    const { repo, env } = repoWithWorkflow();
    const id = await failedRun(repo, env);
    expect((await cli(['trust', repo, '--revoke'], env)).code).toBe(0);
    const r = await cli(['retry', id, '--yes', '--json'], env);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/trust was revoked/);
    expect(r.err).toContain('--trust');
    expect(['failed', 'paused']).toContain((JSON.parse((await cli(['status', id, '--json'], env)).out) as { status: string }).status);
    const ok = await cli(['retry', id, '--yes', '--trust', '--json'], env);
    expect(ok.code, ok.err).toBe(0);
  });

  it('resume refuses when the file changed and its new content was trusted since', async () => {
    const { repo, env, yml } = repoWithWorkflow();
    const id = await failedRun(repo, env);
    writeFileSync(join(repo, 'ratchet.yml'), yml.replace('One', 'Changed'));
    sh(repo, 'commit', '-qam', 'change the workflow');
    expect((await cli(['trust', repo], env)).code).toBe(0);
    const r = await cli(['resume', id, '--yes', '--json'], env);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/changed since the run started/);
  });
});
