// Benchmark P8: `runs.list` through the service (newest first, a page of 10: all a 10-run store holds) with 10,000 runs in
// the store ÷ with 10 runs. Goal ≤ 2: a page costs what it holds, not what history holds. The app's default page
// (RUNS_PAGE) on the big store is printed for information.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUNS_PAGE } from '../shared/contract';
import { createEngine } from '../electron/engine/engine';
import { createService } from '../electron/engine/service/service';
import { compareAsync, report } from './measure';
import { buildDashboardStore } from './history-store';
import { CLASS_TRIGGERS, rebuildClassSummary, rebuildSummary, SUMMARY_TRIGGERS } from '../electron/engine/store/migrations/0016-stats-tries';
import Database from 'better-sqlite3';

const BIG = Number(process.env.BENCH_RUNS ?? 10_000);
const dirs: string[] = [];
process.on('exit', () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A store of about `runs` runs (the dashboard's history shape, generated in SQL inside SQLite: history-store.ts) and its service. */
function serviceWith(runs: number) {
  const dir = mkdtempSync(join(tmpdir(), 'ratchet-bench-list-'));
  dirs.push(dir);
  const home = join(dir, 'home');
  createEngine({ home, env: {} }).close();
  const db = new Database(join(home, 'ratchet.db'));
  // About 6.5 attempts a run; every 20th attempt with a full transcript, diff and gate log.
  buildDashboardStore(db, { attempts: Math.max(1, Math.round(runs * 6.45)), days: 30, now: Date.now(), fullEvery: 20 }, (d) => {
    rebuildSummary(d);
    d.exec(SUMMARY_TRIGGERS);
    rebuildClassSummary(d);
    d.exec(CLASS_TRIGGERS);
  });
  db.close();
  const engine = createEngine({ home, env: {} });
  const service = createService(engine, { host: 'headless', version: 'bench', env: {}, watchMs: 3_600_000 });
  return { engine, service };
}

const started = Date.now();
const small = serviceWith(10);
const big = serviceWith(BIG);
const count = (x: typeof small) => (x.engine.store.db.prepare('SELECT count(*) AS n FROM runs').get() as { n: number }).n;
console.log(`built a ${count(big)}-run store (and a ${count(small)}-run one) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
const list = (s: typeof small, limit?: number) => s.service.handlers['runs.list'](limit ? { limit } : {});
const [a, b, c] = [await list(small, 10), await list(big, 10), await list(big)];
if (a.length < 10 || b.length !== 10 || c.length !== Math.min(BIG, RUNS_PAGE)) throw new Error(`unexpected list lengths ${a.length}, ${b.length}, ${c.length}`);
const m = await compareAsync(
  20,
  () => list(big, 10),
  () => list(small, 10),
);
const ok = report('P8', `runs.list (a page of 10) with ${BIG} runs ÷ with 10 runs`, m.subject, m.baseline, 2, m.ratio);
const page = await compareAsync(
  5,
  () => list(big),
  () => list(small, 10),
  5,
);
console.log(`for information, the app's default page (${RUNS_PAGE} runs) with ${BIG} runs: ${(page.subject.perOpUs / 1000).toFixed(2)} ms`);
for (const s of [small, big]) {
  await s.service.close();
  s.engine.close();
  await s.engine.releaseSandbox();
}
for (const d of dirs) rmSync(d, { recursive: true, force: true });
process.exitCode = ok ? 0 : 1;
