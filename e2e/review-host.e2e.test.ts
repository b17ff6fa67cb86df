// The review against a real host: `ratchet serve` on a fresh home, a scripted agent and a real repository. A run edits
// two places of a 40-line file; its review opens the unchanged lines between the two hunks (read from git through
// review.fileLines), the attempt's diff is the same view read-only, a comment on a line and one on a range are sent in
// one round, and the agent's answers come back under them with the round's new commit. Saves
// e2e/screenshots/screen-review-host-{expanded,attempt-diff,answered}-{1400,1024}.png, to be looked at.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startScriptedServer, type ScriptedServer } from '../electron/scripted/server';
import { queue, replace, say, turn } from '../electron/engine/testing/fixture-project';
import { commitAll, launchBrowser, startHostProcess, tempHome, type HostProcess } from './harness';
import { shootScreen, startTask } from './app-steps';

const LINES = Array.from({ length: 40 }, (_, i) => `export const c${i + 1} = ${i + 1};`);
const TITLE = 'Tidy the constants';

/** A repository with src/consts.mjs (40 lines) and a workflow of one step whose gate checks the file is there. */
function repo(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'ratchet-e2e-review-')), 'consts');
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'src', 'consts.mjs'), LINES.join('\n') + '\n');
  writeFileSync(
    join(dir, 'ratchet.yml'),
    [
      'gates:',
      '  file: { run: "test -f src/consts.mjs", timeout: 30 }',
      'agent: { kind: anthropic, model: claude-sonnet-5-5, max_turns: 10 }',
      'backoff: { base_s: 0, max_s: 0, jitter: 0 }',
      'steps:',
      '  - title: Name the constants',
      '    prompt: Give c5 and c30 names.',
      '',
    ].join('\n'),
  );
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  execFileSync('git', ['add', '-A'], { cwd: dir });
  return commitAll(dir, 'Constants');
}

let server: ScriptedServer;
let host: HostProcess;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  server = await startScriptedServer({
    script: {
      rules: queue(
        turn(
          replace('src/consts.mjs', 'export const c5 = 5;\n', 'export const FIVE = 5;\n'),
          replace('src/consts.mjs', 'export const c30 = 30;\n', 'export const THIRTY = 30;\n'),
        ),
        say('Named c5 and c30.'),
        // The review round: one turn of edits, then one answer per comment.
        turn(replace('src/consts.mjs', 'export const FIVE = 5;\n', 'export const FIVE = 5; // five\n')),
        say('Addressed the review.\n[1] done: FIVE has a comment now\n[2] declined: the names between are the public API'),
      ),
    },
  });
  dir = repo();
  host = await startHostProcess({ RATCHET_HOME: tempHome(), ANTHROPIC_API_KEY: 'e2e-key', ANTHROPIC_BASE_URL: server.url });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await host?.kill();
  await browser?.close();
  await server?.close();
});

describe('the review on a real host', () => {
  it('opens unchanged lines, shows the attempt in the same view, and answers a line and a range sent in one round with a new commit', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(host.url);
    await startTask(page, dir, TITLE);
    await page.locator('header').getByText('succeeded', { exact: true }).first().waitFor({ timeout: 90_000 });
    const panel = page.locator('section[aria-label="review"]');
    const diff = panel.getByRole('region', { name: 'diff' });
    await panel.getByRole('button', { name: 'comment on line 5' }).waitFor({ timeout: 30_000 });

    // Lines 9..26 are in neither hunk (c5's ends at 8, c30's starts at 27): opened from git at the run's head.
    await panel.getByRole('button', { name: 'Show 18 unchanged lines' }).click();
    await diff.getByText('export const c17 = 17;').waitFor();
    // Line 1 above c5's hunk, and now that the file's length is known, lines 34..40 below c30's.
    expect(await panel.getByRole('button', { name: /unchanged line/ }).allTextContents()).toEqual(['Show 1 unchanged line', 'Show 7 unchanged lines']);
    await shootScreen(page, 'review-host-expanded', () => panel.scrollIntoViewIfNeeded());

    // The attempt's diff: the same view, read-only.
    await page
      .getByRole('button', { name: /Name the constants/ })
      .first()
      .click();
    const attempt = page.getByRole('region', { name: 'attempt diff' });
    await attempt.getByText('export const THIRTY = 30;').waitFor({ timeout: 30_000 });
    expect(await attempt.getByRole('button', { name: /^comment on line/ }).count()).toBe(0);
    await shootScreen(page, 'review-host-attempt-diff', () => attempt.scrollIntoViewIfNeeded());

    // A comment on a line, and one on a range (a click, then a shift-click).
    await panel.getByRole('button', { name: 'comment on line 5' }).click();
    await panel.getByLabel('Comment on src/consts.mjs:5').fill('Say what FIVE is for.');
    await panel.getByRole('button', { name: 'Add comment' }).click();
    await expect.poll(() => panel.getByLabel('pending comments').textContent(), { timeout: 30_000 }).toBe('1 comment');
    await panel.getByRole('button', { name: 'comment on line 16' }).click();
    await panel.getByRole('button', { name: 'comment on line 18' }).click({ modifiers: ['Shift'] });
    await panel.getByLabel('Comment on src/consts.mjs:16-18').fill('Name these too?');
    await panel.getByRole('button', { name: 'Add comment' }).click();
    await expect.poll(() => panel.getByLabel('pending comments').textContent(), { timeout: 30_000 }).toBe('2 comments');

    await panel.getByRole('button', { name: 'Send to agent' }).click();
    await expect.poll(() => panel.getByLabel('answer').count(), { timeout: 90_000 }).toBe(2);
    const head = execFileSync('git', ['rev-parse', 'refs/heads/' + branchOf(dir)], { cwd: dir, encoding: 'utf8' }).trim();
    const answers = await panel.getByLabel('answer').allTextContents();
    // The line-5 comment's line was rewritten by the round: it is listed as outdated, below the diff.
    expect(answers.sort()).toEqual(['Declined: the names between are the public API', `Done in ${head.slice(0, 10)}: FIVE has a comment now`]);
    // One round, one agent request for both comments.
    const rounds = server.requests.filter((r) => JSON.stringify(r.body).includes('Say what FIVE is for.'));
    expect(rounds.length).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(rounds[0]!.body)).toContain('Name these too?');
    await shootScreen(page, 'review-host-answered', () => panel.scrollIntoViewIfNeeded());
    await page.close();
  }, 240_000);
});

/** The run's branch (the only ratchet/ branch of the repository). */
function branchOf(repoDir: string): string {
  return execFileSync('git', ['for-each-ref', '--format=%(refname:short)', 'refs/heads/ratchet/'], { cwd: repoDir, encoding: 'utf8' }).trim().split('\n')[0]!;
}
