// A budget pause raised and continued, in Chromium against `ratchet serve`: Settings save as shipped with a
// $1.50 task budget; a run whose workflow sets `budget.task_usd: 0.004` pauses for that budget, the run screen shows that budget
// (not Settings'), one budget notice at most, and "Raise budget and continue" takes it to success. Screenshots at 1400×900 and 1024×700.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { demoRepo, editWorkflow, latestRun, shot, startSpecEnv, until, type HostProcess, type SpecEnv } from './harness';

let spec: SpecEnv;
let browser: Browser;
let host: HostProcess | undefined;
let home: string;
let repo: string;

const SIZES = [
  { name: '1400', width: 1400, height: 900 },
  { name: '1024', width: 1024, height: 700 },
] as const;

beforeAll(async () => {
  // The demo workflow with a task budget far below what one attempt costs.
  spec = await startSpecEnv({
    repo: () => editWorkflow(demoRepo(), (yml) => yml.replace('max_retries: 3', 'max_retries: 3\nbudget: { task_usd: 0.004 }'), 'A tiny task budget'),
  });
  ({ browser, host, home, repo } = spec);
});

afterAll(async () => {
  await spec?.close();
});

const run = (title: string) => latestRun(home, title);

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
    // The pricing table is folded to a line until asked for (issue 34 item 8).
    await page.getByRole('button', { name: /Edit prices/ }).click();
    // The shipped table holds claude-haiku-5-5's 0.125 cache write, which the browser's step rule used to block.
    await expect(page.getByLabel('claude-haiku-5-5 cache write price').inputValue()).resolves.toBe('0.125');
    await bothSizes(page, 'settings');
    await page.getByLabel('claude-haiku-5-5 cache write price').fill('-1');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Cache write price for claude-haiku-5-5 must be a number ≥ 0.').waitFor();
    await bothSizes(page, 'settings-invalid', () =>
      page.getByLabel('claude-haiku-5-5 cache write price').evaluate((el) => el.scrollIntoView({ block: 'center' })),
    );
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

    const paused = await until(
      () => {
        const r = run('Tiny budget');
        return r?.status === 'paused' ? r : undefined;
      },
      { ms: 90_000, describe: 'the run to pause for its budget' },
    );
    expect(paused.reason).toMatch(/^task budget of \$0\.0040 reached \(\$0\.\d{4} spent\)/);
    const raise = page.getByRole('button', { name: 'Raise budget and continue' });
    await raise.waitFor({ timeout: 30_000 });
    const meter = page.locator('.run-header .cost-meter');
    await meter.getByText('of $0.0040 task budget').waitFor();
    await expect(meter.textContent()).resolves.not.toContain('$1.50');
    // The one primary action: Retry (which would stop again at once) is not offered.
    await expect(page.locator('.run-actions button.primary').allTextContents()).resolves.toEqual(['Raise budget and continue']);
    await expect(
      page
        .locator('.run-header')
        .getByText(/^Paused: the task budget of \$0\.0040 is spent \(\$0\.\d{4}\)\.$|^Paused before a call that could cost/)
        .count(),
    ).resolves.toBe(1);
    // One notice speaks of the budget: the pause (the threshold alert before it is superseded; the service's duplicate is gone).
    await page.locator('.notice', { hasText: 'task budget of $0.0040 reached' }).waitFor();
    const budgetNotices = await page
      .locator('.notice')
      .filter({ hasText: /budget alert|budget of/i })
      .count();
    expect(budgetNotices).toBe(1);
    await bothSizes(page, 'budget-paused');

    await raise.click();
    await page.getByLabel(/New task budget/).fill('5');
    await bothSizes(page, 'budget-raise');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await until(() => run('Tiny budget')?.status === 'succeeded', { ms: 120_000, describe: 'the run to succeed after the raise' });
    await page.locator('.run-header').getByText('succeeded', { exact: true }).first().waitFor({ timeout: 30_000 });
    await meter.getByText('of $5.00 task budget').waitFor({ timeout: 30_000 });
    // The pause's "needs you" notice went when the run ran again; no budget notice is left.
    await expect(
      page
        .locator('.notice')
        .filter({ hasText: /needs you|budget alert|budget of/i })
        .count(),
    ).resolves.toBe(0);
    await bothSizes(page, 'budget-continued');
    await page.close();
  });
});
