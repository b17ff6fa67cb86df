// Drives the scripted GitHub server with the real Octokit client (and its throttling plugin), over a real bare remote
// whose pushed commits get CI that really runs the project's test command.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { Octokit } from '@octokit/rest';
import { throttling } from '@octokit/plugin-throttling';
import type { GithubScenario, ScriptedGithub } from './github-server';
import { githubProject, pushBranch, serveGithub, type GithubFixture } from './testing/github-fixture';

const servers: ScriptedGithub[] = [];
const fixtures: GithubFixture[] = [];

function project(): GithubFixture {
  const f = githubProject();
  fixtures.push(f);
  return f;
}

async function serve(f: GithubFixture, scenario: GithubScenario = {}): Promise<ScriptedGithub> {
  const gh = await serveGithub(f, scenario);
  servers.push(gh);
  return gh;
}

function client(gh: ScriptedGithub, token = 'test-token'): Octokit {
  return new Octokit({ auth: token, baseUrl: gh.url, request: { retries: 0 } });
}

const OWNER = { owner: 'acme', repo: 'widget' };

async function checksOf(octo: Octokit, ref: string): Promise<{ name: string; status: string; conclusion: string | null; id: number }[]> {
  const { data } = await octo.checks.listForRef({ ...OWNER, ref });
  return data.check_runs.map((c) => ({ name: c.name, status: c.status, conclusion: c.conclusion, id: c.id }));
}

/** The latest check runs on a commit once every CI job the server will run has finished. */
async function settled(gh: ScriptedGithub, octo: Octokit, ref: string): Promise<{ name: string; status: string; conclusion: string | null; id: number }[]> {
  await gh.idle();
  return checksOf(octo, ref);
}

let f: GithubFixture;
let gh: ScriptedGithub;
let octo: Octokit;

beforeAll(async () => {
  f = project();
  gh = await serve(f, { requiredChecks: ['test'] });
  octo = client(gh);
});

afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  for (const fx of fixtures.splice(0)) fx.cleanup();
});

describe('requests checked against GitHub’s published description', () => {
  it('refuses a body field of the wrong type with 422, as GitHub does, naming the field', async () => {
    const res = await fetch(`${gh.url}/repos/acme/widget/pulls`, {
      method: 'POST',
      headers: { authorization: 'token test-token', 'content-type': 'application/json' },
      body: JSON.stringify({ title: 7, head: 'x', base: 'main' }),
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { message: string }).message).toMatch(/title/);
  });

  it('refuses an enum value the description does not list, a body that is not JSON, a route it does not have, a bad token', async () => {
    await expect(octo.pulls.list({ ...OWNER, state: 'bogus' as 'open' })).rejects.toMatchObject({ status: 422 });
    const notJson = await fetch(`${gh.url}/repos/acme/widget/pulls`, { method: 'POST', headers: { authorization: 'token test-token' }, body: '{"title":' });
    expect(notJson.status).toBe(400);
    expect((await fetch(`${gh.url}/repos/acme/widget/no-such-thing`, { headers: { authorization: 'token test-token' } })).status).toBe(404);
    await expect(client(gh, 'wrong').repos.get(OWNER)).rejects.toMatchObject({ status: 401 });
  });

  it('answers the repository under /api/v3 too, as GitHub Enterprise serves it', async () => {
    const enterprise = new Octokit({ auth: 'test-token', baseUrl: `${gh.url}/api/v3` });
    const { data } = await enterprise.repos.get(OWNER);
    expect(data.default_branch).toBe('main');
    expect(data.full_name).toBe('acme/widget');
  });
});

describe('CI that really runs the test command on the pushed commit', () => {
  it('reports a failing check with the test’s own output in the job log, and a passing one on main', async () => {
    const bad = pushBranch(f, 'fix-a', { 'value.js': 'exports.value = () => 41;\n' });
    const runs = await settled(gh, octo, bad);
    expect(runs).toMatchObject([{ name: 'test', status: 'completed', conclusion: 'failure' }]);
    const log = await octo.actions.downloadJobLogsForWorkflowRun({ ...OWNER, job_id: runs[0]?.id as number });
    expect(String(log.data)).toContain('not ok 1 - value() returns 42 (got 41)');
    expect(String(log.data)).toContain('##[error]Process completed with exit code 1.');
    const main = await settled(gh, octo, 'heads/main');
    expect(main).toMatchObject([{ name: 'test', conclusion: 'success' }]);
  });

  it('a fix pushed on the branch gets a new run that passes', async () => {
    const good = pushBranch(f, 'fix-a', { 'value.js': 'exports.value = () => 42;\n' }, 'fix');
    expect(await settled(gh, octo, good)).toMatchObject([{ name: 'test', conclusion: 'success' }]);
  });
});

