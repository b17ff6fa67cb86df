// The user flow end to end: add a repo, start a 3-step task, watch step 2 fail and be retried, read the attempt history;
// kill the host mid-run, restart it, resume from the start-up dialog to success; check the dashboard against the runs.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { ScriptedServer } from '../electron/scripted/server';
import { demoRepo, launchBrowser, scriptedAgent, shot, startHostProcess, type HostProcess } from './harness';

let server: ScriptedServer;
let browser: Browser;
let host: HostProcess | undefined;
const home = join(mkdtempSync(join(tmpdir(), 'ratchet-e2e-home-')), 'home');
let repo: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  server = await scriptedAgent();
  repo = demoRepo();
  env = { RATCHET_HOME: home, ANTHROPIC_API_KEY: 'e2e-key', ANTHROPIC_BASE_URL: server.url };
  browser = await launchBrowser();
});

afterAll(async () => {
  await host?.kill();
  await browser?.close();
  await server?.close();
});

async function startTask(page: Page, title: string) {
  await page.getByRole('link', { name: 'Runs' }).click().catch(() => undefined);
  await page.getByLabel('repository path').fill(repo);
  await page.getByRole('button', { name: 'Use this path' }).click();
  await page.getByRole('heading', { name: 'New task' }).waitFor();
  await page.getByRole('textbox', { name: 'Title', exact: true }).fill(title);
  await page.getByRole('tab', { name: /From the repo/ }).click();
  await page.getByText(/Loaded .*ratchet\.yml/).waitFor();
  await shot(page, 'new-task');
  // The repository's own workflow file must be trusted once (issue 11's workspace trust); later runs of the same file are not asked.
  const trust = page.getByRole('button', { name: 'Trust', exact: true });
  if (await trust.isVisible()) {
    await trust.click();
    await page.getByText('You trust this workflow file').waitFor();
  }
  await page.getByRole('button', { name: 'Start run' }).click();
  await page.getByRole('heading', { name: title }).waitFor();
}

function runStatus(): Array<{ id: string; status: string; title: string }> {
  const db = new Database(join(home, 'ratchet.db'), { readonly: true });
  try {
    return db.prepare('SELECT runs.id, runs.status, runs.reason, tasks.title FROM runs JOIN tasks ON tasks.id = runs.task_id ORDER BY runs.created_at').all() as never;
  } finally {
    db.close();
  }
}

async function until<T>(fn: () => T | undefined | false, ms = 60_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() - start > ms) throw new Error(`timed out; runs: ${JSON.stringify(runStatus())}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

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
    await startTask(page, 'Calculator again');
    // Kill the whole host as soon as step 1 is committed and step 2 is under way.
    const run = await until(() => runStatus().find((r) => r.title === 'Calculator again'));
    await until(() => {
      const db = new Database(join(home, 'ratchet.db'), { readonly: true });
      try {
        return (db.prepare("SELECT COUNT(*) AS n FROM attempts WHERE run_id = ? AND step_index = 2").get(run.id) as { n: number }).n > 0;
      } finally {
        db.close();
      }
    });
    await host!.kill('SIGKILL');
    await page.close();

    host = await startHostProcess(env);
    const again = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    await again.goto(host.url);
    await again.getByRole('dialog').getByText('Resume plan').first().waitFor({ timeout: 30_000 });
    await again.getByRole('dialog').getByText('Completed work').waitFor({ timeout: 30_000 });
    await shot(again, 'resume-dialog');
    await again.getByRole('button', { name: 'Proceed', exact: true }).click();
    await until(() => runStatus().find((r) => r.id === run.id && r.status === 'succeeded'), 90_000);
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
