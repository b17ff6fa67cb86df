// The queue end to end: five runs started from the app with the default concurrency of 2 — two run at a
// time, the others wait as `queued`; from the runs list the user moves the last one to the front and cancels another.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ofTasks, shot, startSpecEnv, storeRuns, until, type HostProcess, type SpecEnv } from './harness';
import { layoutProblems, startTask } from './app-steps';

let spec: SpecEnv;
let browser: Browser;
let host: HostProcess | undefined;
let home: string;
let repo: string;

beforeAll(async () => {
  // The agent's answers are held while the test looks at the queue (spec.server.hold): the runs holding the two slots
  // stay running however long the app takes to start and reorder the others.
  spec = await startSpecEnv();
  ({ browser, host, home, repo } = spec);
});

afterAll(async () => {
  await spec?.close();
});

/** Each task's title → its run's status. */
const statuses = (): Record<string, string> => Object.fromEntries(storeRuns(home).map((r) => [r.title, r.status]));

/**
 * Watches the database the whole time: the most runs ever holding a slot at once (running, or waiting out a retry's
 * backoff). Not `planning`: every new run is created in it (its worktree being made) before it runs or is queued.
 */
function watchConcurrency(): { max(): number; stop(): void } {
  let max = 0;
  const timer = setInterval(() => {
    const n = Object.values(statuses()).filter((s) => s === 'running' || s === 'waiting').length;
    max = Math.max(max, n);
  }, 100);
  return { max: () => max, stop: () => clearInterval(timer) };
}

/** Waits up to 2 minutes for `fn`, naming `what` and the runs when it times out. */
const waitFor = (what: string, fn: () => boolean) => until(fn, { ms: 120_000, everyMs: 150, describe: () => `${what}; runs: ${JSON.stringify(statuses())}` });

/** Titles in the order their runs first started running (the run.status events). */
function startOrder(): string[] {
  const db = new Database(join(home, 'ratchet.db'), { readonly: true });
  try {
    const rows = db
      .prepare(
        `SELECT tasks.title FROM events JOIN runs ON runs.id = events.run_id JOIN tasks ON tasks.id = runs.task_id
      WHERE events.type = 'run.status' AND json_extract(events.payload_json, '$.status') = 'running' ORDER BY events.id`,
      )
      .all() as Array<{ title: string }>;
    return [...new Set(rows.map((r) => r.title))];
  } finally {
    db.close();
  }
}

const inGroup = (page: Page, group: string, title: string) => page.getByRole('rowgroup', { name: group }).getByRole('link', { name: title, exact: true });
const row = (page: Page, title: string) => page.locator('table.runs-table tr', { has: page.getByRole('link', { name: title, exact: true }) });

describe('the queue in the app', () => {
  it('runs two at a time while the others wait as queued; Run next and Cancel reorder the queue from the runs list', async () => {
    const watch = watchConcurrency();
    try {
      const page = await browser.newPage({ viewport: { width: 1024, height: 700 } });
      await page.goto(host!.url);
      // A and B take the two slots and stay running (their agent does not answer yet) while C, D and E queue behind them.
      spec.server.hold();
      for (const t of ['Queue A', 'Queue B', 'Queue C', 'Queue D', 'Queue E']) await startTask(page, repo, t);
      // The last one was started with two running: it waits, and its own screen says so.
      await page.locator('header').getByText('queued', { exact: true }).first().waitFor();
      expect(statuses()).toMatchObject({ 'Queue C': 'queued', 'Queue D': 'queued', 'Queue E': 'queued' });

      await page.getByRole('link', { name: 'Runs' }).click();
      await inGroup(page, 'Running', 'Queue A').waitFor();
      await inGroup(page, 'Running', 'Queue B').waitFor();
      for (const t of ['Queue C', 'Queue D', 'Queue E']) await inGroup(page, 'Queued', t).waitFor();
      await row(page, 'Queue C').getByText('1st in the queue').waitFor();
      await row(page, 'Queue D').getByText('2nd in the queue').waitFor();
      await row(page, 'Queue E').getByText('3rd in the queue').waitFor();
      await expect(row(page, 'Queue C').getByRole('button', { name: 'Run next' }).count()).resolves.toBe(0);
      expect(await layoutProblems(page)).toEqual([]);
      await shot(page, 'queue-two-running-1024');

      // E goes first; C and D move down one place.
      await row(page, 'Queue E').getByRole('button', { name: 'Run next' }).click();
      await row(page, 'Queue E').getByText('1st in the queue').waitFor();
      await row(page, 'Queue C').getByText('2nd in the queue').waitFor();
      await row(page, 'Queue D').getByText('3rd in the queue').waitFor();
      await expect(row(page, 'Queue E').getByRole('button', { name: 'Run next' }).count()).resolves.toBe(0);

      // D leaves the queue without ever starting: stopped by the user, among the finished runs.
      await row(page, 'Queue D').getByRole('button', { name: 'Cancel' }).click();
      await inGroup(page, 'Finished', 'Queue D').waitFor();
      expect(statuses()).toMatchObject({ 'Queue C': 'queued', 'Queue D': 'cancelled', 'Queue E': 'queued' });
      await row(page, 'Queue C').getByText('2nd in the queue').waitFor();
      await shot(page, 'queue-reordered-1024');

      // When A and B end, E then C take the free slots (and stay running until the list has shown them); the runs list follows.
      spec.server.hold(ofTasks('Queue E', 'Queue C'));
      await inGroup(page, 'Running', 'Queue E').waitFor({ timeout: 90_000 });
      await inGroup(page, 'Running', 'Queue C')
        .or(inGroup(page, 'Finished', 'Queue C'))
        .waitFor({ timeout: 90_000 });
      // (The Running group shows a run from `planning` on; it reaches `running` a moment later.)
      await waitFor('C to run', () => startOrder().includes('Queue C'));
      expect(startOrder()).toEqual(['Queue A', 'Queue B', 'Queue E', 'Queue C']);
      spec.server.release();

      await waitFor('A, B, C and E to succeed', () => {
        const s = statuses();
        return ['Queue A', 'Queue B', 'Queue C', 'Queue E'].every((t) => s[t] === 'succeeded');
      });
      await page.getByRole('rowgroup', { name: 'Queued' }).waitFor({ state: 'detached' });
      await page.getByRole('rowgroup', { name: 'Running' }).waitFor({ state: 'detached' });
      await shot(page, 'queue-done-1024');
      expect(statuses()['Queue D']).toBe('cancelled');
      await page.close();
    } finally {
      watch.stop();
    }
    // Never more than the concurrency limit at once, and the limit was used.
    expect(watch.max()).toBe(2);
  }, 180_000);
});
