// The PR panel in the browser host against the scripted GitHub (issue 31): a token and Enterprise-style API address saved
// in Settings › GitHub (checked with GitHub first), a task started from a pasted issue URL, Open pull request on the
// succeeded run, then the head commit's required check live: pending, failed, green after a re-run, and merged.
// Screenshots of each at 1400×900 and 1024×700; and the dashboard's Pull requests card on the dev page's statistics
// (screen-dashboard-pull-requests-{1400,1024}.png).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { githubForge } from '../electron/engine/forge/github';
import { startScriptedGithub, type ScriptedGithub } from '../electron/scripted/github-server';
import { serveDevPage } from '../bench/browser';
import { shootScreen } from './app-steps';
import { demoRepo, editWorkflow, shot, startHostProcess, startSpecEnv, type HostProcess, type SpecEnv } from './harness';

let spec: SpecEnv;
let browser: Browser;
let host: HostProcess;
let gh: ScriptedGithub;
let bare: string;
/** Files the CI's `test` job waits for (`go`) and obeys (`fail`): what lets each state of the panel hold still for its screenshot. */
let ciDir: string;

function repoOnGithub(): string {
  const calc = editWorkflow(demoRepo(), (yml) => `${yml}\nforge: { repo: acme/widget }\n`, 'Pull requests on acme/widget');
  bare = join(mkdtempSync(join(tmpdir(), 'ratchet-e2e-gh-')), 'widget.git');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
  execFileSync('git', ['remote', 'add', 'origin', bare], { cwd: calc });
  execFileSync('git', ['push', '-q', 'origin', 'main'], { cwd: calc });
  return calc;
}

beforeAll(async () => {
  spec = await startSpecEnv({ repo: repoOnGithub, startHost: false });
  browser = spec.browser;
  ciDir = mkdtempSync(join(tmpdir(), 'ratchet-e2e-ci-'));
  const go = join(ciDir, 'go');
  const fail = join(ciDir, 'fail');
  // The default branch's own CI passes at once; the run's head (it has src/sub.mjs) waits for `go`, then fails while `fail` exists.
  const command =
    `if [ -f src/sub.mjs ]; then while [ ! -f ${go} ]; do sleep 0.1; done; ` +
    `if [ -f ${fail} ]; then echo 'not ok 1 - sub() subtracts'; exit 1; fi; fi; node --test --test-reporter=tap`;
  gh = await startScriptedGithub({ bare, checks: [{ name: 'test', command, timeoutMs: 120_000 }], scenario: { requiredChecks: ['test'] } });
  host = await startHostProcess({ ...spec.env, RATCHET_PR_POLL_MS: '200' });
  spec.host = host;
}, 180_000);

afterAll(async () => {
  await spec?.close();
  await gh?.close();
  if (ciDir) rmSync(ciDir, { recursive: true, force: true });
});

async function both(page: Page, name: string, ready: () => Promise<unknown>): Promise<void> {
  await page.setViewportSize({ width: 1400, height: 900 });
  await ready();
  await shot(page, `${name}-1400x900`);
  await page.setViewportSize({ width: 1024, height: 700 });
  await ready();
  await shot(page, `${name}-1024x700`);
  await page.setViewportSize({ width: 1400, height: 900 });
}

