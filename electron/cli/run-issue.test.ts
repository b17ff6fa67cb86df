// `ratchet run <repo> --issue <number|URL>` against the scripted GitHub: the task's title and description come from the
// issue and its comments; with --pr its pull request says "Fixes #N" and the issue gets one comment linking it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../engine/testing/temp-repo';
import type { ScriptedGithub } from '../scripted/github-server';
import { githubProject, serveGithub, TINY_PROJECT, type GithubFixture } from '../scripted/testing/github-fixture';
import { cli } from './testing/run-cli';

const WORKFLOW =
  'agent: { kind: command, command: [sh, -c, "echo done >> notes.txt"] }\ngates:\n  test: "node test.js"\nmax_retries: 0\nsteps:\n  - { title: Write the notes }\n';

let f: GithubFixture;
let gh: ScriptedGithub;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  f = githubProject({ ...TINY_PROJECT, 'ratchet.yml': WORKFLOW });
  gh = await serveGithub(f);
  env = { RATCHET_HOME: tempDir(), GITHUB_TOKEN: 'test-token', RATCHET_GITHUB_API_URL: gh.url };
});

afterAll(async () => {
  await gh.close();
  f.cleanup();
});

describe('ratchet run --issue', () => {
  it('takes the task from the issue and its comments; --pr opens a pull request that says "Fixes #N" and comments once on the issue', async () => {
    const n = gh.addIssue({ title: 'Write the notes', body: 'We need notes.', comments: ['In notes.txt please.'] });
    const url = `${gh.url}/acme/widget/issues/${n}`;
    const r = await cli(['run', f.work, '--yes', '--trust', '--json', '--issue', url, '--pr'], env);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`Task from issue #${n} of acme/widget: Write the notes`);
    const doc = JSON.parse(r.out) as { id: string; title?: string };
    const status = JSON.parse((await cli(['status', doc.id, '--json'], env)).out) as { pr: { number: number; url: string } };
    const pull = gh.state.pulls.find((p) => p.number === status.pr.number)!;
    expect(pull.title).toBe('Write the notes');
    expect(pull.body).toContain('We need notes.');
    expect(pull.body).toContain('In notes.txt please.');
    expect(pull.body).toContain(`Fixes #${n}`);
    expect(gh.state.issueComments.filter((c) => c.issueNumber === n && c.body.includes(status.pr.url))).toHaveLength(1);
  }, 120_000);

  it('an issue that does not exist stops before any run, with GitHub’s answer; a reference that is no issue says what to give', async () => {
    const missing = await cli(['run', f.work, '--yes', '--trust', '--issue', `${gh.url}/acme/widget/issues/999`], env);
    expect(missing.code).not.toBe(0);
    expect(missing.err).toMatch(/404 while reading issue #999/);
    const bad = await cli(['run', f.work, '--yes', '--trust', '--issue', 'the login bug'], env);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("give its number (12) or its page's URL");
    // Only the first test's run exists: neither refused reference started one.
    expect(JSON.parse((await cli(['list', '--json'], env)).out)).toHaveLength(1);
  }, 60_000);
});
