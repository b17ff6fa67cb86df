// P7: open an attempt whose gate log has 100,000 lines, through `ratchet serve` in Chromium, to its first painted line
// ÷ the same with a 100-line log. Goal ≤ 1.5. The host, the WebSocket, the client, the stores and the virtualized
// viewer are the product's own; the time is the page's, from navigation start to the frame that shows the log's line.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { startHostProcess } from '../e2e/harness';
import { openDatabase } from '../electron/engine/store/open-store';
import { Store } from '../electron/engine/store/store';
import { seedRun } from '../electron/engine/store/testing/seed-run';
import { BLANK_FINISH } from '../electron/engine/store/testing/blank-finish';
import { goalLine, launchChromium, median } from './browser';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const ROOT = join(import.meta.dirname, '..');

/** A failed run whose one attempt's test gate printed `lines` lines (a test runner's: names, timings, some colour). */
function seedAttempt(store: Store, lines: number): string {
  const runId = seedRun(store, 1);
  const attemptId = store.startAttempt({
    runId,
    stepIndex: 1,
    n: 1,
    agentKind: 'anthropic',
    model: 'claude-sonnet-5-5',
    prompt: 'Make the tests pass.',
    preCommit: '0'.repeat(40),
  });
  const output = Array.from({ length: lines }, (_, i) =>
    i % 50 === 49
      ? `\u001b[31mnot ok ${i + 1} - parser handles case ${i + 1}\u001b[39m  # expected 3, got 4 (src/parser.test.ts:${i % 400})`
      : `ok ${i + 1} - parser handles case ${i + 1} (${(i % 17) + 1} ms)`,
  ).join('\n');
  store.recordGate(runId, attemptId, {
    gate: 'test',
    command: 'npm test',
    passed: false,
    exitCode: 1,
    signal: null,
    timedOut: false,
    durationMs: 61_000,
    output,
    outputBytes: Buffer.byteLength(output),
    failures: [],
  });
  store.finishAttempt(runId, attemptId, { ...BLANK_FINISH, outcome: 'failed', errorClass: 'test_failure', errorMessage: 'tests failed' });
  store.setStepStatus(runId, 1, 'failed');
  store.setRunStatus(runId, 'failed', 'step 1 failed: test_failure', { finished: true });
  return runId;
}

/** Milliseconds from navigation start to the frame that painted the gate log's first line. */
async function openToFirstLine(browser: Browser, url: string, runId: string): Promise<number> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  try {
    // A string, not a function: tsx's transform would add helpers the page does not have.
    await page.addInitScript(`
      window.__firstLine = new Promise((done) => {
        const obs = new MutationObserver(() => {
          if (!document.querySelector('[aria-label="output of gate test"] .vline')) return;
          obs.disconnect();
          // The frame that shows it: after the next paint.
          requestAnimationFrame(() => setTimeout(() => done(performance.now()), 0));
        });
        obs.observe(document, { childList: true, subtree: true });
      });
    `);
    await page.goto(`${url}#/runs/${runId}`);
    return await page.evaluate(() => (globalThis as unknown as { __firstLine: Promise<number> }).__firstLine);
  } finally {
    await page.close();
  }
}

const build = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: ROOT, stdio: 'ignore' });
if (build.status !== 0) throw new Error('electron-vite build failed');

const home = join(mkdtempSync(join(tmpdir(), 'ratchet-bench-p7-')), 'home');
const { db } = openDatabase(home);
const store = new Store(db);
const big = seedAttempt(store, 100_000);
const small = seedAttempt(store, 100);
db.close();

const host = await startHostProcess({ RATCHET_HOME: home });
const browser = await launchChromium();
try {
  // Warm-up: the bundle cached, the host's statements prepared, as for a user who has the app open.
  await openToFirstLine(browser, host.url, small);
  await openToFirstLine(browser, host.url, big);
  const s: number[] = [];
  const b: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const st = await openToFirstLine(browser, host.url, small);
    const bt = await openToFirstLine(browser, host.url, big);
    s.push(st);
    b.push(bt);
    ratios.push(bt / st);
  }
  // BENCH_SHOTS=<dir>: pictures of the big log, scrolled to its middle once its pages arrived, at both window sizes.
  if (process.env.BENCH_SHOTS) {
    for (const [w, h] of [
      [1400, 900],
      [1024, 700],
    ] as const) {
      const page = await browser.newPage({ viewport: { width: w, height: h } });
      await page.goto(`${host.url}#/runs/${big}`);
      const log = page.getByRole('log', { name: 'output of gate test', exact: true });
      await log.evaluate((el) => {
        (el as unknown as { scrollTop: number }).scrollTop = 50_000 * 18;
      });
      await log.getByText(/^ok 50001 - parser handles case 50001 /).waitFor();
      await log.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(process.env.BENCH_SHOTS, `p7-big-log-${w}.png`) });
      await page.close();
    }
  }
  const ok = goalLine(
    'P7',
    'open an attempt with a 100k-line gate log to first painted line ÷ a 100-line log',
    median(ratios),
    1.5,
    `[${median(b).toFixed(0)} ms vs ${median(s).toFixed(0)} ms; ${ROUNDS} rounds; ratios ${ratios.map((x) => x.toFixed(2)).join(' ')}]`,
  );
  process.exitCode = ok ? 0 : 1;
} finally {
  await browser.close();
  await host.kill();
}
