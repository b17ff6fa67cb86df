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

  it('binds the answer to the content shown: a file changed while the question is open is not run, and its new hash is not trusted', async () => {
    const { repo, home, yml } = hostileRepo();
    const env = { RATCHET_HOME: home };
    const swapped = yml.replace('echo x', 'echo SWAPPED');
    const r = await cli(['run', repo, '--yes'], env, [
      [
        /Trust this workflow file/,
        () => {
          writeFileSync(join(repo, 'ratchet.yml'), swapped);
          return 'y';
        },
      ],
    ]);
    expect(r.err).toContain('agent: sh -c echo x >> f.txt');
    expect(r.code, r.err).toBe(2);
    expect(r.err).toContain('changed after it was shown to you');
    expect((await cli(['list', '--json'], env)).out.trim()).toBe('[]');
    // The swapped content was never trusted: unattended, it is refused as any new content is.
    const again = await cli(['run', repo, '--yes', '--json'], env);
    expect(again.code).toBe(2);
    expect(again.err).toContain('not trusted');
    expect(again.err).toContain('agent: sh -c echo SWAPPED >> f.txt');
    expect((await cli(['list', '--json'], env)).out.trim()).toBe('[]');
  });

  it('lists everything the file would allow, with warnings: sandbox.env secrets, network wildcards and registries, limits, setup, copy, notify, the agent, its budget', async () => {
    const yml = `agent: { kind: anthropic, model: claude-sonnet-5-5 }
gates:
  test: { run: "true", restart: "echo restart" }
retry:
  - validate: "sh check.sh"
setup: { run: ["npm ci"], network: ["registry:npm"] }
copy: [".env", "config/local.json"]
sandbox:
  env: [ANTHROPIC_API_KEY, AWS_SECRET_ACCESS_KEY, GITHUB_TOKEN, NODE_OPTIONS]
  network: ["*.example.com", "api.example.org", "localhost:5432"]
  limits: { memory_mb: 65536, processes: 100000 }
notify: { webhook: "https://hooks.example.net/catch?k=1" }
budget: { task_usd: 500 }
steps:
  - title: One
`;
    const repo = makeRepo({ 'ratchet.yml': yml });
    const r = await cli(['run', repo, '--yes', '--json'], { RATCHET_HOME: tempDir(), ANTHROPIC_API_KEY: 'sk-test' });
    expect(r.code).toBe(2);
    const lines = r.err.split('\n');
    const warned = (item: string, warning: RegExp) => {
      const i = lines.findIndex((l) => l.trim() === item);
      expect(i, `${item} in:\n${r.err}`).toBeGreaterThanOrEqual(0);
      expect(lines[i + 1] ?? '').toMatch(warning);
    };
    for (const item of [
      'gate test: true',
      'gate test restart: echo restart',
      'retry[0] validate: sh check.sh',
      'setup: npm ci',
      'copy: config/local.json',
      'sandbox.env: NODE_OPTIONS',
      'sandbox.network: api.example.org',
      'agent: anthropic (model claude-sonnet-5-5)',
    ]) {
      expect(lines.map((l) => l.trim())).toContain(item);
    }
    expect(r.err).toMatch(/setup network: registry:npm — the package registry your npm is configured with/);
    warned('copy: .env', /looks like a secret/);
    warned('sandbox.env: ANTHROPIC_API_KEY', /looks like a secret/);
    warned('sandbox.env: AWS_SECRET_ACCESS_KEY', /looks like a secret/);
    warned('sandbox.env: GITHUB_TOKEN', /looks like a secret/);
    warned('sandbox.network: *.example.com', /wildcard/);
    warned('sandbox.network: localhost:5432', /your own machine/);
    warned('notify webhook: https://hooks.example.net/catch?k=1', /notifications there/);
    warned('budget: task $500.00', /replaces the budget in your Settings/);
    expect(lines.map((l) => l.trim())).toContain('sandbox.limits: memory 65536 MB, 100000 processes');
    expect(lines[lines.findIndex((l) => l.trim() === 'sandbox.env: NODE_OPTIONS') + 1]).not.toMatch(/secret/);
  });

  it('needs no trust for a workflow file the user names with --workflow', async () => {
    const { repo, home } = hostileRepo();
    const r = await cli(['run', repo, '--workflow', join(repo, 'ratchet.yml'), '--yes', '--json'], { RATCHET_HOME: home });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('"succeeded"');
  });
});
