// A gate's output streams into the run screen while the gate runs, then its whole stored log replaces it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoRepo, shot, slowGate, startSpecEnv, type SpecEnv } from './harness';
import { startTask } from './app-steps';

let spec: SpecEnv;

beforeAll(async () => {
  // The demo's test gate, slowed down: it prints a line every 0.4 s for about 5 s before the tests run.
  spec = await startSpecEnv({ repo: () => slowGate(demoRepo(), 12) });
});

afterAll(async () => {
  await spec?.close();
});

describe('live gate output', () => {
  it("shows a running gate's lines as they are printed, then the stored log when it ends", async () => {
    const page = await spec.browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(spec.host!.url);
    await startTask(page, spec.repo, 'Slow gate');
    // Stay on step 1 (the screen would otherwise follow the run to step 2 once step 1 is done).
    await page.getByRole('button', { name: /Add add\(\)/ }).click();

    const live = page.getByRole('log', { name: 'live output of gate test', exact: true });
    await live.getByText('warming up 2', { exact: true }).waitFor({ timeout: 60_000 });
    // Still running: the gate has more to print, and the lines keep coming into the same panel.
    await expect(live.getByText('warming up 12', { exact: true }).count()).resolves.toBe(0);
    await live.scrollIntoViewIfNeeded();
    await shot(page, 'live-gate-output-1400');
    await live.getByText('warming up 6', { exact: true }).waitFor({ timeout: 10_000 });
    await page.setViewportSize({ width: 1024, height: 700 });
    await live.scrollIntoViewIfNeeded();
    await shot(page, 'live-gate-output-1024');

    // When the gate ends, its stored output (all of it) takes the live panel's place.
    const stored = page.getByRole('log', { name: 'output of gate test', exact: true });
    await stored.getByText('warming up 12', { exact: true }).waitFor({ timeout: 30_000 });
    await expect(live.count()).resolves.toBe(0);
    await page.close();
  });
});
