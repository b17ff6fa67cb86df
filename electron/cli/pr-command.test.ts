// `ratchet pr <run>` against the scripted GitHub over a bare remote: the branch pushed, the pull request opened with a
// body written from the run (then updated, never opened twice), its URL on stdout, the `pr` object in the status
// document, and the token kept out of the store.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings, saveSettings } from '../engine/settings/settings-store';
import { sh, tempDir } from '../engine/testing/temp-repo';
import type { ScriptedGithub } from '../scripted/github-server';
import { githubProject, serveGithub, TINY_PROJECT, type GithubFixture } from '../scripted/testing/github-fixture';
import { cli } from './testing/run-cli';

const TOKEN = 'ghp_scriptedTokenNeverStored123';
const WORKFLOW =
  'agent: { kind: command, command: [sh, -c, "echo done >> notes.txt"] }\ngates:\n  test: "node test.js"\nmax_retries: 0\nforge: { repo: acme/widget }\nsteps:\n  - { title: Write the notes }\n';

let f: GithubFixture;
let gh: ScriptedGithub;
let env: NodeJS.ProcessEnv;
let runId: string;

/** Every byte under a folder, as text (the store, its WAL, settings, logs). */
function allBytes(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((p) => join(dir, p))
    .filter((p) => statSync(p).isFile())
    .map((p) => readFileSync(p).toString('latin1'))
    .join('\n');
}

beforeAll(async () => {
  f = githubProject({ ...TINY_PROJECT, 'ratchet.yml': WORKFLOW });
  gh = await serveGithub(f, { requiredChecks: ['test'] });
  env = { RATCHET_HOME: tempDir(), GITHUB_TOKEN: TOKEN, RATCHET_GITHUB_API_URL: gh.url };
  const r = await cli(['run', f.work, '--yes', '--trust', '--json', '--task', 'Write the notes'], env);
  expect(r.code, r.err).toBe(0);
  runId = (JSON.parse(r.out) as { id: string }).id;
}, 120_000);

afterAll(async () => {
  await gh.close();
  f.cleanup();
});

