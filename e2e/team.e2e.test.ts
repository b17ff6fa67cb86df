// Team mode in the app, end to end: the team database's URL set in Settings › Team (checked, its worker listed), tasks
// submitted from New task with "Run on team workers" to a real `ratchet worker` process (its own home), seen in the runs
// list with their worker and followed to their end on the team run's screen; Stop and Resume act through the team's queue.
// Needs PostgreSQL (RATCHET_TEST_PG_URL; .ci/run starts one): skipped with the reason elsewhere.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { demoRepo, editWorkflow, gateHold, heldGate, ofTasks, shot, startSpecEnv, type SpecEnv } from './harness';
import { layoutProblems, shootScreen } from './app-steps';
import { NO_POSTGRES_REASON, startWorker, teamDatabase, type WorkerProcess } from '../electron/engine/testing/team-fixtures';
import { SANDBOX_AVAILABLE } from '../electron/engine/testing/sandbox-mode';
import { openTeam, type TeamClient } from '../electron/engine/team/team-client';
import { money } from '../shared/money';

/** The team run's test gate holds while the test looks at it running. */
const gate = gateHold();

/** The demo repository with a gate the test can hold, its `origin` a bare repository with main pushed. */
function teamDemoRepo(): string {
  return withRemote(heldGate(demoRepo(), gate));
}

/** `repo` with a bare repository as its `origin`, main pushed (what the workers clone). */
function withRemote(repo: string): string {
  const remote = join(mkdtempSync(join(tmpdir(), 'ratchet-e2e-remote-')), 'calc.git');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', remote]);
  execFileSync('git', ['remote', 'add', 'origin', remote], { cwd: repo });
  execFileSync('git', ['push', '-q', 'origin', 'main'], { cwd: repo });
  return repo;
}

let spec: SpecEnv;
let db: { url: string; drop: () => Promise<void> };
let worker: WorkerProcess;
let team: TeamClient;

const skip = NO_POSTGRES_REASON;

beforeAll(async () => {
  if (skip) return;
  db = await teamDatabase();
  spec = await startSpecEnv({ repo: teamDemoRepo });
  // The test's own client first: it makes DBOS's tables, which a worker launching at the same moment can deadlock on
  // ("Failed to initialize workflow executor: deadlock detected"; said in the report to the lead).
  team = await openTeam(db.url);
  // One worker, one run at a time: a second submitted run waits in the team queue while the first runs.
  worker = startWorker(db.url, { ANTHROPIC_API_KEY: 'e2e-key', ANTHROPIC_BASE_URL: spec.server.url }, [
    '--concurrency',
    '1',
    ...(SANDBOX_AVAILABLE ? [] : ['--no-sandbox']),
  ]);
});

afterAll(async () => {
  if (skip) return;
  await team?.close();
  if (worker && worker.child.exitCode === null) worker.child.kill('SIGTERM');
  await Promise.race([worker?.exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (worker?.child.exitCode === null) worker.child.kill('SIGKILL');
  await spec?.close();
  await db?.drop();
});

/** Polls the asynchronous `check` until it holds (shared/testing/until.ts takes synchronous checks only). */
async function untilAsync(check: () => Promise<boolean>, o: { ms: number; everyMs: number; describe: () => string }): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > o.ms) throw new Error(`timed out waiting for ${o.describe()}`);
    await new Promise((r) => setTimeout(r, o.everyMs));
  }
}

/** The team's runs by title → status, as the team database has them (what the app must show). */
const teamStatuses = async (): Promise<Record<string, string>> => Object.fromEntries((await team.list()).map((r) => [r.title, r.status]));

async function waitTeam(what: string, fn: (s: Record<string, string>) => boolean, ms = 120_000): Promise<void> {
  let last: Record<string, string> = {};
  await untilAsync(
    async () => {
      last = await teamStatuses();
      return fn(last);
    },
    { ms, everyMs: 300, describe: () => `${what}; team runs: ${JSON.stringify(last)}; worker said:\n${worker.output().slice(-2000)}` },
  );
}

