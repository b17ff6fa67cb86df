// New task's drafted plan in the app: the agent drafts three steps and each is listed with its share of the estimate
// (p50/p90 cost and time, from runs.estimate), the run's line under the plan. Saves
// e2e/screenshots/screen-new-task-drafted-<1400|1024>.png, to be looked at.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { queue, say } from '../electron/engine/testing/fixture-project';
import { startSpecEnv, type SpecEnv } from './harness';
import { shootScreen } from './app-steps';

let spec: SpecEnv;
let browser: Browser;

beforeAll(async () => {
  spec = await startSpecEnv();
  ({ browser } = spec);
});

afterAll(async () => {
  await spec?.close();
});

describe('a drafted plan in New task', () => {
  it('lists each drafted step with its share of the estimate, and the run’s estimate under the plan', async () => {
    // The draft is the agent's one answer: three steps in Markdown.
    spec.server.setScript({
      rules: queue(
        say(
          '## 1. Read how calc is tested\nList the test files and how they import src/.\n\n## 2. Add pow()\nWrite src/pow.mjs exporting pow(a, b) with a test.\n\n## 3. Document pow()\nAdd pow() to the README.',
        ),
      ),
    });
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(spec.host!.url);
    await page.getByRole('link', { name: 'Runs' }).click();
    await page.getByLabel('repository path').fill(spec.repo);
    await page.getByRole('button', { name: 'Use this path' }).click();
    await page.getByRole('heading', { name: 'New task' }).waitFor();
    await page.getByRole('textbox', { name: 'Title', exact: true }).fill('Powers');
    // New task opens on the repository's workflow once it is read: the draft is chosen after that.
    await page.getByText(/Loaded .*ratchet\.yml/).waitFor();
    await page.getByRole('tab', { name: 'Drafted by the agent' }).click();
    await page.getByRole('button', { name: 'Draft a plan' }).click();
    const shares = page.getByRole('note', { name: /^step \d estimate$/ });
    await shares.nth(2).waitFor({ timeout: 60_000 });
    const texts = await shares.allTextContents();
    expect(texts).toHaveLength(3);
    for (const t of texts) expect(t).toMatch(/^about \$[\d.]+, up to \$[\d.]+ · (under 1 min|\d+–\d+ min|\d+–\d+ h)$/);
    expect(await page.getByRole('region', { name: 'estimate' }).textContent()).toMatch(/Estimate: about \$[\d.]+, up to \$[\d.]+ · .* · from the plan alone/);
    await shootScreen(page, 'new-task-drafted', () => page.getByRole('note', { name: 'step 1 estimate' }).scrollIntoViewIfNeeded());
    await page.close();
  });
});