describe('ratchet pr', () => {
  it('pushes the run’s branch and opens its pull request with a body written from the run; stdout is the URL', async () => {
    const r = await cli(['pr', runId], { ...env, GITHUB_TOKEN: 'test-token' });
    expect(r.code, r.err).toBe(0);
    const pull = gh.state.pulls[0]!;
    expect(r.out.trim()).toBe(`${gh.url}/acme/widget/pull/${pull.number}`);
    expect(r.err).toContain(`Opened pull request #${pull.number}`);
    const branch = sh(f.work, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/ratchet/');
    expect(pull).toMatchObject({ head: branch, base: 'main', title: 'Write the notes', state: 'open' });
    const commit = sh(f.work, 'rev-parse', branch);
    expect(sh(f.bare, 'rev-parse', branch)).toBe(commit);
    expect(pull.body).toContain(`1. **Write the notes** — \`${commit.slice(0, 8)}\``);
    expect(pull.body).toContain("Gates passed on each step's final commit: `test`.");
    expect(pull.body).toMatch(/### Cost\n\n\S+ over 1 attempt\./);
  });

  it('a second `ratchet pr` updates the same pull request, and --json prints the status document with its pr, as status --json does', async () => {
    const before = gh.state.pulls.length;
    const r = await cli(['pr', runId, '--json'], { ...env, GITHUB_TOKEN: 'test-token' });
    expect(r.code, r.err).toBe(0);
    expect(gh.state.pulls).toHaveLength(before);
    expect(r.err).toContain('Updated pull request');
    const doc = JSON.parse(r.out) as {
      id: string;
      pr: { number: number; url: string; state: string; headSha: string; merged: boolean; checks: unknown[]; rounds: unknown[] };
    };
    expect(doc.pr).toMatchObject({ number: gh.state.pulls[0]!.number, state: 'open', merged: false, rounds: [] });
    expect(doc.pr.checks).toContainEqual({ name: 'test', conclusion: expect.toBeOneOf([null, 'success']), required: true });
    const status = await cli(['status', runId, '--json'], env);
    expect((JSON.parse(status.out) as { pr: unknown }).pr).toEqual(doc.pr);
  });

  it('without a token: exit 2 and what to set; a refused token: exit 1 and no token in the sentence', async () => {
    const none = await cli(['pr', runId], { ...env, GITHUB_TOKEN: '' });
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/set GITHUB_TOKEN \(or GH_TOKEN\)/);
    const refused = await cli(['pr', runId], env);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/GitHub refused the token/);
    expect(refused.err).not.toContain(TOKEN);
  });

  it('uses the API address saved in Settings › GitHub when RATCHET_GITHUB_API_URL is unset; the environment still wins over it', async () => {
    const home = env.RATCHET_HOME!;
    try {
      saveSettings(home, { ...loadSettings(home), githubApiUrl: gh.url });
      const saved = await cli(['pr', runId], { ...env, GITHUB_TOKEN: 'test-token', RATCHET_GITHUB_API_URL: '' });
      expect(saved.code, saved.err).toBe(0);
      expect(saved.out.trim()).toBe(`${gh.url}/acme/widget/pull/${gh.state.pulls[0]!.number}`);
      // A saved address nothing answers at: the environment's is the one used.
      saveSettings(home, { ...loadSettings(home), githubApiUrl: 'http://127.0.0.1:9/api/v3' });
      const wins = await cli(['pr', runId], { ...env, GITHUB_TOKEN: 'test-token' });
      expect(wins.code, wins.err).toBe(0);
    } finally {
      saveSettings(home, { ...loadSettings(home), githubApiUrl: null });
    }
  });

  it('ratchet run --pr opens the pull request when the run succeeds; without a token it refuses before the run starts (exit 2)', async () => {
    const runs = async () => (JSON.parse((await cli(['list', '--json'], env)).out) as unknown[]).length;
    const before = await runs();
    const refused = await cli(['run', f.work, '--yes', '--trust', '--task', 'Another note', '--pr'], { ...env, GITHUB_TOKEN: '' });
    expect(refused.code).toBe(2);
    expect(await runs()).toBe(before);
    const r = await cli(['run', f.work, '--yes', '--trust', '--task', 'Another note', '--pr'], { ...env, GITHUB_TOKEN: 'test-token' });
    expect(r.code, r.err).toBe(0);
    const pull = gh.state.pulls.find((p) => p.title === 'Another note');
    expect(pull?.state).toBe('open');
    expect(r.out.trim().split('\n').at(-1)).toBe(`${gh.url}/acme/widget/pull/${pull?.number}`);
  });

  it('--watch follows the head’s checks until they decide: progress on stderr, exit 0 when green, the pr kept in the status', async () => {
    const r = await cli(['pr', runId, '--watch', '--json'], { ...env, GITHUB_TOKEN: 'test-token', RATCHET_PR_POLL_MS: '50' });
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/#\d+ [0-9a-f]{8}: test ✓ success/);
    expect(r.err).toMatch(/is green: every check that counts passed/);
    expect(r.err).not.toMatch(/304/); // Octokit's own logger stays quiet on the watch's conditional requests
    const doc = JSON.parse(r.out) as { pr: { checks: unknown[] } };
    expect(doc.pr.checks).toEqual([{ name: 'test', conclusion: 'success', required: true }]);
  });

  it('--watch --fix none on a check that fails in CI (its environment broken) ends failed for good: exit 1, naming the check', async () => {
    gh.setScenario({ requiredChecks: ['test'], brokenOnBase: ['test'] });
    try {
      const run = await cli(['run', f.work, '--yes', '--trust', '--json', '--task', 'Third note'], env);
      expect(run.code, run.err).toBe(0);
      const id = (JSON.parse(run.out) as { id: string }).id;
      const r = await cli(['pr', id, '--watch', '--fix', 'none'], { ...env, GITHUB_TOKEN: 'test-token', RATCHET_PR_POLL_MS: '50' });
      expect(r.code, r.err).toBe(1);
      expect(r.err).toMatch(/failed: test \(failure\) on [0-9a-f]{8}/);
    } finally {
      gh.setScenario({ requiredChecks: ['test'] });
    }
  });

  it('the token is nowhere in Ratchet’s home (store, its journal, settings, logs)', async () => {
    expect(allBytes(env.RATCHET_HOME as string)).not.toContain(TOKEN);
    expect(allBytes(env.RATCHET_HOME as string)).not.toContain('test-token');
  });
});