/** New task from Home with the repository's own workflow (trusted once), "Run on team workers" checked; ends on the team run's screen. */
async function submitToTeam(page: Page, repo: string, title: string): Promise<void> {
  await page.getByRole('link', { name: 'Runs' }).click();
  await page.getByLabel('repository path').fill(repo);
  await page.getByRole('button', { name: 'Use this path' }).click();
  await page.getByRole('heading', { name: 'New task' }).waitFor();
  await page.getByRole('textbox', { name: 'Title', exact: true }).fill(title);
  await page.getByRole('tab', { name: /From the repo/ }).click();
  await page.getByText(/Loaded .*ratchet\.yml/).waitFor();
  const trust = page.getByRole('button', { name: 'Trust', exact: true });
  if (await trust.isVisible()) {
    await trust.click();
    await page.getByText('You trust this workflow file').waitFor();
  }
  await page.getByRole('checkbox', { name: 'Run on team workers' }).check();
  if (title === 'Team A') {
    await page.getByRole('button', { name: 'Submit to the team' }).scrollIntoViewIfNeeded();
    await shot(page, 'team-new-task-1400');
  }
  await page.getByRole('button', { name: 'Submit to the team' }).click();
  await page.getByRole('heading', { name: title }).waitFor();
  expect(page.url()).toMatch(/#\/team\/[0-9a-z]+$/);
}

const row = (page: Page, title: string) => page.locator('table.runs-table tr', { has: page.getByRole('link', { name: title, exact: true }) });
const runHeader = (page: Page) => page.locator('header.run-header');

describe.skipIf(skip)(`team workers in the app (${skip ?? 'PostgreSQL'})`, () => {
  it('sets the team in Settings, runs tasks on a worker, shows them with their worker, and stops and resumes one', async () => {
    const page = await spec.browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(spec.host!.url);

    // No team yet: New task has no team choice.
    await page.getByRole('link', { name: 'Runs' }).click();
    await page.getByLabel('repository path').fill(spec.repo);
    await page.getByRole('button', { name: 'Use this path' }).click();
    await page.getByRole('heading', { name: 'New task' }).waitFor();
    await expect(page.getByRole('checkbox', { name: 'Run on team workers' }).count()).resolves.toBe(0);

    // Settings › Team: a URL that does not connect is refused with what to do; the real one is checked, kept, its password hidden.
    await page.getByRole('link', { name: 'Settings' }).click();
    const field = page.getByLabel('team database URL');
    const bad = new URL(db.url);
    bad.password = 'wrong-secret';
    await field.fill(bad.toString());
    await page.getByRole('button', { name: 'Save and connect' }).click();
    await page
      .locator('#team-error')
      .getByText(/Could not use the team database .*Check the URL/)
      .waitFor({ timeout: 30_000 });
    expect(await page.locator('#team-error').textContent()).not.toContain('wrong-secret');
    await field.fill(db.url);
    await page.getByRole('button', { name: 'Save and connect' }).click();
    await page.getByText('Connected and saved.').waitFor({ timeout: 30_000 });
    const shown = (await page.getByTestId('team-url').textContent()) ?? '';
    const password = new URL(db.url).password;
    if (password) {
      expect(shown).not.toContain(`:${password}@`);
      expect(shown).toContain(':***@');
    }
    expect(shown).toContain(new URL(db.url).pathname);
    // The worker joined the team: listed alive (the overview is asked for again when Settings opens).
    await untilAsync(
      async () => {
        await page.getByRole('link', { name: 'Runs' }).click();
        await page.getByRole('link', { name: 'Settings' }).click();
        return (await page.locator('.team-workers').getByText('alive').count()) > 0;
      },
      { ms: 60_000, everyMs: 500, describe: () => `the worker to show as alive; it said:\n${worker.output().slice(-2000)}` },
    );
    await page.locator('section[aria-labelledby="h-team"]').scrollIntoViewIfNeeded();
    await shot(page, 'team-settings-1400');

    // A first task on the team: its screen names the worker and follows the run to its end (its gate held until seen running).
    gate.hold();
    await submitToTeam(page, spec.repo, 'Team A');
    await runHeader(page).getByTestId('team-worker').getByText(/-\d+-/).waitFor({ timeout: 60_000 });
    // Live from the worker's engine events (the run's DBOS stream): the attempt under way, then its gate running (held).
    const live = page.getByRole('region', { name: 'live attempt' });
    await live.getByRole('heading', { name: /^live Attempt \d+ on .*-\d+-/ }).waitFor({ timeout: 60_000 });
    await live.getByText('running…').waitFor({ timeout: 60_000 });
    await shot(page, 'team-run-live-1400');
    gate.release();
    // …and the gate's end as it happens: step 1 kept on screen (its last attempt's gate passes, then the run moves on).
    await page.getByRole('list', { name: 'steps' }).getByRole('button').first().click();
    await live
      .getByText(/^passed in \d+\.\d s$/)
      .first()
      .waitFor({ timeout: 120_000 });
    await runHeader(page).locator('[data-status="succeeded"]').waitFor({ timeout: 150_000 });
    await page.getByRole('button', { name: /^3\. / }).or(page.locator('.timeline-item.status-succeeded').nth(2)).first().waitFor();
    expect((await teamStatuses())['Team A']).toBe('succeeded');
    const workerId = ((await runHeader(page).getByTestId('team-worker').textContent()) ?? '').trim();
    expect(workerId).toMatch(/-\d+-/);
    await shootScreen(page, 'team-run-succeeded');

    // Two more: B runs on the worker (one at a time) while C waits in the team queue. B's agent does not answer until it
    // has been stopped: it is still running when Stop is pressed, however long the list and its screenshots take.
    spec.server.hold(ofTasks('Team B'));
    await submitToTeam(page, spec.repo, 'Team B');
    await submitToTeam(page, spec.repo, 'Team C');
    await waitTeam('B to run while C waits', (s) => s['Team B'] === 'running' && s['Team C'] === 'queued');
    await page.getByRole('link', { name: 'Runs' }).click();
    await row(page, 'Team A').getByText(`on worker ${workerId}`).waitFor();
    await row(page, 'Team B').getByText(`on worker ${workerId}`).waitFor({ timeout: 30_000 });
    await row(page, 'Team C').getByText('Waiting in the team queue').waitFor();
    await row(page, 'Team B').locator('[data-status="running"]').waitFor();
    await row(page, 'Team C').locator('[data-status="queued"]').waitFor();
    expect(await layoutProblems(page)).toEqual([]);
    await shootScreen(page, 'team-runs-list');

    // Stop B from its screen: it shows cancelled; C then takes the worker.
    await row(page, 'Team B').getByRole('link', { name: 'Team B', exact: true }).click();
    await page.getByRole('heading', { name: 'Team B' }).waitFor();
    await page.getByRole('group', { name: 'team run actions' }).getByRole('button', { name: 'Stop' }).click();
    await runHeader(page).locator('[data-status="cancelled"]').waitFor({ timeout: 60_000 });
    await waitTeam('B to be cancelled', (s) => s['Team B'] === 'cancelled');
    spec.server.release();
    await shootScreen(page, 'team-run-stopped');

    // Resume brings it back through the queue to succeeded (after C, with one worker slot).
    await page.getByRole('group', { name: 'team run actions' }).getByRole('button', { name: 'Resume' }).click();
    await runHeader(page).locator('[data-status="queued"], [data-status="running"]').first().waitFor({ timeout: 30_000 });
    await waitTeam('B and C to succeed', (s) => s['Team B'] === 'succeeded' && s['Team C'] === 'succeeded', 240_000);
    await runHeader(page).locator('[data-status="succeeded"]').waitFor({ timeout: 30_000 });
    const doc = await team.status((await team.list()).find((r) => r.title === 'Team B')!.id);
    expect(doc.doc?.steps.map((s) => s.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);

    await page.getByRole('link', { name: 'Runs' }).click();
    for (const t of ['Team A', 'Team B', 'Team C']) await row(page, t).locator('[data-status="succeeded"]').waitFor({ timeout: 10_000 });

    // The dashboard's Team section: the three team runs, all succeeded, on the one worker, today's team spend.
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    const teamStats = page.locator('section[aria-labelledby="h-team-stats"]');
    const kpi = (label: string) => teamStats.locator('.kpi', { has: page.getByText(label, { exact: true }) });
    await kpi('team runs').waitFor({ timeout: 30_000 });
    expect(await kpi('team runs').locator('.kpi-value').textContent()).toBe('3');
    expect(await kpi('success rate').locator('.kpi-value').textContent()).toBe('100.0 %');
    expect(await teamStats.getByRole('table', { name: 'team runs by worker' }).getByRole('row').nth(1).textContent()).toContain(workerId);
    const stats = await team.stats(7);
    expect(await kpi('team spend today').locator('.kpi-value').textContent()).toBe(money(stats.spentTodayUsd));
    await shootScreen(page, 'team-dashboard', () => teamStats.evaluate((el) => el.scrollIntoView({ block: 'start' })));

    // The weekly report has the same numbers in its Team section.
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.getByRole('button', { name: 'Weekly report…' }).click();
    const report = page.getByRole('article', { name: 'report' });
    const teamHeading = report.getByRole('heading', { name: 'Team', exact: true });
    await teamHeading.waitFor({ timeout: 30_000 });
    expect(await report.textContent()).toContain('Team runs: 3 runs (3 succeeded, 0 failed, 0 open)');
    await teamHeading.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shot(page, 'team-weekly-report-1400');
    await page.getByRole('button', { name: 'Close', exact: true }).last().click();
    await page.close();
  }, 480_000);

  it('pauses a team run at its task budget; Raise budget refuses an amount below the spend, then the run goes on to succeed', async () => {
    // The demo workflow with a task budget far below what one attempt costs (as e2e/budget.e2e.test.ts locally).
    const repo = withRemote(
      editWorkflow(demoRepo(), (yml) => yml.replace('max_retries: 3', 'max_retries: 3\nbudget: { task_usd: 0.004 }'), 'A tiny task budget'),
    );
    const page = await spec.browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(spec.host!.url);
    await submitToTeam(page, repo, 'Team budget');
    await waitTeam('the run to pause at its task budget', (s) => s['Team budget'] === 'paused', 240_000);
    await runHeader(page).locator('[data-status="paused"]').waitFor({ timeout: 30_000 });
    const actions = page.getByRole('group', { name: 'team run actions' });
    await actions.getByRole('button', { name: 'Raise budget and continue' }).click();
    const input = page.getByLabel('New task budget (USD)');
    // Below what it spent: said at the field, Continue disabled (as on a local run's screen).
    await input.fill('0.001');
    await page.getByText(/^Give it more than \$[\d.]+ \(what it has spent\)\.$/).waitFor();
    expect(await page.getByRole('button', { name: 'Continue' }).isDisabled()).toBe(true);
    await shootScreen(page, 'team-run-budget-paused');
    await input.fill('5');
    await page.getByRole('button', { name: 'Continue' }).click();
    // The raise is kept with the team's run and the run goes back on the team's queue (the worker applies the budget).
    await page.getByRole('button', { name: 'Raise budget and continue' }).waitFor({ state: 'detached', timeout: 30_000 });
    await waitTeam('the raised run to leave its pause', (s) => ['queued', 'running', 'succeeded'].includes(s['Team budget'] ?? ''), 60_000);
    const id = (await team.list()).find((r) => r.title === 'Team budget')!.id;
    expect((await team.db.getRun(id))?.task_budget_usd).toBe(5);
    // The worker takes it on to success. (Raised the moment the screen said paused, before DBOS had recorded the
    // workflow's end, it stayed "running": the rewind raced the execution still finishing. The client now waits for it.)
    await waitTeam('the raised run to succeed', (s) => s['Team budget'] === 'succeeded', 120_000);
    await page.close();
  }, 360_000);
});
