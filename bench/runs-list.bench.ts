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
import { fillRuns } from './history-store';

const BIG = Number(process.env.BENCH_RUNS ?? 10_000);
const dirs: string[] = [];
process.on('exit', () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function serviceWith(runs: number) {
  const dir = mkdtempSync(join(tmpdir(), 'ratchet-bench-list-'));
  dirs.push(dir);
  let t = Date.now();
  const engine = createEngine({ home: join(dir, 'home'), env: {}, now: () => new Date(t) } as never);
  fillRuns(engine.store, { runs, transcriptBytes: Number(process.env.BENCH_TRANSCRIPT ?? 30_000), setClock: (x) => (t = x), end: Date.now() });
  t = Date.now();
  const service = createService(engine, { host: 'headless', version: 'bench', env: {}, watchMs: 3_600_000 });
  return { engine, service };
}

const started = Date.now();
const small = serviceWith(10);
const big = serviceWith(BIG);
console.log(`built a ${BIG}-run store in ${((Date.now() - started) / 1000).toFixed(1)} s`);
const list = (s: typeof small, limit?: number) => s.service.handlers['runs.list'](limit ? { limit } : {});
const [a, b, c] = [await list(small, 10), await list(big, 10), await list(big)];
if (a.length !== 10 || b.length !== 10 || c.length !== Math.min(BIG, RUNS_PAGE))
  throw new Error(`unexpected list lengths ${a.length}, ${b.length}, ${c.length}`);
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
