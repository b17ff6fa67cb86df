// The demo end to end: `ratchet serve --demo` (what `npm run demo -- --app` runs) starts a run that fails a test and succeeds on the retry, then one that fails for good; the user retries it from the app.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, shot, startHostProcess, type HostProcess } from './harness';

let browser: Browser;
const hosts: HostProcess[] = [];
/** The second `ratchet serve --demo` (the second test's), started once the first is up so its runs go on meanwhile. */
let second: Promise<HostProcess> | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  const again = await second?.catch(() => undefined);
  if (again && !hosts.includes(again)) hosts.push(again);
  for (const h of hosts) await h.kill();
  await browser?.close();
});

/** Opens the run titled `title` from the runs list and waits for its header to show `status`. */
async function openRun(page: Page, url: string, title: string, status: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('link', { name: title, exact: true }).first().click({ timeout: 60_000 });
  await page.locator('header').getByText(status, { exact: true }).first().waitFor({ timeout: 90_000 });
}

describe('the demo in the app', () => {
  it('runs by itself: a retried test that passes on attempt 2, then a run that fails for good and is retried by the user', async () => {
    const host = await startHostProcess({}, ['--demo']);
    hosts.push(host);
    second = startHostProcess({}, ['--demo']);
    second.catch(() => undefined); // awaited by the next test, which says why it failed
    expect(host.stderr()).toMatch(/Demo run \w+ started/);
    const url = host.url;
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(url);
    // The app opens on the demo's runs: nobody had to type a repository or a title.
    await page.getByRole('link', { name: 'Calculator', exact: true }).first().waitFor({ timeout: 30_000 });
    await shot(page, 'demo-home-1400');

    await openRun(page, url, 'Calculator', 'succeeded');
    await page.getByRole('button', { name: /Add mul\(\)/ }).click();
    await expect(page.getByRole('tab', { name: /Attempt 1.*test failure/i }).count()).resolves.toBe(1);
    await page.getByRole('tab', { name: /Attempt 1/ }).click();
    await page.getByText('multiplies two numbers').first().waitFor();
    await shot(page, 'demo-first-run-1400');
    // The failure comes first: the failing test above the decision, the raw log collapsed.
    await page.locator('table.failing-tests').getByText('test/mul.test.mjs:6').waitFor();
    await expect(page.locator('details.gate-logs').getAttribute('open')).resolves.toBeNull();
    await page.setViewportSize({ width: 1024, height: 700 });
    await shot(page, 'demo-first-run-1024');
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.getByRole('tab', { name: /Attempt 2/ }).click();
    const own = page.getByRole('radio', { name: 'This attempt (since attempt 1)' });
    await own.waitFor();
    await expect(own.getAttribute('aria-checked')).resolves.toBe('true');
    await page.getByRole('region', { name: 'attempt diff' }).getByText('+export const mul = (a, b) => a * b;').waitFor();
    await expect(page.getByRole('region', { name: 'attempt diff' }).getByText('test/mul.test.mjs').count()).resolves.toBe(0);
    await own.scrollIntoViewIfNeeded();
    await shot(page, 'demo-attempt2-own-diff-1400');
    await page.getByRole('radio', { name: 'Whole run' }).click();
    await page
      .getByRole('region', { name: 'attempt diff' })
      .getByText(/src\/add\.mjs/)
      .first()
      .waitFor();
    await page.setViewportSize({ width: 1024, height: 700 });
    await shot(page, 'demo-attempt2-run-diff-1024');
    await page.setViewportSize({ width: 1400, height: 900 });

    await openRun(page, url, 'Division that refuses zero', 'failed');
    await page.getByRole('button', { name: /Refuse a zero divisor/ }).click();
    await page.getByRole('button', { name: /Revise plan/ }).waitFor();
    const retry = page.getByRole('button', { name: /^Retry$/ });
    await retry.waitFor();
    await shot(page, 'demo-second-failed-1400');
    await page.setViewportSize({ width: 1024, height: 700 });
    await shot(page, 'demo-second-failed-1024');
    await page.setViewportSize({ width: 1400, height: 900 });
    await retry.click();
    await page.locator('header').getByText('succeeded', { exact: true }).first().waitFor({ timeout: 90_000 });
    await shot(page, 'demo-second-retried-1400');
    await page.close();
  }, 240_000);

  it('can be started again: a fresh repository, the same two runs', async () => {
    const host = await (second ??= startHostProcess({}, ['--demo']));
    hosts.push(host);
    const repos = hosts.map((h) => /demo repository: (\S+)/.exec(h.stderr())?.[1]);
    expect(repos[0]).toBeTruthy();
    expect(repos[1]).toBeTruthy();
    expect(repos[0]).not.toBe(repos[1]);
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await openRun(page, host.url, 'Calculator', 'succeeded');
    await page.setViewportSize({ width: 1024, height: 700 });
    await shot(page, 'demo-again-1024');
    await page.close();
  }, 180_000);
});
