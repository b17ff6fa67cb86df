// The dashboard end to end: it follows a run live (no reload), lists an interrupted run under Needs
// attention with a link to it, draws the daily budget on the cost chart, and shows the weekly report as a document —
// at 1400×900 and 1024×700 (screenshots e2e/screenshots/dashboard-*.png).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { attemptCount, SHOTS, startHostProcess, startOfStep, startSpecEnv, storeRuns, tempHome, until, type HostProcess, type SpecEnv } from './harness';
import { settled, startTask as startTaskIn } from './app-steps';

let spec: SpecEnv;
let browser: Browser;
let host: HostProcess | undefined;
const home = tempHome('ratchet-e2e-dash-');
let repo: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  // A daily budget, so the cost chart has its line.
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ budget: { dailyUsd: 0.5 } }));
  // The tests start (and kill) the host themselves.
  spec = await startSpecEnv({ home, startHost: false });
  ({ browser, repo, env } = spec);
});

afterAll(async () => {
  await host?.kill();
  await spec?.close();
});

/**
 * The screen at both sizes: dashboard-<name>-1400.png and dashboard-<name>-1024.png, and with `lower`, the same after
 * scrolling that heading into view (the screen scrolls inside the window, so a full-page shot would not show it).
 */
async function shoot(page: Page, name: string, lower?: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  for (const [w, h] of [
    [1400, 900],
    [1024, 700],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await settled(page);
    await page.screenshot({ path: join(SHOTS, `dashboard-${name}-${w}.png`) });
    if (!lower) continue;
    await page.getByRole('heading', { name: lower }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await settled(page);
    await page.screenshot({ path: join(SHOTS, `dashboard-${name}-lower-${w}.png`) });
    await page.getByRole('heading', { name: 'Dashboard' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  }
  await page.setViewportSize({ width: 1400, height: 900 });
}

async function startTask(page: Page, title: string) {
  await page.goto(host!.url);
  await startTaskIn(page, repo, title);
}

/** The runs so far, each with how many attempts it made at step 2. */
const runs = () => storeRuns(home).map((r) => ({ ...r, steps2: attemptCount(home, r.id, 2) }));
const runsSoFar = () => `the runs; runs: ${JSON.stringify(runs())}`;

async function openDashboard(page: Page) {
  await page.goto(host!.url);
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
}

describe('the dashboard', () => {
  it('follows a run live: its numbers change while it is open, with no reload', async () => {
    host = await startHostProcess(env);
    const dash = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await openDashboard(dash);
    await dash.getByText('No runs in the last 7 days').waitFor();
    await dash.getByText('No run is paused, failed, waiting for approval or interrupted.').waitFor();
    await shoot(dash, 'empty');

    const other = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await startTask(other, 'Calculator');
    await until(() => runs().find((r) => r.title === 'Calculator' && r.status === 'succeeded'), { ms: 90_000, describe: runsSoFar });
    // The dashboard page was never reloaded: the engine's events brought the numbers.
    await dash.getByText('1 of 1 finished runs · 1 started').waitFor({ timeout: 15_000 });
    await dash.getByText('100.0 %').waitFor();
    // The daily budget is drawn on the cost chart (a dashed line with its amount), though the day cost far less.
    await dash.locator('.recharts-reference-line-line').waitFor({ state: 'attached' });
    await expect(dash.locator('.recharts-reference-line-line').count()).resolves.toBe(1);
    await dash.locator('svg text', { hasText: 'budget $0.50' }).waitFor({ state: 'attached' });
    await dash.getByRole('region', { name: 'Improvement suggestions' }).waitFor();
    await other.close();
    await dash.close();
  });

  it('lists an interrupted run under Needs you, linking to it; the report renders as a document', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    // The run stops at step 2's first question to the agent (held, never answered): killed there, it is interrupted mid-step.
    spec.server.hold(startOfStep(2));
    await startTask(page, 'Calculator again');
    const run = await until(() => runs().find((r) => r.title === 'Calculator again' && r.steps2 > 0), { ms: 90_000, describe: runsSoFar });
    await host!.kill('SIGKILL');
    await page.close();

    host = await startHostProcess(env);
    const dash = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await dash.goto(host.url);
    // The start-up dialog offers to resume it: not now, the dashboard must show it instead.
    const dialog = dash.getByRole('dialog');
    await dialog.waitFor({ timeout: 30_000 });
    await dash.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await dash.getByRole('link', { name: 'Dashboard' }).click();
    const attention = dash.getByRole('region', { name: /Needs you/ });
    const link = attention.getByRole('link', { name: 'Calculator again' });
    await link.waitFor({ timeout: 15_000 });
    await expect(link.getAttribute('href')).resolves.toBe(`#/runs/${run.id}`);
    await attention.getByText('interrupted', { exact: true }).waitFor();
    await dash.getByText('1 of 1 finished runs · 2 started').waitFor();
    await shoot(dash, 'live', 'Improvement suggestions');
    await dash.getByRole('button', { name: '30 days' }).click();
    await dash.getByText('1 of 1 finished runs · 2 started').waitFor();
    await shoot(dash, '30-days', 'Cost per day');
    await dash.getByRole('button', { name: '7 days' }).click();

    await dash.getByRole('button', { name: 'Weekly report…' }).click();
    const doc = dash.getByRole('article', { name: 'report' });
    await doc.getByRole('heading', { name: /Retry statistics — last 7 days/ }).waitFor();
    await doc.getByText('Success rate:').waitFor();
    await expect(doc.locator('table').count()).resolves.toBeGreaterThan(1);
    await doc.getByRole('heading', { name: 'Improvement suggestions' }).waitFor();
    await shoot(dash, 'report');
    // Saving: a download of the Markdown, named for the period and the day.
    const [download] = await Promise.all([dash.waitForEvent('download'), dash.getByRole('button', { name: 'Save as Markdown…' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^ratchet-report-7-days-\d{4}-\d\d-\d\d\.md$/);

    await dash.keyboard.press('Escape');
    await link.click();
    await dash.getByRole('heading', { name: 'Calculator again' }).waitFor();
    await dash.close();
  });
});