describe('pull requests', () => {
  it('opens one per branch: a second create is refused as GitHub refuses it, and the list by head finds the first', async () => {
    pushBranch(f, 'feat-b', { 'notes.txt': 'hello\n' });
    const { data: pr } = await octo.pulls.create({ ...OWNER, head: 'feat-b', base: 'main', title: 'Feat B', body: 'body' });
    expect(pr.html_url).toBe(`${gh.url}/acme/widget/pull/${pr.number}`);
    await expect(octo.pulls.create({ ...OWNER, head: 'feat-b', base: 'main', title: 'again' })).rejects.toMatchObject({
      status: 422,
      response: { data: { errors: [{ message: 'A pull request already exists for acme:feat-b.' }] } },
    });
    const { data: open } = await octo.pulls.list({ ...OWNER, head: 'acme:feat-b', state: 'open' });
    expect(open.map((p) => p.number)).toEqual([pr.number]);
    const { data: updated } = await octo.pulls.update({ ...OWNER, pull_number: pr.number, body: 'new body' });
    expect(updated.body).toBe('new body');
  });

  it('never merges while a required check is not green on the head, then merges into the bare remote once it is', async () => {
    const head = pushBranch(f, 'feat-c', { 'value.js': 'exports.value = () => 40;\n' });
    const { data: pr } = await octo.pulls.create({ ...OWNER, head: 'feat-c', base: 'main', title: 'Feat C' });
    await settled(gh, octo, head);
    const { data: blocked } = await octo.pulls.get({ ...OWNER, pull_number: pr.number });
    expect(blocked.mergeable_state).toBe('blocked');
    await expect(octo.pulls.merge({ ...OWNER, pull_number: pr.number, merge_method: 'squash' })).rejects.toMatchObject({ status: 405 });
    const fixed = pushBranch(f, 'feat-c', { 'value.js': 'exports.value = () => 42;\n' }, 'fix c');
    await expect(octo.pulls.merge({ ...OWNER, pull_number: pr.number, sha: head })).rejects.toMatchObject({ status: 409 });
    await settled(gh, octo, fixed);
    const { data: merged } = await octo.pulls.merge({ ...OWNER, pull_number: pr.number, merge_method: 'squash', sha: fixed });
    expect(merged.merged).toBe(true);
    expect(execFileSync('git', [`--git-dir=${f.bare}`, 'rev-parse', 'main'], { encoding: 'utf8' }).trim()).toBe(merged.sha);
    expect(execFileSync('git', [`--git-dir=${f.bare}`, 'show', 'main:value.js'], { encoding: 'utf8' })).toContain('42');
  });

  it('a required check that stays queued is never green: the pull request is blocked and the merge refused', async () => {
    const fx = project();
    const g = await serve(fx, { requiredChecks: ['test', 'deploy'], pendingChecks: ['deploy'] });
    const o = client(g);
    const head = pushBranch(fx, 'feat-d', { 'notes.txt': 'd\n' });
    const { data: pr } = await o.pulls.create({ ...OWNER, head: 'feat-d', base: 'main', title: 'D' });
    expect(await settled(g, o, head)).toMatchObject([
      { name: 'test', status: 'completed', conclusion: 'success' },
      { name: 'deploy', status: 'queued', conclusion: null },
    ]);
    const { data: blocked } = await o.pulls.get({ ...OWNER, pull_number: pr.number });
    expect(blocked.mergeable_state).toBe('blocked');
    await expect(o.pulls.merge({ ...OWNER, pull_number: pr.number })).rejects.toMatchObject({
      status: 405,
      message: expect.stringContaining('Required status check "deploy" is pending.'),
    });
  });
});

