// The user flow end to end: add a repo, start a 3-step task, watch step 2 fail and be retried, read the attempt history;
// kill the host mid-run, restart it, resume from the start-up dialog to success; check the dashboard against the runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { attemptCount, shot, startHostProcess, startOfStep, startSpecEnv, storeRuns, until, type HostProcess, type SpecEnv } from './harness';
import { startTask as startTaskIn } from './app-steps';

let spec: SpecEnv;
let browser: Browser;
let host: HostProcess | undefined;
let home: string;
let repo: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  // The tests start (and kill) the host themselves.
  spec = await startSpecEnv({ startHost: false });
  ({ browser, home, repo, env } = spec);
});

afterAll(async () => {
  await host?.kill();
  await spec?.close();
});

/** New task for the demo repository, with a screenshot of the form before its workflow file is trusted. */
async function startTask(page: Page, title: string) {
  // The repository's own workflow file must be trusted once (workspace trust); later runs of the same file are not asked.
  await startTaskIn(page, repo, title, { afterLoad: () => shot(page, 'new-task') });
}

const runStatus = () => storeRuns(home);
const runsSoFar = () => `the runs; runs: ${JSON.stringify(runStatus())}`;

describe('Ratchet in the browser, against the headless host', () => {
  it('runs a 3-step task whose step 2 fails once and is retried, with the attempt history on screen', async () => {
    host = await startHostProcess(env);
    const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    await page.goto(host.url);
    await page.getByLabel('repository path').waitFor();
    expect(page.url()).not.toContain('token=');
    await shot(page, 'home-empty');
    await startTask(page, 'Calculator');
    await page.locator('.run-header, header').getByText('succeeded', { exact: true }).first().waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: /Add mul\(\)/ }).click();
    await page.getByRole('tab', { name: /Attempt 1/ }).click();
    await page.getByText('multiplies two numbers').first().waitFor();
    await expect(page.getByRole('tab', { name: /Attempt 1.*test failure/i }).count()).resolves.toBe(1);
    await expect(page.getByRole('tab', { name: /Attempt 2/ }).count()).resolves.toBe(1);
    await shot(page, 'run-attempt-history');
    await page.getByRole('tab', { name: /Attempt 2/ }).click();
    await shot(page, 'run-attempt-passed');
    await page.close();
  });

  it('survives a kill of the host mid-run: the start-up dialog resumes the run to success', async () => {
    const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    await page.goto(host!.url);
    // Step 2's first question to the agent is held: the run stays in step 2 until the host is killed there.
    spec.server.hold(startOfStep(2));
    await startTask(page, 'Calculator again');
    // Kill the whole host as soon as step 1 is committed and step 2 is under way.
    const run = await until(() => runStatus().find((r) => r.title === 'Calculator again'), { ms: 60_000, describe: runsSoFar });
    await until(() => attemptCount(home, run.id, 2) > 0, { ms: 60_000, describe: runsSoFar });
    await host!.kill('SIGKILL');
    await page.close();

    host = await startHostProcess(env);
    const again = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    await again.goto(host.url);
    await again.getByRole('dialog').getByText('Resume plan').first().waitFor({ timeout: 30_000 });
    await again.getByRole('dialog').getByText('Completed work').waitFor({ timeout: 30_000 });
    await shot(again, 'resume-dialog');
    spec.server.release();
    await again.getByRole('button', { name: 'Proceed', exact: true }).click();
    await until(() => runStatus().find((r) => r.id === run.id && r.status === 'succeeded'), { ms: 90_000, describe: runsSoFar });
    await again.goto(`${host.url.split('?')[0]}#/runs/${run.id}`);
    await again.locator('header').getByText('succeeded', { exact: true }).first().waitFor({ timeout: 30_000 });
    await shot(again, 'run-resumed');
    await again.close();
  });

  it('shows dashboard numbers that match the runs', async () => {
    const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    await page.goto(host!.url);
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    const runs = runStatus();
    const succeeded = runs.filter((r) => r.status === 'succeeded').length;
    expect(succeeded).toBe(2);
    await page.getByText(`${succeeded} of ${succeeded} finished runs · ${runs.length} started`).first().waitFor();
    await page.getByText('100.0 %').first().waitFor();
    await shot(page, 'dashboard');
    // What-if: with no retries, the Calculator run (step 2 passed on its retry) would have failed.
    await page.getByLabel('Preset').selectOption('');
    await page.getByLabel('Max retries').fill('0');
    await page.getByRole('button', { name: 'Replay' }).click();
    await page.getByText(/runs? changes? outcome/).waitFor();
    await page.locator('.what-if-changed li', { hasText: 'Calculator' }).getByText('failed', { exact: true }).first().waitFor();
    await page.getByText(/never guessed/).waitFor();
    await page.locator('.what-if').scrollIntoViewIfNeeded();
    await shot(page, 'dashboard-what-if');
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await shot(page, 'settings');
    await page.close();
  });
});
