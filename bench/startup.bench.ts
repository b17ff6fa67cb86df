// Benchmark P12: start-up with a 5 GB store ÷ with an empty one. Start-up is what every host does first (CLI command,
// `serve`, the app): createEngine (open, migrations check, the after-crash check when due), the interrupted-runs sweep,
// then close. The big store holds runs of history plus archived attempts with 1 MB transcripts, 5 GB on disk in all
// (really written, not sparse; generated in SQL inside SQLite, history-store.ts); it is deleted afterwards. The history is
// the dashboard's store (1M attempts) when run-all built it for both benchmarks, else about 2,000 runs built here.
// Goal ≤ 1.5.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../electron/engine/engine';
import { compareAsync, report } from './measure';
import { buildDashboardStore, SHARED_HOME_ENV, summarize } from './history-store';

const GB = Number(process.env.BENCH_STORE_GB ?? 5);
const dir = mkdtempSync(join(tmpdir(), 'ratchet-bench-start-'));
const emptyHome = join(dir, 'empty');
const shared = process.env[SHARED_HOME_ENV];
const bigHome = shared ?? join(dir, 'big');

async function start(home: string): Promise<void> {
  const engine = createEngine({ home, env: {} });
  engine.detectInterrupted();
  engine.close();
  await engine.releaseSandbox();
}

try {
  const t0 = Date.now();
  await start(emptyHome);
  if (!shared) {
    const engine = createEngine({ home: bigHome, env: {} });
    engine.close();
    await engine.releaseSandbox();
  }
  // The history (the shared store's, or about 2,000 runs of the dashboard bench's shape: prompts, API calls, events,
  // some transcripts), then the bulk: archived attempts whose transcripts are 1 MB each — all generated in SQL inside
  // SQLite, without a journal.
  const db = new Database(join(bigHome, 'ratchet.db'));
  if (!shared) buildDashboardStore(db, { attempts: 13_000, days: 30, now: Date.now(), fullEvery: 20 }, summarize);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  const target = GB * 1e9;
  const rows = Math.ceil((target - statSync(join(bigHome, 'ratchet.db')).size) / 1_000_000) + 5;
  db.exec(`
    CREATE TEMP TABLE bulk (n INTEGER PRIMARY KEY);
    WITH RECURSIVE nn(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM nn WHERE n < ${rows}) INSERT INTO bulk (n) SELECT n FROM nn;
    INSERT INTO attempts (run_id, step_index, n, outcome, agent_kind, model, started_at, finished_at)
      SELECT 'run-0', 1, 100 + n, 'failed', 'anthropic', 'claude-sonnet-5-5', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM bulk;
    INSERT INTO attempt_results (attempt_id, transcript_json)
      SELECT a.id, printf('%.*c', 1000000, char(97 + b.n % 26)) FROM bulk b JOIN attempts a ON a.run_id = 'run-0' AND a.step_index = 1 AND a.n = 100 + b.n;`);
  db.pragma('journal_mode = WAL');
  db.close();
  const size = statSync(join(bigHome, 'ratchet.db')).size;
  console.log(
    `built a ${(size / 1e9).toFixed(2)} GB store in ${((Date.now() - t0) / 1000).toFixed(1)} s${shared ? ' (from the shared store run-all built)' : ''}`,
  );
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
