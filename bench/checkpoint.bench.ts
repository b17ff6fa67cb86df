// Benchmark: a checkpoint write (step completed + its event, one transaction) ÷ a raw single-row better-sqlite3 transaction. Goal ≤ 2.
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../electron/engine/store/open-store';
import { Store } from '../electron/engine/store/store';
import { compare, report } from './measure';

const N = Number(process.env.BENCH_N ?? 2_000);
const ROUNDS = 9;
const dir = mkdtempSync(join(tmpdir(), 'ratchet-bench-'));

// Baseline: the same database settings, one row in one transaction (BEGIN IMMEDIATE, as the store's).
const raw = new Database(join(dir, 'raw.db'));
raw.pragma('journal_mode = WAL');
raw.pragma('synchronous = NORMAL');
raw.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, run_id TEXT, step INTEGER, sha TEXT, at TEXT)');
const insert = raw.prepare('INSERT INTO t (run_id, step, sha, at) VALUES (?, ?, ?, ?)');
const rawTx = raw.transaction((i: number) => insert.run('run', i, 'a'.repeat(40), new Date().toISOString())).immediate;

const { db } = openDatabase(join(dir, 'home'));
const store = new Store(db);
const steps = Array.from({ length: N * (ROUNDS + 2) }, (_, i) => ({ title: `step ${i + 1}`, prompt: '' }));
store.createRun({
  runId: 'bench', repoPath: dir, repoName: 'bench', title: 'bench', description: '',
  workflow: { gates: {}, steps } as never, baseBranch: 'main', baseCommit: 'b'.repeat(40), branch: 'ratchet/bench', worktree: dir,
});

const m = compare(
  N,
  (i) => store.completeStep('bench', i + 1, 'c'.repeat(40)),
  (i) => rawTx(i),
  ROUNDS,
);
const ok = report('checkpoint write ÷ raw single-row transaction', m.subject, m.baseline, 2, m.ratio);
raw.close();
db.close();
process.exitCode = ok ? 0 : 1;
