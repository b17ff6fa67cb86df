// Benchmark P3: the engine's checkpoint at the end of a step — Store.checkpointStep, the call the step runner makes: the
// attempt's outcome, 30 KB transcript and diff, the step's commit, their events and the stats summary, one transaction —
// ÷ a raw better-sqlite3 transaction (same settings: page size, WAL, synchronous NORMAL, BEGIN IMMEDIATE) inserting the same bytes
// (the transcript serialised in both) as one row. Goal ≤ 1.5.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, STORE_PAGE_SIZE } from '../electron/engine/store/open-store';
import { Store, type AttemptFinish } from '../electron/engine/store/store';
import { report } from './measure';
import { realisticDiff, realisticPrompt, realisticTranscript } from './realistic';

const N = Number(process.env.BENCH_N ?? 20);
// Short rounds, many of them, alternating: load from other processes on the machine hits both sides alike.
const ROUNDS = 75;
const dir = mkdtempSync(join(tmpdir(), 'ratchet-bench-'));
const total = N * (ROUNDS + 2);

// What each step's checkpoint writes: a ~30 KB transcript, a ~120-line diff (a few variants, so no write is a repeat).
const VARIANTS = 16;
const transcripts = Array.from({ length: VARIANTS }, (_, k) => realisticTranscript(k));
const diffs = Array.from({ length: VARIANTS }, (_, k) => realisticDiff(k));
const sha = (i: number) => i.toString(16).padStart(40, 'c');
const finish = (i: number): AttemptFinish => ({
  outcome: 'passed',
  errorClass: null,
  errorMessage: null,
  summary: `Step ${i + 1}: implemented part ${i + 1}.`,
  treeRef: `refs/ratchet/bench/${i + 1}/1`,
  treeSha: sha(i),
  diff: diffs[i % VARIANTS] as string,
  failures: [],
  transcript: transcripts[i % VARIANTS] as unknown[],
  sessionId: `session-${i}`,
  fingerprint: null,
});

// Baseline: the same bytes (the serialised transcript, the diff, the small fields) as one row in one transaction.
const raw = new Database(join(dir, 'raw.db'));
raw.pragma(`page_size = ${STORE_PAGE_SIZE}`);
raw.pragma('journal_mode = WAL');
raw.pragma('synchronous = NORMAL');
raw.exec(
  'CREATE TABLE t (id INTEGER PRIMARY KEY, run_id TEXT, step INTEGER, outcome TEXT, summary TEXT, tree_ref TEXT, tree_sha TEXT, session TEXT, sha TEXT, at TEXT, transcript TEXT, diff TEXT)',
);
const insert = raw.prepare(
  'INSERT INTO t (run_id, step, outcome, summary, tree_ref, tree_sha, session, sha, at, transcript, diff) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
);
const rawTx = raw.transaction((i: number) => {
  const f = finish(i);
  insert.run('bench', i + 1, f.outcome, f.summary, f.treeRef, f.treeSha, f.sessionId, sha(i), new Date().toISOString(), JSON.stringify(f.transcript), f.diff);
}).immediate;

const { db } = openDatabase(join(dir, 'home'));
const store = new Store(db);
const steps = Array.from({ length: total }, (_, i) => ({ title: `step ${i + 1}`, prompt: '' }));
store.createRun({
  runId: 'bench',
  repoPath: dir,
  repoName: 'bench',
  title: 'bench',
  description: '',
  workflow: { gates: {}, steps } as never,
  baseBranch: 'main',
  baseCommit: 'b'.repeat(40),
  branch: 'ratchet/bench',
  worktree: dir,
});
// As in a run, each step's attempt is started (its row and prompt written) just before its checkpoint; only the
// checkpoint is timed. Rounds of N alternate with rounds of N raw transactions.
let next = 0;
const checkpoint = (): number => {
  const i = next++;
  const id = store.startAttempt({
    runId: 'bench',
    stepIndex: i + 1,
    n: 1,
    agentKind: 'anthropic',
    model: 'claude-sonnet-5-5',
    prompt: realisticPrompt(i + 1),
    preCommit: sha(i),
  });
  const t = process.hrtime.bigint();
  store.checkpointStep('bench', id, i + 1, finish(i), sha(i));
  return Number(process.hrtime.bigint() - t) / 1000;
};
let rawNext = 0;
const rawOnce = (): number => {
  const t = process.hrtime.bigint();
  rawTx(rawNext++);
  return Number(process.hrtime.bigint() - t) / 1000;
};
const round = (fn: () => number) => {
  let us = 0;
  for (let k = 0; k < N; k++) us += fn();
  return us / N;
};
round(rawOnce);
round(checkpoint);
const pairs = Array.from({ length: ROUNDS }, () => {
  const b = round(rawOnce);
  return { b, s: round(checkpoint) };
});
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] as number;
const m = {
  subject: { perOpUs: median(pairs.map((p) => p.s)) },
  baseline: { perOpUs: median(pairs.map((p) => p.b)) },
  ratio: median(pairs.map((p) => p.s / p.b)),
};
const bytes = JSON.stringify(transcripts[0]).length + (diffs[0] as string).length;
const ok = report(
  'P3',
  `checkpoint transaction (attempt + ${Math.round(bytes / 1000)} KB transcript and diff + step) ÷ raw transaction of the same bytes`,
  m.subject,
  m.baseline,
  1.5,
  m.ratio,
);
raw.close();
db.close();
rmSync(dir, { recursive: true, force: true });
process.exitCode = ok ? 0 : 1;
