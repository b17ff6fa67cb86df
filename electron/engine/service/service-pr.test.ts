// The app's GitHub side through the service, against the scripted GitHub over a real bare remote: Settings › GitHub
// (a token checked with one call before it is kept, the environment's winning), New task's issue intake, and the PR
// panel (Open pull request, its toggles kept with the run, the watch that follows the head commit's checks).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GithubSettingsDoc, IssueTaskDoc, PrPanelDoc } from '../../../shared/contract';
import type { ScriptedGithub } from '../../scripted/github-server';
import { githubProject, serveGithub, type GithubFixture } from '../../scripted/testing/github-fixture';
import { create, queue, say, turn } from '../testing/fixture-project';
import { callResult, callValue, until } from '../testing/service-calls';
import { serviceHarness } from '../testing/service-harness';

const harness = serviceHarness();
let f: GithubFixture;
let gh: ScriptedGithub;
let issue: number;

beforeAll(async () => {
  f = githubProject();
  gh = await serveGithub(f, { requiredChecks: ['test'] });
  issue = gh.addIssue({ title: 'Write the release notes', body: 'The notes for 1.2 are missing.', comments: ['Mention the new flag too.'] });
});

afterAll(async () => {
  await gh.close();
  f.cleanup();
});

const start = (env: NodeJS.ProcessEnv = {}) =>
  harness.start({
    server: { script: { rules: queue(turn(create('notes.txt', 'Release notes\n')), say('done')) } },
    service: { env: { ...process.env, ...env } },
  });

describe('Settings › GitHub', () => {
  it('checks a token with one call before keeping it: a refused one is not kept and the answer says why in plain words', async () => {
    const { service } = await start();
    const none = await callValue<GithubSettingsDoc>(service, 'github.settings', {});
    expect(none).toMatchObject({ tokenSource: 'none', login: null, apiUrl: 'https://api.github.com', apiUrlSource: 'default' });
    const refused = await callResult(service, 'github.set', { token: 'ghp_wrong', apiUrl: gh.url });
    expect(refused).toMatchObject({ ok: false, error: { code: 'forge_auth' } });
    if (!refused.ok) {
      expect(refused.error.message).toMatch(/refused this token \(401 Bad credentials\).*paste it again/);
      expect(refused.error.message).not.toContain('ghp_wrong');
    }
    expect(await callValue<GithubSettingsDoc>(service, 'github.settings', {})).toMatchObject({ tokenSource: 'none', apiUrlSource: 'default' });
    const saved = await callValue<GithubSettingsDoc>(service, 'github.set', { token: 'test-token', apiUrl: gh.url });
    expect(saved).toMatchObject({ tokenSource: 'session', login: 'ratchet-bot', apiUrl: gh.url, apiUrlSource: 'settings' });
    expect(saved.tokenWarning).toMatch(/memory only/);
    expect(gh.requests.filter((r) => r.path.split('?')[0] === '/user')).toHaveLength(2);
    const forgotten = await callValue<GithubSettingsDoc>(service, 'github.set', { token: null });
    expect(forgotten).toMatchObject({ tokenSource: 'none', login: null });
  });

  it('GITHUB_TOKEN and RATCHET_GITHUB_API_URL in the environment win and are shown as in use', async () => {
    const { service } = await start({ GITHUB_TOKEN: 'test-token', RATCHET_GITHUB_API_URL: gh.url });
    const doc = await callValue<GithubSettingsDoc>(service, 'github.settings', {});
    expect(doc).toMatchObject({ tokenSource: 'environment', tokenEnv: 'GITHUB_TOKEN', apiUrl: gh.url, apiUrlSource: 'environment' });
  });
});

describe('the PR panel and issue intake', () => {
  it('an issue becomes the task; Open pull request says "Fixes #N", comments once on the issue, and the panel follows the checks to green', async () => {
    const { service, engine, env } = await start();
    await callValue(service, 'github.set', { token: 'test-token', apiUrl: gh.url });
    const ref = `${gh.url}/acme/widget/issues/${issue}`;
    const task = await callValue<IssueTaskDoc>(service, 'issues.read', { repo: f.work, ref });
    expect(task).toMatchObject({ number: issue, repo: 'acme/widget', title: 'Write the release notes' });
    expect(task.description).toContain('The notes for 1.2 are missing.');
    expect(task.description).toContain('Mention the new flag too.');

    const { runId } = await callValue<{ runId: string }>(service, 'runs.start', {
      repo: f.work,
      title: task.title,
      description: task.description,
      steps: [{ title: 'Write the notes' }],
      gates: { test: 'node test.js' },
      issue: ref,
    });
    await until(() => engine.store.getRun(runId)?.status === 'succeeded', 60_000);
    expect(await callValue<PrPanelDoc>(service, 'pr.get', { runId })).toMatchObject({ pr: null, options: { fix: ['ci'], merge: null }, watching: false });

    // Merge when green stays off here: the panel follows the checks to green and the loop ends there (merging: service-pr-loop.test.ts).
    const set = await callValue<PrPanelDoc>(service, 'pr.setOptions', { runId, fix: ['review', 'ci'], merge: null });
    expect(set.options).toEqual({ fix: ['ci', 'review'], merge: null });

    const opened = await callValue<PrPanelDoc>(service, 'pr.open', { runId });
    expect(opened.pr).toMatchObject({ state: 'open', merged: false });
    const pull = gh.state.pulls.find((p) => p.number === opened.pr?.number);
    expect(pull?.body).toContain(`Fixes #${issue}`);
    const said = () => gh.state.issueComments.filter((c) => c.issueNumber === issue && c.body.includes(opened.pr!.url));
    expect(said()).toHaveLength(1);

    let green = await callValue<PrPanelDoc>(service, 'pr.get', { runId });
    expect(green.watching).toBe(true);
    for (const start = Date.now(); green.live?.verdict !== 'green' && Date.now() - start < 60_000;) {
      await new Promise((r) => setTimeout(r, 100));
      green = await callValue<PrPanelDoc>(service, 'pr.get', { runId });
    }
    expect(green.live).toMatchObject({ verdict: 'green', mergeable: true });
    expect(green.pr?.checks).toEqual([{ name: 'test', conclusion: 'success', required: true }]);
    expect(green.options).toEqual({ fix: ['ci', 'review'], merge: null });
    expect(green.progress).toMatch(/is green: every check that counts passed/);

    // Opening again updates the same pull request and the issue hears nothing more.
    await callValue(service, 'pr.open', { runId });
    expect(gh.state.pulls.filter((p) => p.head === pull?.head)).toHaveLength(1);
    expect(said()).toHaveLength(1);
    // The token went to the forge client only, never into the runs' environment.
    expect(Object.values(env)).not.toContain('test-token');
  }, 120_000);

  it('without a token, Open pull request says where to add one (Settings › GitHub), in the app’s words', async () => {
    const { service, engine } = await start();
    const { runId } = await callValue<{ runId: string }>(service, 'runs.start', {
      repo: f.work,
      title: 'Notes',
      steps: [{ title: 'Write the notes' }],
      gates: { test: 'node test.js' },
    });
    await until(() => engine.store.getRun(runId)?.status === 'succeeded', 60_000);
    const r = await callResult(service, 'pr.open', { runId });
    expect(r).toMatchObject({ ok: false, error: { code: 'forge_no_token' } });
    if (!r.ok) {
      expect(r.error.message).toContain('Settings › GitHub');
      expect(r.error.message).not.toContain('GITHUB_TOKEN');
    }
  }, 120_000);
});
