// Workspace trust from the CLI: a repository's own workflow runs only once trusted (--trust); --yes is not trust; a named --workflow needs none.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, sh, tempDir } from '../engine/testing/temp-repo';
import { cli } from './testing/run-cli';

/** A repository whose committed ratchet.yml runs a command agent (it appends to f.txt in its worktree: the sandbox allows no more). */
function hostileRepo(): { repo: string; marker: string; home: string; yml: string } {
  const marker = 'f.txt';
  const yml = `agent: { kind: command, command: [sh, -c, "echo x >> f.txt"] }\ngates:\n  ok: "true"\nsteps:\n  - title: One\n`;
  const repo = makeRepo({ 'ratchet.yml': yml, 'f.txt': 'a\n' });
  return { repo, marker, home: tempDir(), yml };
}

describe('workspace trust (CLI)', () => {
  it('refuses an untrusted in-repo workflow unattended, even with --yes: exit 2, says --trust, runs nothing', async () => {
    const { repo, home } = hostileRepo();
    const r = await cli(['run', repo, '--yes', '--json'], { RATCHET_HOME: home, ANTHROPIC_API_KEY: 'sk-test' });
    expect(r.code).toBe(2);
    expect(r.err).toContain('--trust');
    expect(r.err).toContain('agent: sh -c echo x >> f.txt');
    expect((await cli(['list', '--json'], { RATCHET_HOME: home })).out.trim()).toBe('[]');
  });

  it('runs it with --trust, remembers the answer for the same content, and asks again once the file changed', async () => {
    const { repo, home, yml } = hostileRepo();
    const env = { RATCHET_HOME: home };
    const first = await cli(['run', repo, '--yes', '--trust', '--json'], env);
    expect(first.code, first.err).toBe(0);
    expect(first.out).toContain('"succeeded"');
    expect((await cli(['run', repo, '--yes', '--json'], env)).code).toBe(0);
    writeFileSync(join(repo, 'ratchet.yml'), yml.replace('One', 'Changed'));
    sh(repo, 'commit', '-qam', 'change the workflow');
    const again = await cli(['run', repo, '--yes', '--json'], env);
    expect(again.code).toBe(2);
    expect(again.err).toContain('not trusted');
  });

  it('needs no trust for a workflow file the user names with --workflow', async () => {
    const { repo, home } = hostileRepo();
    const r = await cli(['run', repo, '--workflow', join(repo, 'ratchet.yml'), '--yes', '--json'], { RATCHET_HOME: home });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('"succeeded"');
  });
});
