// The review screen in Chromium at 1400×900 and 1024×700, on the dev page (the real renderer on the fake bridge,
// renderer/dev/fixtures-review.ts, whose round answers at once): the run's change unified and split, a comment being
// written, and the answered review — three comments on two files (a click, a shift-click range, and the keys `]` `n`
// `c`), sent once, three answers under their comments. That the engine makes one agent request and one commit of such
// a review is electron/engine/review/review-round.test.ts's. Saves e2e/screenshots/screen-review-*.png, to be looked at.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { serveDevPage } from '../bench/browser';
import { launchBrowser } from './harness';
import { shootScreen } from './app-steps';

let browser: Browser;
let dev: { url: string; close(): Promise<void> };

beforeAll(async () => {
  [dev, browser] = await Promise.all([serveDevPage(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await dev?.close();
});

const review = (page: Page) => page.locator('section[aria-label="review"]');
const inView = (page: Page) => () => review(page).scrollIntoViewIfNeeded();

describe('the review screen', () => {
  it('reads the change unified and split, takes three comments on two files and shows the three answers of one round', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${dev.url}#/runs/r-7f3a21`);
    const panel = review(page);
    await panel.getByRole('button', { name: 'comment on line 3' }).first().waitFor();
    await shootScreen(page, 'review-unified', inView(page));

    await panel.getByRole('radio', { name: 'Split' }).click();
    await expect.poll(() => panel.locator('.review-row.split').count()).toBeGreaterThan(0);
    await shootScreen(page, 'review-split', inView(page));
    await panel.getByRole('radio', { name: 'Unified' }).click();

    // 1: a click on a line's number.
    await panel.getByRole('button', { name: 'comment on line 3' }).first().click();
    await panel.getByLabel('Comment on src/player.ts:3').fill('Start health from a MAX_HEALTH constant.');
    await shootScreen(page, 'review-comment-writing', inView(page));
    await panel.getByRole('button', { name: 'Add comment' }).click();
    await expect.poll(() => panel.getByLabel('pending comments').textContent()).toBe('1 comment');
    // 2: a range, by shift-click.
    await panel.getByRole('button', { name: 'comment on line 4' }).first().click();
    await panel
      .getByRole('button', { name: 'comment on line 5' })
      .first()
      .click({ modifiers: ['Shift'] });
    await panel.getByLabel('Comment on src/player.ts:4-5').fill('damage() should not go below zero.');
    await panel.getByRole('button', { name: 'Add comment' }).click();
    await expect.poll(() => panel.getByLabel('pending comments').textContent()).toBe('2 comments');
    // 3: on the next file, by the keys: ] (file), n (its first hunk's first added line), c (comment).
    const diff = panel.getByRole('region', { name: 'diff' });
    await diff.focus();
    await page.keyboard.press(']');
    await page.keyboard.press('n');
    await page.keyboard.press('c');
    await panel.getByLabel('Comment on src/big.ts:1').fill('These constants belong in one table.');
    await panel.getByRole('button', { name: 'Add comment' }).click();
    await expect.poll(() => panel.getByLabel('pending comments').textContent()).toBe('3 comments');

    await panel.getByRole('button', { name: 'Send to agent' }).click();
    // Back to the top of the change, where the three threads are (the diff shows only the rows in view).
    await diff.evaluate((el) => el.scrollTo({ top: 0 }));
    await expect.poll(() => panel.getByLabel('answer').count()).toBe(3);
    expect(await panel.getByLabel('pending comments').textContent()).toBe('0 comments');
    const answers = await panel.getByLabel('answer').allTextContents();
    // One round: both done answers name the same commit.
    expect(answers.filter((a) => a.startsWith('Done in dddddddddd')).length).toBe(2);
    expect(answers.filter((a) => a.startsWith('Declined')).length).toBe(1);
    await shootScreen(page, 'review-answered', inView(page));
    await page.close();
  });
});
