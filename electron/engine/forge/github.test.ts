// The GitHub adapter of the forge port against the scripted GitHub (checked against GitHub's published description),
// over a real bare remote whose CI really runs the tiny project's test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedGithub } from '../../scripted/github-server';
import { githubProject, pushBranch, serveGithub, type GithubFixture } from '../../scripted/testing/github-fixture';
import { githubForge } from './github';
import type { Forge } from './forge';

let f: GithubFixture;
let gh: ScriptedGithub;
let forge: Forge;

beforeAll(async () => {
  f = githubProject();
  gh = await serveGithub(f, { requiredChecks: ['test'] });
  forge = githubForge({ token: 'test-token', apiUrl: gh.url, repo: { owner: 'acme', name: 'widget' } });
});

afterAll(async () => {
  await gh.close();
  f.cleanup();
});

describe('the GitHub forge', () => {
  it('opens a pull request, finds it again by its branch, updates it, and reads the required checks of the base', async () => {
    pushBranch(f, 'ratchet/a', { 'value.js': 'exports.value = () => 41;\n' });
    expect(await forge.defaultBranch()).toBe('main');
    expect(await forge.findOpenPull('ratchet/a', 'main')).toBeNull();
    const pr = await forge.createPull({ head: 'ratchet/a', base: 'main', title: 'A', body: 'first', draft: false });
    expect(pr).toMatchObject({ state: 'open', headBranch: 'ratchet/a', baseBranch: 'main', url: `${gh.url}/acme/widget/pull/${pr.number}` });
    expect((await forge.findOpenPull('ratchet/a', 'main'))?.number).toBe(pr.number);
    expect((await forge.updatePull(pr.number, { body: 'second' })).body).toBe('second');
    expect(await forge.requiredChecks('main')).toEqual(['test']);
    expect(await forge.requiredChecks('ratchet/a')).toEqual([]);
  });

  it('reads the head’s checks and the failing job’s whole log; re-runs the failed jobs', async () => {
    const pr = (await forge.findOpenPull('ratchet/a', 'main'))!;
    await gh.idle();
    const checks = await forge.checks(pr.headSha);
    expect(checks).toMatchObject([{ name: 'test', kind: 'check_run', status: 'completed', conclusion: 'failure' }]);
    const log = await forge.jobLog(checks[0]!.id!);
    expect(log).toContain('not ok 1 - value() returns 42 (got 41)');
    await forge.rerunFailedJobs(checks[0]!.id!);
    await gh.idle();
    const again = await forge.checks(pr.headSha);
    expect(again[0]!.id).not.toBe(checks[0]!.id);
  });

  it('watching an unchanged pull request costs nothing against the rate limit: each repeated GET is a free 304 with the same answer', async () => {
    const pr = (await forge.findOpenPull('ratchet/a', 'main'))!;
    const first = await forge.getPull(pr.number);
    const before = forge.usage();
    const counted = gh.rateLimitUsed();
    for (let i = 0; i < 5; i++) expect(await forge.getPull(pr.number)).toEqual(first);
    const after = forge.usage();
    expect(after.requests - before.requests).toBe(5);
    expect(after.notModified - before.notModified).toBe(5);
    expect(gh.rateLimitUsed()).toBe(counted);
  });

  it('a new commit on the branch changes the answer: the head moves and the checks follow', async () => {
    const head = pushBranch(f, 'ratchet/a', { 'value.js': 'exports.value = () => 42;\n' }, 'fix');
    const pr = (await forge.findOpenPull('ratchet/a', 'main'))!;
    expect((await forge.getPull(pr.number)).headSha).toBe(head);
    await gh.idle();
    expect(await forge.checks(head)).toMatchObject([{ name: 'test', conclusion: 'success' }]);
    expect((await forge.merge(pr.number, 'squash', head)).sha).toMatch(/^[0-9a-f]{40}$/);
  });

  it('reviews and their line comments, a reply on a thread, an issue with its comments and a comment on it', async () => {
    pushBranch(f, 'ratchet/b', { 'notes.txt': 'one\ntwo\n' });
    const pr = await forge.createPull({ head: 'ratchet/b', base: 'main', title: 'B', body: '', draft: true });
    const review = await gh.submitReview(pr.number, { state: 'CHANGES_REQUESTED', comments: [{ path: 'notes.txt', line: 2, body: 'two?' }] });
    expect(await forge.reviews(pr.number)).toMatchObject([{ id: review.id, state: 'CHANGES_REQUESTED', author: 'reviewer' }]);
    const [comment] = await forge.reviewComments(pr.number, review.id);
    expect(comment).toMatchObject({ path: 'notes.txt', line: 2, body: 'two?', diffHunk: '@@ -0,0 +1,2 @@\n+one\n+two' });
    await forge.replyToReviewComment(pr.number, comment!.id, 'Fixed in abc.');
    expect(gh.state.reviewComments.at(-1)).toMatchObject({ inReplyToId: comment!.id, body: 'Fixed in abc.', user: 'ratchet-bot' });
    const n = gh.addIssue({ title: 'Bug', body: 'It breaks', comments: ['also here'] });
    expect(await forge.issue(n)).toMatchObject({ number: n, title: 'Bug', body: 'It breaks', comments: ['also here'] });
    await forge.commentOnIssue(n, 'PR opened');
    expect(gh.state.issueComments.at(-1)).toMatchObject({ issueNumber: n, body: 'PR opened' });
  });

  it('a refused token is a sentence that says which variables to set, and never contains the token', async () => {
    const bad = githubForge({ token: 'ghp_wrongwrongwrong', apiUrl: gh.url, repo: { owner: 'acme', name: 'widget' } });
    const err = (await bad.defaultBranch().then(
      () => null,
      (e: unknown) => e,
    )) as Error & { code: string };
    expect(err).toMatchObject({ code: 'forge_auth' });
    expect(err.message).toMatch(/GITHUB_TOKEN or GH_TOKEN/);
    expect(err.message).not.toContain('ghp_wrong');
  });

  it('a secondary rate limit is waited out (retry-after) and told to the caller', async () => {
    const g2 = await serveGithub(f, { secondaryRateLimit: { atRequest: 1, retryAfterSeconds: 1 } });
    const waits: [number, string][] = [];
    const limited = githubForge({ token: 'test-token', apiUrl: g2.url, repo: { owner: 'acme', name: 'widget' }, onWait: (s, why) => waits.push([s, why]) });
    try {
      expect(await limited.defaultBranch()).toBe('main');
      expect(waits).toEqual([[1, 'secondary rate limit']]);
      expect(limited.usage().requests).toBe(2);
    } finally {
      await g2.close();
    }
  });
});
