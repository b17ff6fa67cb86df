// The app tells the truth at a glance, against the real headless host in Chromium: a killed run
// does not look alive and is offered for resume once; Enter in New task starts nothing; a refused API key is said; the
// favicon is served; the browser host's shortcuts; failed runs count as needing you. Screenshots at 1400×900 and 1024×700.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startScriptedServer, type ScriptedServer } from '../electron/scripted/server';
import { parseScript } from '../electron/scripted/script-schema';
import {
  attemptCount,
  gateHold,
  heldGate,
  latestRun,
  startHostProcess,
  startSpecEnv,
  storeRuns,
  tempHome,
  until,
  type HostProcess,
  type SpecEnv,
} from './harness';
import { shootScreen, startTask } from './app-steps';
import { seedRuns } from './seed-runs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './harness';

let spec: SpecEnv;
let browser: Browser;
let host: HostProcess | undefined;
let home: string;
let repo: string;
let env: NodeJS.ProcessEnv;
/** One browser profile for the spec, as a user's: what the app keeps in its storage (offers made) outlives a page. */
let profile: BrowserContext;
const gate = gateHold();
const newPage = async () => {
  const page = await profile.newPage();
  await page.setViewportSize({ width: 1400, height: 900 });
  return page;
};

beforeAll(async () => {
  // The tests start (and kill) the host themselves; the repository's test gate is held, so the kill lands in it.
  spec = await startSpecEnv({ startHost: false });
  ({ browser, home, repo, env } = spec);
  heldGate(repo, gate);
  gate.hold();
  seedRuns(home);
  host = await startHostProcess(env);
  profile = await browser.newContext();
});

afterAll(async () => {
  await host?.kill();
  await spec?.close();
});

const runsSoFar = () => `the runs; runs: ${JSON.stringify(storeRuns(home).map((r) => [r.title, r.status]))}`;
/** The "gate test running: …" line with its spinner. */
const gateRunning = (page: Page) => page.locator('p', { hasText: /gate test running/ });