describe('scenario knobs', () => {
  it('flaky once: the first run fails with a test failure, a re-run of the failed jobs passes on the same commit', async () => {
    const fx = project();
    const g = await serve(fx, { flakyOnce: ['test'] });
    const o = client(g);
    const head = pushBranch(fx, 'feat-e', { 'notes.txt': 'e\n' });
    const [first] = await settled(g, o, head);
    expect(first?.conclusion).toBe('failure');
    const { data: job } = await o.actions.getJobForWorkflowRun({ ...OWNER, job_id: first?.id as number });
    await o.actions.reRunWorkflowFailedJobs({ ...OWNER, run_id: job.run_id });
    const [second] = await settled(g, o, head);
    expect(second?.id).not.toBe(first?.id);
    expect(second?.conclusion).toBe('success');
    const { data: all } = await o.checks.listForRef({ ...OWNER, ref: head, filter: 'all' });
    expect(all.total_count).toBe(2);
  });

  it('infrastructure loss: the runner is lost (exit 143) with no test output in the log', async () => {
    const fx = project();
    const g = await serve(fx, { infrastructureLossOnce: ['test'] });
    const o = client(g);
    const head = pushBranch(fx, 'feat-f', { 'notes.txt': 'f\n' });
    const [run] = await settled(g, o, head);
    const log = String((await o.actions.downloadJobLogsForWorkflowRun({ ...OWNER, job_id: run?.id as number })).data);
    expect(log).toContain('exit code 143');
    expect(log).not.toMatch(/ok 1/);
  });

  it('broken on the base: the check fails on the default branch’s head as well', async () => {
    const fx = project();
    const g = await serve(fx, { brokenOnBase: ['test'] });
    const o = client(g);
    const head = pushBranch(fx, 'feat-g', { 'notes.txt': 'g\n' });
    expect(await settled(g, o, head)).toMatchObject([{ conclusion: 'failure' }]);
    expect(await settled(g, o, 'heads/main')).toMatchObject([{ conclusion: 'failure' }]);
  });

  it('a review of three line comments, each with the diff hunk it refers to, answered by replies on its thread', async () => {
    pushBranch(f, 'feat-h', { 'a.txt': 'one\ntwo\nthree\n', 'b.txt': 'bee\n' });
    const { data: pr } = await octo.pulls.create({ ...OWNER, head: 'feat-h', base: 'main', title: 'H' });
    const review = await gh.submitReview(pr.number, {
      state: 'CHANGES_REQUESTED',
      comments: [
        { path: 'a.txt', line: 1, body: 'why one?' },
        { path: 'a.txt', line: 3, body: 'three!' },
        { path: 'b.txt', line: 1, body: 'bee?' },
      ],
    });
    const { data: reviews } = await octo.pulls.listReviews({ ...OWNER, pull_number: pr.number });
    expect(reviews).toMatchObject([{ id: review.id, state: 'CHANGES_REQUESTED' }]);
    const { data: comments } = await octo.pulls.listCommentsForReview({ ...OWNER, pull_number: pr.number, review_id: review.id });
    expect(comments.map((c) => [c.path, c.line])).toEqual([
      ['a.txt', 1],
      ['a.txt', 3],
      ['b.txt', 1],
    ]);
    expect(comments[1]?.diff_hunk).toBe('@@ -0,0 +1,3 @@\n+one\n+two\n+three');
    for (const c of comments)
      await octo.pulls.createReplyForReviewComment({ ...OWNER, pull_number: pr.number, comment_id: c.id, body: `fixed in abc (${c.id})` });
    const { data: thread } = await octo.pulls.listReviewComments({ ...OWNER, pull_number: pr.number });
    expect(thread.filter((c) => c.in_reply_to_id !== undefined).map((c) => c.in_reply_to_id)).toEqual(comments.map((c) => c.id));
    await expect(gh.submitReview(pr.number, { state: 'COMMENTED', comments: [{ path: 'a.txt', line: 9, body: 'x' }] })).rejects.toThrow(/not in the diff/);
  });
});

describe('rate limits', () => {
  it('a conditional request answered 304 costs nothing against the rate limit; a changed answer costs one', async () => {
    const first = await octo.repos.get(OWNER);
    const before = gh.rateLimitUsed();
    await expect(octo.repos.get({ ...OWNER, headers: { 'if-none-match': first.headers.etag } })).rejects.toMatchObject({ status: 304 });
    expect(gh.rateLimitUsed()).toBe(before);
    expect(first.headers['x-ratelimit-limit']).toBe('5000');
  });

  it('a 403 secondary rate limit with retry-after is waited out by Octokit’s throttling plugin before it asks again', async () => {
    const g = await serve(project(), { secondaryRateLimit: { atRequest: 2, retryAfterSeconds: 1 } });
    const Throttled = Octokit.plugin(throttling);
    const waits: number[] = [];
    const o = new Throttled({
      auth: 'test-token',
      baseUrl: g.url,
      throttle: {
        onRateLimit: () => false,
        onSecondaryRateLimit: (after: number) => {
          waits.push(after);
          return true;
        },
      },
    });
    await o.repos.get(OWNER);
    const started = Date.now();
    const { data } = await o.repos.get(OWNER);
    expect(data.name).toBe('widget');
    expect(waits).toEqual([1]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(g.requests.filter((r) => r.status === 403)).toHaveLength(1);
  });
});
