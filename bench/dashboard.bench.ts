// Benchmarks P5 and P5b: the dashboard over a store of 1M attempts (30 days of runs, with prompts, transcripts, diffs and
// gate logs in the store). P5: `stats.summary` for 30 days through the service ÷ `SELECT count(*) FROM attempts` on the
// same store (goal ≤ 3). P5b: the longest stall of the event loop (a 1 ms timer, monitorEventLoopDelay) while the app's
// dashboard loads (7 and 30 days, its improvement suggestions and the weekly report), in milliseconds (goal ≤ 50).
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createEngine } from '../electron/engine/engine';
import { createService } from '../electron/engine/service/service';
import { loadStatsFromRows } from '../electron/engine/stats/stats-load';
import { compareAsync, goalLine, report } from './measure';
import { buildDashboardHome, DASHBOARD_STORE, SHARED_HOME_ENV } from './history-store';

const dir = mkdtempSync(join(tmpdir(), 'ratchet-bench-dash-'));
// The store is big: removed however the benchmark ends (a shared one is run-all's to remove).
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

// ---- the store: the engine's schema and triggers, rows generated in bulk SQL inside SQLite (history-store.ts); the one
// run-all built for this benchmark and start-up when it gives one, else built here -----------------------------------
const t0 = Date.now();
const shared = process.env[SHARED_HOME_ENV];
const home = shared ?? join(dir, 'home');
if (!shared) await buildDashboardHome(home, DASHBOARD_STORE);
const attempts = (() => {
  const db = new Database(join(home, 'ratchet.db'), { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM attempts').get() as { n: number }).n;
  } finally {
    db.close();
  }
})();
const size = statSync(join(home, 'ratchet.db')).size;
console.log(
  shared
    ? `the shared store run-all built: ${attempts} attempts (${(size / 1e9).toFixed(2)} GB)`
    : `built a store of ${attempts} attempts (${(size / 1e9).toFixed(2)} GB) in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
);

// ---- measure through the service, as the app and the host call it --------------------------------------------------
const engine = createEngine({ home, env: {} });
const service = createService(engine, { host: 'headless', version: 'bench', env: {}, watchMs: 3_600_000 });
const count = () => engine.store.db.prepare('SELECT count(*) AS n FROM attempts').get() as { n: number };
if (count().n !== attempts) throw new Error(`expected ${attempts} attempts, the store has ${count().n}`);
const summary = await service.handlers['stats.summary']({ days: 30 });
console.log(
  `30 days: ${summary.runs} runs, ${summary.succeeded} succeeded, $${summary.totalCostUsd.toFixed(2)}, breakdown ${JSON.stringify(summary.retryBreakdown)}`,
);

const m = await compareAsync(
  3,
  () => service.handlers['stats.summary']({ days: 30 }),
  async () => count(),
  7,
);
const okP5 = report('P5', `dashboard stats, 30 days over ${attempts} attempts ÷ SELECT count(*) FROM attempts`, m.subject, m.baseline, 3, m.ratio);

// P5b: a 1 ms timer stands for a live run's stream; the longest gap between its ticks is the stall. The same watch over
// the same time without the dashboard says what the machine itself adds (printed for information).
async function longestStall(load: boolean): Promise<number> {
  const h = monitorEventLoopDelay({ resolution: 1 });
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const t = performance.now();
    longest = Math.max(longest, t - last);
    last = t;
  }, 1);
  await new Promise((r) => setTimeout(r, 20));
  h.enable();
  longest = 0;
  last = performance.now();
  for (let i = 0; i < 5; i++) {
    if (load)
      await Promise.all([
        service.handlers['stats.summary']({ days: 7 }),
        service.handlers['stats.summary']({ days: 30 }),
        service.handlers['stats.report']({ days: 7 }),
        service.handlers['stats.improvements']({ days: 7 }),
      ]);
    await new Promise((r) => setTimeout(r, 5));
  }
  clearInterval(timer);
  h.disable();
  return Math.max(longest, h.max / 1e6);
}
const idle = await longestStall(false);
const stall = await longestStall(true);
const okP5b = goalLine('P5b', 'longest event-loop stall in ms while the dashboard loads (7 and 30 days, improvement suggestions, weekly report)', stall, 50);
console.log(`  (the same watch with no dashboard call: ${idle.toFixed(1)} ms)`);

// Every host call the app makes on this store (the run screen's reads on a run with a full transcript, the runs list, the
// queue, settings, the dashboard's), each alone: its longest event-loop stall (what a live run's stream waits for) and its
// wall time (a call served off the main thread takes time without stalling). The slowest stall is printed as a goal line.
type Calls = typeof service.handlers;
const full = engine.store.db
  .prepare('SELECT a.run_id AS runId, a.step_index AS step, a.n FROM attempts a JOIN attempt_results r ON r.attempt_id = a.id LIMIT 1')
  .get() as { runId: string; step: number; n: number };
const hostCalls: Array<[string, (h: Calls) => Promise<unknown>]> = [
  ['app.info', (h) => h['app.info']({})],
  ['repos.recent', (h) => h['repos.recent']({})],
  ['runs.list', (h) => h['runs.list']({})],
  ['runs.get', (h) => h['runs.get']({ runId: full.runId })],
  ['runs.attempt', (h) => h['runs.attempt']({ runId: full.runId, step: full.step, n: full.n, outputHeadLines: 200 })],
  ['runs.gateLog', (h) => h['runs.gateLog']({ runId: full.runId, step: full.step, n: full.n, gate: 'test', from: 0, count: 200 })],
  ['runs.events', (h) => h['runs.events']({ runId: full.runId, afterId: 0 })],
  ['runs.interrupted', (h) => h['runs.interrupted']({})],
  ['runs.queue', (h) => h['runs.queue']({})],
  ['plans.get', (h) => h['plans.get']({ runId: full.runId })],
  ['review.get', (h) => h['review.get']({ runId: full.runId })],
  ['settings.get', (h) => h['settings.get']({})],
  ['team.overview', (h) => h['team.overview']({})],
  ['stats.summary 7', (h) => h['stats.summary']({ days: 7 })],
  ['stats.summary 30', (h) => h['stats.summary']({ days: 30 })],
  ['stats.report 7', (h) => h['stats.report']({ days: 7 })],
  ['stats.report 30', (h) => h['stats.report']({ days: 30 })],
  ['stats.improvements 7', (h) => h['stats.improvements']({ days: 7 })],
  ['stats.improvements 30', (h) => h['stats.improvements']({ days: 30 })],
  ['stats.whatIf 7', (h) => h['stats.whatIf']({ days: 7, preset: 'aggressive' })],
  ['stats.whatIf 30', (h) => h['stats.whatIf']({ days: 30, maxRetries: 1 })],
];
/** One call's longest stall and wall time, the median of 3 (a 2-core machine shared with other work stalls by itself now and then). */
async function measureCall(call: () => Promise<unknown>): Promise<{ stall: number; wall: number; error?: string }> {
  const stalls: number[] = [];
  const walls: number[] = [];
  for (let i = 0; i < 3; i++) {
    let last = performance.now();
    let longest = 0;
    const timer = setInterval(() => {
      const t = performance.now();
      longest = Math.max(longest, t - last);
      last = t;
    }, 1);
    await new Promise((r) => setTimeout(r, 5));
    longest = 0;
    last = performance.now();
    const start = performance.now();
    let error: string | undefined;
    try {
      await call();
    } catch (e) {
      error = (e as Error).message.split('\n')[0];
    }
    const wall = performance.now() - start;
    await new Promise((r) => setTimeout(r, 2));
    clearInterval(timer);
    if (error) return { stall: 0, wall, error };
    stalls.push(longest);
    walls.push(wall);
  }
  const mid = (xs: number[]) => [...xs].sort((x, y) => x - y)[1] as number;
  return { stall: mid(stalls), wall: mid(walls) };
}
let slowest = { name: '', stall: 0 };
console.log('host calls on this store (longest event-loop stall / wall time, median of 3):');
for (const [name, call] of hostCalls) {
  const r = await measureCall(() => call(service.handlers));
  if (r.error) console.log(`  ${name.padEnd(24)} (not measured: ${r.error})`);
  else console.log(`  ${name.padEnd(24)} ${r.stall.toFixed(1).padStart(7)} ms stall ${r.wall.toFixed(1).padStart(8)} ms wall`);
  if (r.stall > slowest.stall) slowest = { name, stall: r.stall };
}
const okCalls = goalLine('P5b', `slowest host call's event-loop stall in ms over ${attempts} attempts (${slowest.name})`, slowest.stall, 50);

if (process.env.BENCH_CHECK_ROWS) {
  const fromRows = loadStatsFromRows(engine.store.db, 30, new Date(), summary.dailyBudgetUsd);
  const again = await service.handlers['stats.summary']({ days: 30 });
  const { estimates: _held, ...counted } = again;
  if (JSON.stringify(fromRows) !== JSON.stringify(counted)) throw new Error('the summary and the raw rows disagree');
  console.log('the summary equals the numbers from every raw row');
}
await service.close();
engine.close();
await engine.releaseSandbox();
rmSync(dir, { recursive: true, force: true });
process.exitCode = okP5 && okP5b && okCalls ? 0 : 1;