describe('the app tells the truth at a glance (issue 20)', () => {
  it('serves its favicon, and counts failed runs in the window title', async () => {
    const page = await newPage();
    const failedLoads: string[] = [];
    page.on('response', (r) => {
      if (r.status() >= 400) failedLoads.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(host!.url);
    await page.locator('table.runs-table').waitFor();
    // The seeded interrupted runs are offered once, here on Home.
    await page.getByRole('dialog', { name: 'Resume plan' }).waitFor();
    await page.getByRole('dialog', { name: 'Resume plan' }).getByRole('button', { name: 'Cancel' }).click();
    const icon = await page.evaluate(async () => {
      const doc = (globalThis as unknown as { document: { querySelector(s: string): { href: string } | null } }).document;
      const linked = doc.querySelector('link[rel="icon"]')?.href ?? '';
      const [a, b] = await Promise.all([fetch(linked), fetch('/favicon.ico')]);
      return { linked: a.status, ico: b.status, type: b.headers.get('content-type') };
    });
    expect(icon).toEqual({ linked: 200, ico: 200, type: 'image/svg+xml' });
    expect(failedLoads).toEqual([]);
    // Seeded: paused, waiting for approval, interrupted, and failed runs not replaced by a newer run of their task.
    const needYou = storeRuns(home).filter(
      (r, i, all) =>
        ['paused', 'waiting_approval', 'interrupted'].includes(r.status) || (r.status === 'failed' && !all.slice(i + 1).some((x) => x.title === r.title)),
    );
    await page.waitForFunction((n) => (globalThis as unknown as { document: { title: string } }).document.title === `(${n}) Ratchet`, needYou.length);
    await page.getByRole('rowgroup', { name: 'Needs you' }).getByRole('link', { name: 'Fix the flaky websocket reconnect' }).waitFor();
    await shootScreen(page, 'truth-home-many');
    await page.close();
  });

  it('never starts a run from Enter in New task; only Start run starts one', async () => {
    const page = await newPage();
    await page.goto(host!.url);
    await startTask(page, repo, 'Interrupt me', {
      beforeStart: async () => {
        await page.getByRole('textbox', { name: 'Title', exact: true }).press('Enter');
      },
    });
    // One run of the task: Enter started none of its own (Start run, clicked after it, started this one).
    await until(() => latestRun(home, 'Interrupt me'), { ms: 30_000, describe: runsSoFar });
    expect(storeRuns(home).filter((r) => r.title === 'Interrupt me')).toHaveLength(1);
    await page.close();
  });

  it('shows a run whose host was killed mid-gate as interrupted, not alive, and offers to resume it once', async () => {
    const run = latestRun(home, 'Interrupt me')!;
    const page = await newPage();
    await page.goto(`${host!.url}#/runs/${run.id}`);
    await until(() => attemptCount(home, run.id, 1) > 0, { ms: 60_000, describe: runsSoFar });
    await gateRunning(page).waitFor({ timeout: 60_000 });
    await host!.kill('SIGKILL');
    await page.close();

    host = await startHostProcess(env);
    const again = await newPage();
    // The first page is the run's own: the resume dialog must not open over it.
    await again.goto(`${host.url}#/runs/${run.id}`);
    await again.locator('.run-header').getByText('interrupted', { exact: true }).waitFor({ timeout: 30_000 });
    const panel = again.getByRole('tabpanel');
    await panel.waitFor();
    await expect(panel.locator('dd').first().textContent()).resolves.toContain('interrupted');
    await expect(gateRunning(again).count()).resolves.toBe(0);
    // The attempt's diff view loads with the diff (its own spinner, "Loading the diff…"); once it is there nothing spins.
    await again.getByText('Loading the diff…').waitFor({ state: 'detached', timeout: 30_000 });
    await expect(again.locator('.spinner, .status-icon.spinning').count()).resolves.toBe(0);
    // The stopped step lasted as long as its attempts did, and stays so: it does not count up to now.
    const stopped = again.locator('.timeline-item.status-running .timeline-meta');
    const before = await stopped.textContent();
    expect(before).not.toMatch(/\d+ min/);
    expect(await again.getByRole('dialog').count()).toBe(0);
    await shootScreen(again, 'truth-run-interrupted');
    expect(await stopped.textContent()).toBe(before);

    // Home offers it once; after a reload it is not offered again (the banner still is).
    await again.getByRole('link', { name: 'Runs' }).click();
    const dialog = again.getByRole('dialog', { name: 'Resume plan' });
    await dialog.waitFor({ timeout: 30_000 });
    await shootScreen(again, 'truth-resume-offer');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await again.reload();
    await again.getByRole('button', { name: 'Review and resume…' }).waitFor();
    await again.locator('table.runs-table').waitFor();
    expect(await again.getByRole('dialog').count()).toBe(0);
    await again.close();
  });

  it('takes the browser host’s shortcuts: "/" finds a run, Ctrl+Shift+D opens the dashboard', async () => {
    const page = await newPage();
    await page.goto(host!.url);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await page.keyboard.press('/');
    await page.waitForFunction(
      () => (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement?.id === 'runs-filter',
    );
    await page.keyboard.type('websocket');
    await expect(page.locator('a.run-title-link').allTextContents()).resolves.toEqual(['Fix the flaky websocket reconnect']);
    await shootScreen(page, 'truth-home-filtered');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+Shift+D');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    // The keyboard starts in the screen, not on the page's body (issue 34 item 7).
    await page.waitForFunction(() => {
      const d = (globalThis as unknown as { document: { activeElement: { closest(s: string): unknown } | null; body: unknown } }).document;
      return d.activeElement !== d.body && Boolean(d.activeElement?.closest('#main .screen'));
    });
    // Needs you on the dashboard: the five newest, the rest one click away in Runs (issue 34 item 2).
    const needsYou = page.getByRole('region', { name: /Needs you/ });
    await needsYou.getByRole('link').first().waitFor();
    await expect(needsYou.getByRole('link').count()).resolves.toBeLessThanOrEqual(5);
    await shootScreen(page, 'truth-dashboard');
    // The failed run is there, or one click away in Runs when five newer ones come first.
    const showAll = needsYou.getByRole('button', { name: /^Show all \d+ in Runs$/ });
    if ((await showAll.count()) > 0) await showAll.click();
    await page.getByRole('link', { name: 'Fix the flaky websocket reconnect' }).first().waitFor();
    // "?" lists the keys; Ctrl+O opens the folder browser, as the menu says (issue 34 item 7).
    await page.locator('body').press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).getByText('Open Repository').waitFor();
    await shootScreen(page, 'truth-shortcut-sheet');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+o');
    await page.getByRole('dialog', { name: 'Open a repository' }).waitFor();
    await page.keyboard.press('Escape');
    await page.close();
  });
});

describe('Settings and a refused API key (issue 20 item 18)', () => {
  let keyed: ScriptedServer | undefined;
  let keyHost: HostProcess | undefined;
  afterAll(async () => {
    await keyHost?.kill();
    await keyed?.close();
  });

  it('says what is wrong with a key the API refuses, and keeps a good one', async () => {
    const script = parseScript(JSON.parse(readFileSync(join(ROOT, 'resources', 'demo-script.json'), 'utf8')));
    keyed = await startScriptedServer({ script, apiKeys: ['sk-ant-e2e-good'] });
    // No key in the environment: the key is the user's to save, and the API is one that refuses a bad key.
    keyHost = await startHostProcess({ ...env, RATCHET_HOME: tempHome(), ANTHROPIC_API_KEY: '', ANTHROPIC_BASE_URL: keyed.url });
    const page = await newPage();
    await page.goto(keyHost.url);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel('new API key').fill('sk-ant-typo');
    await page.getByRole('button', { name: 'Save key' }).click();
    await page
      .locator('#key-error')
      .getByText(/invalid x-api-key/)
      .waitFor({ timeout: 30_000 });
    expect(await page.getByText('Key saved.').count()).toBe(0);
    await shootScreen(page, 'truth-settings-bad-key');
    // An empty default model is marked at its field; nothing is saved.
    await page.getByLabel('Default model').fill('');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Name the default model (for example claude-sonnet-5-5).').waitFor();
    expect(await page.getByText('Settings saved').count()).toBe(0);
    await page.getByLabel('new API key').fill('sk-ant-e2e-good');
    await page.getByRole('button', { name: 'Save key' }).click();
    await page.getByText('Key saved.').waitFor({ timeout: 30_000 });
    await page.close();
  });
});