describe('the PR panel against the scripted GitHub', () => {
  it('saves a checked token, starts a task from an issue, opens its pull request and follows its check: pending, failed, green, merged', async () => {
    const issue = gh.addIssue({ title: 'Calculator', body: 'Add add(), mul() and sub(), each with a test.', comments: ['Node’s test runner, please.'] });
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(host.url);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();

    // Settings › GitHub: the address first (nothing to check yet), then a refused token, then the right one.
    const section = page.getByRole('region', { name: 'GitHub' });
    await section.getByRole('textbox', { name: 'GitHub API address' }).fill(gh.url);
    await section.getByRole('button', { name: 'Save address' }).click();
    await section.getByText('API address checked and saved.').waitFor();
    await section.getByRole('textbox', { name: 'new GitHub token' }).fill('ghp_wrong');
    await section.getByRole('button', { name: 'Save token' }).click();
    await expect(section.getByRole('alert').textContent()).resolves.toMatch(/refused this token \(401 Bad credentials\)/);
    await section.getByRole('textbox', { name: 'new GitHub token' }).fill('test-token');
    await section.getByRole('button', { name: 'Save token' }).click();
    await section.getByTestId('github-login').waitFor();
    await expect(section.getByTestId('github-login').textContent()).resolves.toBe('ratchet-bot');
    await both(page, 'pr-settings-github', () => section.scrollIntoViewIfNeeded());

    // New task from the issue's URL.
    await page.getByRole('link', { name: 'Runs' }).click();
    await page.getByLabel('repository path').fill(spec.repo);
    await page.getByRole('button', { name: 'Use this path' }).click();
    await page.getByRole('heading', { name: 'New task' }).waitFor();
    await page.getByRole('textbox', { name: 'issue URL' }).fill(`${gh.url}/acme/widget/issues/${issue}`);
    await page.getByRole('button', { name: 'Read issue' }).click();
    await page.getByText(`Task from issue`).waitFor();
    await expect(page.getByRole('textbox', { name: 'Title', exact: true }).inputValue()).resolves.toBe('Calculator');
    await page.getByRole('tab', { name: /From the repo/ }).click();
    await page.getByText(/Loaded .*ratchet\.yml/).waitFor();
    await page.getByRole('button', { name: 'Trust', exact: true }).click();
    await page.getByRole('button', { name: 'Start run' }).click();

    const panel = page.getByTestId('pr-panel');
    await panel.waitFor({ timeout: 120_000 });
    await panel.getByRole('checkbox', { name: 'Answer review comments' }).check();
    // Fixing CI is left to the person here, so the failed check holds still for its screenshot (the fix round through
    // the app's loop: electron/engine/service/service-pr-loop.test.ts).
    await panel.getByRole('checkbox', { name: 'Fix failing CI checks' }).uncheck();
    await panel.getByRole('button', { name: 'Open pull request' }).click();
    await panel.getByRole('link', { name: /^#\d+$/ }).waitFor({ timeout: 60_000 });
    const pull = gh.state.pulls.at(-1)!;
    expect(pull.body).toContain(`Fixes #${issue}`);
    expect(gh.state.issueComments.filter((c) => c.issueNumber === issue && c.body.includes(`/pull/${pull.number}`))).toHaveLength(1);

    // Pending: the required check runs (it waits for `go`): never shown as passed.
    const headline = panel.getByRole('status');
    await headline.filter({ hasText: 'Waiting for test.' }).waitFor({ timeout: 60_000 });
    await expect(panel.getByTestId('pr-check').textContent()).resolves.toMatch(/^pending test required/);
    await panel.scrollIntoViewIfNeeded();
    await both(page, 'pr-panel-pending', () => headline.waitFor());

    // Failed: the job reports a failing test.
    writeFileSync(join(ciDir, 'fail'), '');
    writeFileSync(join(ciDir, 'go'), '');
    await panel
      .getByTestId('pr-check')
      .filter({ hasText: /^failure test required/ })
      .waitFor({ timeout: 60_000 });
    await expect(headline.textContent()).resolves.toMatch(/^test failed on [0-9a-f]{8}\.$/);
    await panel.scrollIntoViewIfNeeded();
    await both(page, 'pr-panel-failed', () => headline.waitFor());

    // Green: the failed job re-run (as GitHub's "Re-run failed jobs") passes; Check again follows it.
    rmSync(join(ciDir, 'fail'));
    const forge = githubForge({ token: 'test-token', apiUrl: gh.url, repo: { owner: 'acme', name: 'widget' } });
    const failed = (await forge.checks((await forge.getPull(pull.number)).headSha)).find((c) => c.name === 'test')!;
    await forge.rerunFailedJobs(failed.id!);
    await panel.getByRole('button', { name: 'Check again' }).click();
    await panel
      .getByTestId('pr-check')
      .filter({ hasText: /^passed test required/ })
      .waitFor({ timeout: 60_000 });
    await expect(headline.textContent()).resolves.toMatch(/^Every required check passed on [0-9a-f]{8}\.$/);
    await panel.scrollIntoViewIfNeeded();
    await both(page, 'pr-panel-green', () => headline.waitFor());

    // Merged (by a person on GitHub): the panel says so, and the toggles are gone.
    const head = (await forge.getPull(pull.number)).headSha;
    await forge.merge(pull.number, 'squash', head);
    await page.reload();
    await page
      .getByTestId('pr-panel')
      .getByRole('status')
      .filter({ hasText: /^Merged\.$/ })
      .waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('pr-panel').getByRole('checkbox').count()).toBe(0);
    await page.getByTestId('pr-panel').scrollIntoViewIfNeeded();
    await both(page, 'pr-panel-merged', () => page.getByTestId('pr-panel').waitFor());
    expect(existsSync(join(ciDir, 'go'))).toBe(true);
  }, 400_000);
});

describe('the dashboard’s pull requests', () => {
  it('draws what CI fixes cost and bought, the flaky rate per check and per test, and the infrastructure re-runs, at both sizes', async () => {
    // The dev page: the real renderer over the fake bridge, whose statistics carry a period of pull requests' rounds.
    const dev = await serveDevPage();
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await page.goto(`${dev.url}#/dashboard`);
      const card = page.getByRole('region', { name: 'Pull requests' });
      await card.getByText('6 pull requests watched, 5 merged').waitFor({ timeout: 30_000 });
      await expect(card.getByRole('table', { name: 'Flaky rate per check' }).locator('tbody tr').count()).resolves.toBe(2);
      await shootScreen(page, 'dashboard-pull-requests', () => card.scrollIntoViewIfNeeded());
      await page.close();
    } finally {
      await dev.close();
    }
  }, 120_000);
});
