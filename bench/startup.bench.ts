// Benchmark P12: start-up with a 5 GB store ÷ with an empty one. Start-up is what every host does first (CLI command,
// `serve`, the app): createEngine (open, migrations check, the after-crash check when due), the interrupted-runs sweep,
// then close. The big store holds 2,000 realistic runs plus archived attempts with 1 MB transcripts, 5 GB on disk in all
// (really written, not sparse); it is deleted afterwards. Goal ≤ 1.5.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../electron/engine/engine';
import { compareAsync, report } from './measure';
import { fillRuns } from './history-store';

const GB = Number(process.env.BENCH_STORE_GB ?? 5);
const dir = mkdtempSync(join(tmpdir(), 'ratchet-bench-start-'));
const emptyHome = join(dir, 'empty');
const bigHome = join(dir, 'big');

async function start(home: string): Promise<void> {
  const engine = createEngine({ home, env: {} });
  engine.detectInterrupted();
  engine.close();
  await engine.releaseSandbox();
}

try {
  const t0 = Date.now();
  await start(emptyHome);
  {
    let t = Date.now();
    const engine = createEngine({ home: bigHome, env: {}, now: () => new Date(t) });
    fillRuns(engine.store, { runs: 2_000, setClock: (x) => (t = x), end: Date.now() });
    engine.close();
    await engine.releaseSandbox();
  }
  // The bulk: archived attempts whose transcripts are 1 MB each, written without a journal (then WAL again, as the store runs).
  const db = new Database(join(bigHome, 'ratchet.db'));
  db.pragma('journal_mode = DELETE');
  db.pragma('synchronous = OFF');
  const target = GB * 1e9;
  const runId = (db.prepare('SELECT id FROM runs LIMIT 1').get() as { id: string }).id;
  const attempt = db.prepare(
    "INSERT INTO attempts (run_id, step_index, n, outcome, agent_kind, model, started_at, finished_at) VALUES (?, 1, ?, 'failed', 'anthropic', 'claude-sonnet-5-5', ?, ?)",
  );
  const text = db.prepare("INSERT INTO attempt_results (attempt_id, transcript_json) VALUES (?, printf('%.*c', 1000000, ?))");
  const chunk = db.transaction((from: number) => {
    for (let n = from; n < from + 500; n++) {
      const at = new Date().toISOString();
      const id = Number(attempt.run(runId, n, at, at).lastInsertRowid);
      text.run(id, String.fromCharCode(97 + (n % 26)));
    }
  });
  for (let n = 100; statSync(join(bigHome, 'ratchet.db')).size < target; n += 500) chunk(n);
  db.pragma('journal_mode = WAL');
  db.close();
  const size = statSync(join(bigHome, 'ratchet.db')).size;
  console.log(`built a ${(size / 1e9).toFixed(2)} GB store in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  if (size < target) throw new Error(`the store is ${size} bytes, short of ${target}`);

  const m = await compareAsync(
    3,
    () => start(bigHome),
    () => start(emptyHome),
    7,
  );
  const ok = report('P12', `start-up with a ${(size / 1e9).toFixed(1)} GB store ÷ with an empty one`, m.subject, m.baseline, 1.5, m.ratio);
  process.exitCode = ok ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
