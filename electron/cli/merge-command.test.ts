// `ratchet merge <run>`: preview (--dry-run), fast-forward by default, --no-ff, and refusals that leave the user's checkout alone.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, sh, tempDir } from '../engine/testing/temp-repo';
import { cli } from './testing/run-cli';

async function succeeded(): Promise<{ repo: string; env: NodeJS.ProcessEnv; runId: string }> {
  const yml =
    'agent: { kind: command, command: [sh, -c, "echo x >> f.txt"] }\ngates:\n  always: "true"\nmax_retries: 0\nsteps:\n  - { title: One, gates: [always] }\n  - { title: Two, gates: [always] }\n';
  const repo = makeRepo({ 'ratchet.yml': yml, 'f.txt': 'a\n' });
  const env = { RATCHET_HOME: tempDir() };
  const r = await cli(['run', repo, '--yes', '--trust', '--json'], env);
  expect(r.code, r.err).toBe(0);
  const runs = JSON.parse((await cli(['list', '--json'], env)).out) as Array<{ id: string; status: string }>;
  expect(runs[0]?.status).toBe('succeeded');
  return { repo, env, runId: runs[0]!.id };
}

describe('ratchet merge', () => {
  it('previews with --dry-run, then fast-forwards the clean checkout', async () => {
    const { repo, env, runId } = await succeeded();
    const base = sh(repo, 'rev-parse', 'main');
    const dry = await cli(['merge', runId, '--dry-run'], env);
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out).toContain('2 commit(s)');
    expect(dry.out).toContain('step 2: Two');
    expect(sh(repo, 'rev-parse', 'main')).toBe(base);
    const r = await cli(['merge', runId], env);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/main is now at [0-9a-f]{8} \(fast-forward/);
    expect(readFileSync(join(repo, 'f.txt'), 'utf8')).toBe('a\nx\nx\n');
  });

  it('refuses (exit 1) while the checkout of main has uncommitted changes, and keeps them', async () => {
    const { repo, env, runId } = await succeeded();
    writeFileSync(join(repo, 'f.txt'), 'mine\n');
    const r = await cli(['merge', runId, '--no-ff'], env);
    expect(r.code).toBe(1);
    expect(r.err).toContain('uncommitted changes');
    expect(readFileSync(join(repo, 'f.txt'), 'utf8')).toBe('mine\n');
    expect(await cli(['merge', runId, '--ff-only', '--no-ff'], env)).toMatchObject({ code: 2 });
  });
});
