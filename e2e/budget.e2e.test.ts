// A budget pause raised and continued (issue 13 items 1 and 2), in Chromium against `ratchet serve`: Settings save as shipped with a
// $1.50 task budget; a run whose workflow sets `budget.task_usd: 0.004` pauses for that budget, the run screen shows that budget
// (not Settings'), one budget notice at most, and "Raise budget and continue" takes it to success. Screenshots at 1400×900 and 1024×700.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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
const home = join(mkdtempSync(join(tmpdir(), 'ratchet-e2e-budget-')), 'home');
let repo: string;

const SIZES = [{ name: '1400', width: 1400, height: 900 }, { name: '1024', width: 1024, height: 700 }] as const;

beforeAll(async () => {
  server = await scriptedAgent(50);
  repo = demoRepo();
  // The demo workflow with a task budget far below what one attempt costs.
  const file = join(repo, 'ratchet.yml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('max_retries: 3', 'max_retries: 3\nbudget: { task_usd: 0.004 }'));
  execFileSync('git', ['-c', 'user.name=E2E', '-c', 'user.email=e2e@localhost', 'commit', '-qam', 'A tiny task budget'], { cwd: repo });
  host = await startHostProcess({ RATCHET_HOME: home, ANTHROPIC_API_KEY: 'e2e-key', ANTHROPIC_BASE_URL: server.url });
  browser = await launchBrowser();
});

afterAll(async () => {
  await host?.kill();
  await browser?.close();
  await server?.close();
});

function run(title: string): { id: string; status: string; reason: string | null } | undefined {
  const db = new Database(join(home, 'ratchet.db'), { readonly: true });
  try {
    return db.prepare('SELECT runs.id, runs.status, runs.reason FROM runs JOIN tasks ON tasks.id = runs.task_id WHERE tasks.title = ? ORDER BY runs.created_at DESC').get(title) as never;
  } finally {
    db.close();
  }
}

async function until<T>(fn: () => T | undefined | false, what: string, ms = 90_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function bothSizes(page: Page, name: string, scroll?: () => Promise<void>): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await scroll?.();
    await shot(page, `${name}-${size.name}`);
  }
  await page.setViewportSize({ width: SIZES[0].width, height: SIZES[0].height });
}

describe('a budget pause raised and continued', () => {
  it('saves the shipped Settings with a $1.50 task budget, names a wrong price at its field, and says "Settings saved"', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(host!.url);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    // The shipped table holds claude-haiku-5-5's 0.125 cache write, which the browser's step rule used to block.
    await expect(page.getByLabel('claude-haiku-5-5 cache write price').inputValue()).resolves.toBe('0.125');
    await bothSizes(page, 'settings');
    await page.getByLabel('claude-haiku-5-5 cache write price').fill('-1');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Cache write price for claude-haiku-5-5 must be a number ≥ 0.').waitFor();
    await bothSizes(page, 'settings-invalid', () => page.getByLabel('claude-haiku-5-5 cache write price').evaluate((el) => el.scrollIntoView({ block: 'center' })));
    await page.getByLabel('claude-haiku-5-5 cache write price').fill('0.125');
    await page.getByLabel('Per task (USD)').fill('1.5');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved').waitFor();
    await bothSizes(page, 'settings-saved');
    const saved = JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8')) as { budget: { taskUsd: number } };
    expect(saved.budget.taskUsd).toBe(1.5);
    // The confirmation goes away by itself.
    await page.getByText('Settings saved').waitFor({ state: 'detached', timeout: 10_000 });
    await page.close();
  });

  it('pauses at the workflow’s $0.0040 budget, shows that budget, and Raise budget and continue finishes the run', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(host!.url);
    await page.getByLabel('repository path').fill(repo);
    await page.getByRole('button', { name: 'Use this path' }).click();
    await page.getByRole('heading', { name: 'New task' }).waitFor();
    await page.getByRole('textbox', { name: 'Title', exact: true }).fill('Tiny budget');
    await page.getByRole('tab', { name: /From the repo/ }).click();
    await page.getByText(/Loaded .*ratchet\.yml/).waitFor();
    // New task's budget takes any amount above 0 and says so at the field; left empty here, the workflow's applies.
    const budgetField = page.getByLabel('Budget (USD)');
    await budgetField.fill('0');
    await page.getByText('The budget must be more than $0 (leave it empty for the workflow’s or Settings’ budget).').waitFor();
    await bothSizes(page, 'budget-new-task', () => budgetField.evaluate((el) => el.scrollIntoView({ block: 'center' })));
    await budgetField.fill('');
    await page.getByRole('button', { name: 'Trust', exact: true }).click();
    await page.getByText('You trust this workflow file').waitFor();
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.getByRole('heading', { name: 'Tiny budget' }).waitFor();

    const paused = await until(() => {
      const r = run('Tiny budget');
      return r?.status === 'paused' ? r : undefined;
    }, 'the run to pause for its budget');
    expect(paused.reason).toMatch(/^task budget of \$0\.0040 reached \(\$0\.\d{4} spent\)/);
    const raise = page.getByRole('button', { name: 'Raise budget and continue' });
    await raise.waitFor({ timeout: 30_000 });
    const meter = page.locator('.run-header .cost-meter');
    await meter.getByText('of $0.0040 task budget').waitFor();
    await expect(meter.textContent()).resolves.not.toContain('$1.50');
    // The one primary action: Retry (which would stop again at once) is not offered.
    await expect(page.locator('.run-actions button.primary').allTextContents()).resolves.toEqual(['Raise budget and continue']);
    await expect(page.locator('.run-header').getByText(/task budget of \$0\.0040 reached/).count()).resolves.toBe(1);
    // One notice speaks of the budget: the pause (the threshold alert before it is superseded; the service's duplicate is gone).
    await page.locator('.notice', { hasText: 'task budget of $0.0040 reached' }).waitFor();
    const budgetNotices = await page.locator('.notice').filter({ hasText: /budget alert|budget of/i }).count();
    expect(budgetNotices).toBe(1);
    await bothSizes(page, 'budget-paused');

    await raise.click();
    await page.getByLabel(/New task budget/).fill('5');
    await bothSizes(page, 'budget-raise');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await until(() => run('Tiny budget')?.status === 'succeeded', 'the run to succeed after the raise', 120_000);
    await page.locator('.run-header').getByText('succeeded', { exact: true }).first().waitFor({ timeout: 30_000 });
    await meter.getByText('of $5.00 task budget').waitFor({ timeout: 30_000 });
    // The pause's "needs you" notice went when the run ran again; no budget notice is left.
    await expect(page.locator('.notice').filter({ hasText: /needs you|budget alert|budget of/i }).count()).resolves.toBe(0);
    await bothSizes(page, 'budget-continued');
    await page.close();
  });
});
