// A run as the user stops, restarts and resumes it: "Stopped by you" (not "needs you"), no
// running icon left, Start again as the one primary action, the resume's cost following live, Revise plan while disconnected.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { demoRepo, gateHold, heldGate, shot, startSpecEnv, storeRuns, until, type HostProcess, type SpecEnv } from './harness';
import { startTask } from './app-steps';

let spec: SpecEnv;
let browser: Browser;
let host: HostProcess | undefined;
let repo: string;
let home: string;
const gate = gateHold();

beforeAll(async () => {
  // The demo's test gate, held while a run is to be stopped in it, so the Stop lands while it runs.
  spec = await startSpecEnv({ repo: () => heldGate(demoRepo(), gate) });
  ({ browser, host, repo, home } = spec);
});

afterAll(async () => {
  await spec?.close();
});

const runs = () => storeRuns(home);
const runsSoFar = () => `the runs; runs: ${JSON.stringify(runs())}`;

/** Starts the demo task from the New task form and stops it while step 1's gate runs (held until the run has stopped). */
async function startAndStop(page: Page, title: string) {
  gate.hold();
  await page.goto(host!.url);
  await startTask(page, repo, title);
  await page.getByRole('log', { name: 'live output of gate test', exact: true }).getByText('warming up 2', { exact: true }).waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await page.locator('.confirm').getByRole('button', { name: 'Stop', exact: true }).click();
  await page.locator('.run-header').getByText('stopped by you', { exact: true }).waitFor({ timeout: 30_000 });
  gate.release();
}

/** Both sizes every screen must work at: 1400×900 and 1024×700. */
async function shots(page: Page, name: string, at?: string) {
  for (const [width, height] of [
    [1400, 900],
    [1024, 700],
  ] as const) {
    await page.setViewportSize({ width, height });
    if (at) await page.locator(at).first().scrollIntoViewIfNeeded();
    else await page.evaluate('window.scrollTo(0, 0); document.querySelectorAll(".main, main, .content").forEach((e) => e.scrollTo(0, 0))');
    await shot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1400, height: 900 });
}

describe('stop, start again, resume', () => {
  it('a stopped run reads "stopped by you", offers Start again as its primary action, and Start again runs the task anew', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await startAndStop(page, 'Stop me');

    const header = page.locator('.run-header');
    await header.getByText('stopped by you', { exact: true }).waitFor({ timeout: 30_000 });
    await header.getByText(/^Stopped by you during step 1\./).waitFor();
    const stopped = runs().find((r) => r.title === 'Stop me')!;
    expect(stopped.status).toBe('cancelled');
    // The stopped step no longer shows as running.
    const timeline = page.getByRole('list', { name: 'steps' });
    await timeline.getByRole('img', { name: 'stopped' }).first().waitFor();
    await expect(timeline.getByRole('img', { name: 'running' }).count()).resolves.toBe(0);
    // No completed step: Start again is the one primary action, and there is no Retry.
    const toolbar = page.getByRole('toolbar', { name: 'run actions' });
    await expect(toolbar.getByRole('button', { name: 'Retry', exact: true }).count()).resolves.toBe(0);
    await expect(toolbar.locator('button.primary').allInnerTexts()).resolves.toEqual([expect.stringContaining('Start again')]);
    await shots(page, 'run-stopped');
    await page.locator('.activity summary').click();
    await page
      .locator('.activity-log li', { hasText: /Stopped by you during step 1\./ })
      .first()
      .waitFor();
    const activity = await page.locator('.activity-log').innerText();
    expect(activity).not.toMatch(/[{}]|auto-progress|test_failure|Interrupted/);
    await shots(page, 'run-stopped-activity', '.activity');

    // The runs list: in Finished, not in Needs you.
    await page.getByRole('link', { name: 'Runs' }).click();
    const needsYou = page.getByRole('rowgroup', { name: /Needs you/ });
    await expect(needsYou.getByText('Stop me').count()).resolves.toBe(0);
    await page.goto(`${host!.url.split('?')[0]}#/runs/${stopped.id}`);

    await toolbar.getByRole('button', { name: /Start again/ }).click();
    // A new run spends money: it asks first.
    await toolbar.getByRole('button', { name: 'Start a new run' }).click();
    await page.waitForURL((u) => /#\/runs\//.test(u.hash) && !u.hash.includes(stopped.id), { timeout: 30_000 });
    const fresh = await until(() => runs().find((r) => r.title === 'Stop me' && r.id !== stopped.id), { ms: 60_000, describe: runsSoFar });
    await until(() => runs().find((r) => r.id === fresh.id && r.status === 'succeeded'), { ms: 120_000, describe: runsSoFar });
    await page.locator('.run-header').getByText('succeeded', { exact: true }).waitFor({ timeout: 30_000 });
    await shots(page, 'run-started-again');
    await page.close();
  });

  it('a resumed run shows what it spent since the resume live, and its Activity log in sentences', async () => {
    const stopped = runs().find((r) => r.title === 'Stop me' && r.status === 'cancelled')!;
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    // The first visit carries the host's token (it sets the cookie); then to the run.
    await page.goto(host!.url);
    await page.getByLabel('repository path').waitFor();
    await page.goto(`${host!.url.split('?')[0]}#/runs/${stopped.id}`);
    await page.getByRole('toolbar', { name: 'run actions' }).getByRole('button', { name: 'Resume…' }).click();
    await page.getByRole('button', { name: 'Proceed', exact: true }).click();
    const cost = page.getByTestId('resume-cost').first();
    await cost.waitFor({ timeout: 30_000 });
    // Without a reload: the cost after the resume follows the engine's usage events.
    await page
      .waitForFunction(
        () =>
          !['', '$0.00'].includes(
            (globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }).document.querySelector(
              '[data-testid="resume-cost"]',
            )?.textContent ?? '',
          ),
        null,
        { timeout: 60_000 },
      )
      .catch(async (err: unknown) => {
        throw new Error(`the resume's cost stayed ${(await cost.textContent()) ?? ''}: ${String(err)}`);
      });
    await until(() => runs().find((r) => r.id === stopped.id && r.status === 'succeeded'), { ms: 120_000, describe: runsSoFar });
    await page.locator('.run-header').getByText('succeeded', { exact: true }).waitFor({ timeout: 30_000 });
    await page
      .locator('.resumes')
      .getByText(/Resumed from step 1/)
      .waitFor();
    await page.locator('.activity summary').click();
    await page
      .locator('.activity-log li', { hasText: /Resumed from step 1/ })
      .first()
      .waitFor();
    await shots(page, 'run-resumed');
    await shots(page, 'run-resumed-activity', '.activity');
    await page.close();
  });

  it('Revise plan while the host is unreachable says so instead of spinning', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await startAndStop(page, 'Stop me too');
    await page.locator('.run-header').getByText('stopped by you', { exact: true }).waitFor({ timeout: 30_000 });
    await host!.kill();
    host = undefined;
    await page.getByText(/Disconnected from Ratchet/).waitFor({ timeout: 30_000 });
    const started = Date.now();
    await page.getByRole('toolbar', { name: 'run actions' }).getByRole('button', { name: 'Revise plan…' }).click();
    await page
      .getByRole('dialog')
      .getByText(/Not connected to Ratchet — reconnecting/)
      .waitFor({ timeout: 5000 });
    expect(Date.now() - started).toBeLessThan(5000);
    await expect(page.getByText('Loading the plan…').count()).resolves.toBe(0);
    await shots(page, 'run-revise-disconnected');
    await page.close();
  });
});
