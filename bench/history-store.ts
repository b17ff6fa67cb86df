// Builds benchmark stores quickly: runs written through the Store's own methods (rows, texts, events, summary triggers),
// all in one transaction, with realistic prompts, transcripts, diffs and gate logs.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { createEngine } from '../electron/engine/engine';
import { WorkflowFile } from '../electron/engine/workflow/schema';
import { CLASS_TRIGGERS, rebuildClassSummary, rebuildSummary, SUMMARY_TRIGGERS } from '../electron/engine/store/migrations/0016-stats-tries';
import { newId, type Store } from '../electron/engine/store/store';
import { realisticDiff, realisticGateLog, realisticPrompt, realisticTranscript } from './realistic';

/** Writes `runs` runs of `steps` steps (one failed attempt then a passing one every 4th step) spread over `days` days. */
export function fillRuns(
  store: Store,
  opts: { runs: number; steps?: number; days?: number; transcriptBytes?: number; setClock: (t: number) => void; end: number },
): void {
  const steps = opts.steps ?? 2;
  const days = opts.days ?? 30;
  const transcripts = Array.from({ length: 8 }, (_, k) => realisticTranscript(k, opts.transcriptBytes ?? 30_000));
  const diffs = Array.from({ length: 8 }, (_, k) => realisticDiff(k));
  const logs = Array.from({ length: 8 }, (_, k) => realisticGateLog(k));
  const prompts = Array.from({ length: 8 }, (_, k) => realisticPrompt(k));
  store.tx(() => {
    for (let r = 0; r < opts.runs; r++) {
      opts.setClock(opts.end - days * 86_400_000 + Math.floor((r * days * 86_400_000) / opts.runs));
      const runId = newId() + r.toString(36);
      store.createRun({
        runId,
        repoPath: `/repo/${r % 7}`,
        repoName: `repo${r % 7}`,
        title: `Task ${r}`,
        description: 'A task.',
        workflow: WorkflowFile.parse({
          gates: { test: 'npm test' },
          steps: Array.from({ length: steps }, (_, i) => ({ title: `step ${i + 1}`, gates: ['test'] })),
        }),
        baseBranch: 'main',
        baseCommit: '0'.repeat(40),
        branch: `ratchet/r-${runId}`,
        worktree: `/tmp/wt-${runId}`,
      });
      store.setRunStatus(runId, 'running', null);
      for (let s = 1; s <= steps; s++) {
        const tries = (r + s) % 4 === 0 ? 2 : 1;
        for (let n = 1; n <= tries; n++) {
          const k = (r + s + n) % 8;
          const id = store.startAttempt({
            runId,
            stepIndex: s,
            n,
            agentKind: 'anthropic',
            model: 'claude-sonnet-5-5',
            prompt: prompts[k] as string,
            preCommit: 'a'.repeat(40),
          });
          store.recordApiCall(runId, id, {
            model: 'claude-sonnet-5-5',
            inputTokens: 9000,
            outputTokens: 800,
            cacheReadTokens: 6000,
            cacheWriteTokens: 900,
            costUsd: 0.041,
          });
          const passed = n === tries;
          store.recordGate(runId, id, {
            gate: 'test',
            command: 'npm test',
            passed,
            exitCode: passed ? 0 : 1,
            signal: null,
            timedOut: false,
            durationMs: 1200,
            output: logs[k] as string,
            outputBytes: (logs[k] as string).length,
            failures: [],
          });
          const finish = {
            errorClass: null,
            errorMessage: null,
            summary: `step ${s}`,
            treeRef: null,
            treeSha: null,
            diff: diffs[k] as string,
            failures: [],
            transcript: transcripts[k] as unknown[],
            sessionId: null,
          };
          if (passed) store.checkpointStep(runId, id, s, { ...finish, outcome: 'passed' }, 'c'.repeat(40));
          else {
            store.finishAttempt(runId, id, { ...finish, outcome: 'failed', errorClass: 'test_failure', errorMessage: 'not ok 61' });
            store.recordDecision(runId, id, s, n, { action: 'retry', reason: 'test failure', delayS: 0, overrides: {} });
          }
        }
      }
      store.setRunStatus(runId, 'succeeded', null, { finished: true });
    }
  });
}

/**
 * The dashboard's history (benchmarks P5 and P5b): runs of 4 steps whose tries vary (one run in 9 fails its last step
 * after 3 tries), every attempt with its prompt, API call and event, one attempt in `fullEvery` with a realistic
 * transcript, diff and gate log. Written in bulk SQL inside SQLite (generated rows, `INSERT … SELECT`, one transaction,
 * no journal) into a store the engine created (its schema); the per-day summary tables are then built the way migration
 * 16 builds them for an existing store, and their triggers put back (stats-load.test.ts checks that the triggers and the
 * rebuild give the same summary). Returns the number of attempts written.
 */
export function buildDashboardStore(
  db: Database.Database,
  opts: { attempts: number; days: number; now: number; fullEvery: number },
  summary: (db: Database.Database) => void,
): number {
  const { days, now, fullEvery } = opts;
  // How many runs make `attempts` attempts (the SQL below uses the same rule; the run that reaches the count is the last).
  const triesOf = (r: number, s: number) => (r % 9 === 0 && s === 4 ? 3 : 1 + ((r * 7 + s * 3) % 10 < 6 ? 0 : (r + s) % 4));
  let runs = 0;
  for (let n = 0; n < opts.attempts; runs++) for (let s = 1; s <= 4; s++) n += triesOf(runs, s);
  const span = days * 86_400_000;
  // A time `ms` after the run's creation (spread over the period), as ISO text like toISOString's; `r` is the run's number.
  const iso = (ms: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', (${now - span + 60_000} + ((r * 97331) % ${span - 120_000}) + ${ms}) / 1000.0, 'unixepoch')`;
  const triggers = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'stats_%'").all() as Array<{ name: string }>).map(
    (t) => t.name,
  );
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -400000');
  db.pragma('temp_store = MEMORY');
  db.exec(`
    CREATE TEMP TABLE bench_texts (k INTEGER PRIMARY KEY, prompt TEXT, transcript TEXT, diff TEXT, log TEXT);
    CREATE TEMP TABLE bench_attempts (id INTEGER PRIMARY KEY, r INTEGER, s INTEGER, n INTEGER, tries INTEGER, fails INTEGER);`);
  const text = db.prepare('INSERT INTO bench_texts (k, prompt, transcript, diff, log) VALUES (?, ?, ?, ?, ?)');
  for (let k = 0; k < 8; k++) text.run(k, realisticPrompt(k), JSON.stringify(realisticTranscript(k)), realisticDiff(k), realisticGateLog(k));
  // Per attempt row `a` of bench_attempts (its id is the attempt's id): passed, its text's number, its class.
  const passed = '(fails = 0 AND n = tries)';
  const k = '((r + s + n) % 8)';
  const at = (ms: string) => iso(`s * 60000 + n * 1000 + ${ms}`);
  const rows = `WITH RECURSIVE rr(r) AS (SELECT 0 UNION ALL SELECT r + 1 FROM rr WHERE r < ${runs - 1})`;
  // The secondary indexes of the tables written are dropped while they fill and made again after (one sorted build each,
  // not a million inserts at random places); the same SQL, so the store ends with the engine's schema.
  const indexes = db
    .prepare(
      "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('runs', 'tasks', 'step_runs', 'attempts', 'api_calls', 'events', 'gate_results')",
    )
    .all() as Array<{ name: string; sql: string }>;
  db.transaction(() => {
    for (const t of triggers) db.exec(`DROP TRIGGER ${t}`);
    for (const i of indexes) db.exec(`DROP INDEX ${i.name}`);
    db.exec(`
      ${rows}, ss(s) AS (VALUES (1), (2), (3), (4)), nn(n) AS (VALUES (1), (2), (3), (4)),
        st AS (SELECT r, s, (r % 9 = 0 AND s = 4) AS fails,
                 CASE WHEN r % 9 = 0 AND s = 4 THEN 3 ELSE 1 + (CASE WHEN (r * 7 + s * 3) % 10 < 6 THEN 0 ELSE (r + s) % 4 END) END AS tries
               FROM rr, ss)
      INSERT INTO bench_attempts (r, s, n, tries, fails) SELECT r, s, n, tries, fails FROM st, nn WHERE n <= tries ORDER BY r, s, n;

      INSERT INTO repos (id, path, name, created_at) VALUES ('repo', '/repo', 'repo', strftime('%Y-%m-%dT%H:%M:%fZ', ${now - span} / 1000.0, 'unixepoch'));
      ${rows} INSERT INTO tasks (id, repo_id, title, description, workflow_json, created_at)
        SELECT 'task-' || r, 'repo', 'Task ' || (r % 50), '', '{"steps":[]}', ${iso('0')} FROM rr;
      ${rows} INSERT INTO runs (id, task_id, repo_id, status, reason, base_branch, base_commit, branch, worktree, plan_revision, created_at, updated_at, finished_at)
        SELECT 'run-' || r, 'task-' || r, 'repo', CASE WHEN r % 9 = 0 THEN 'failed' ELSE 'succeeded' END, NULL, 'main', '${'0'.repeat(40)}',
          'ratchet/run-' || r, '/tmp/run-' || r, 1, ${iso('0')}, ${iso('3600000')}, ${iso('3600000')} FROM rr;
      ${rows} INSERT INTO events (run_id, at, type, payload_json) SELECT 'run-' || r, ${iso('0')}, 'run.created', '{"steps":4}' FROM rr;
      INSERT INTO step_runs (run_id, step_index, title, status, commit_sha, started_at, finished_at)
        SELECT 'run-' || r, s, 'step ' || s, CASE WHEN fails THEN 'failed' ELSE 'succeeded' END, CASE WHEN fails THEN NULL ELSE '${'c'.repeat(40)}' END,
          ${iso('s * 60000')}, ${iso('s * 60000 + 59000')}
        FROM bench_attempts WHERE n = 1;
      INSERT INTO attempts (id, run_id, step_index, n, outcome, error_class, error_message, summary, agent_kind, model, input_tokens, output_tokens,
          cache_read_tokens, cache_write_tokens, cost_usd, cost_known, decision_json, started_at, finished_at)
        SELECT id, 'run-' || r, s, n, CASE WHEN ${passed} THEN (CASE WHEN (r + s) % 23 = 0 THEN 'flaky' ELSE 'passed' END) ELSE 'failed' END,
          CASE WHEN ${passed} THEN NULL ELSE (CASE (r + n) % 4 WHEN 0 THEN 'test_failure' WHEN 1 THEN 'compilation_error' WHEN 2 THEN 'timeout' ELSE 'lint_error' END) END,
          CASE WHEN ${passed} THEN NULL ELSE 'not ok 61 - keeps weights consistent' END, 'step ' || s || ' attempt ' || n, 'anthropic', 'claude-sonnet-5-5',
          9000, 800, 6000, 900, 0.041, 1,
          CASE WHEN ${passed} THEN NULL ELSE '{"action":"retry","reason":"the gate failed","delayS":0,"overrides":{}}' END, ${at('0')}, ${at('900')}
        FROM bench_attempts ORDER BY id;
      INSERT INTO attempt_prompts (attempt_id, prompt)
        SELECT id, CASE WHEN id % ${fullEvery} = 0 THEN (SELECT prompt FROM bench_texts WHERE k = ${k})
          ELSE 'Implement part ' || s || ' of task ' || r || ': ' || replace(printf('%8s', ''), ' ', 'keep the save format consistent. ') END
        FROM bench_attempts ORDER BY id;
      INSERT INTO attempt_results (attempt_id, transcript_json, diff)
        SELECT id, t.transcript, t.diff FROM bench_attempts JOIN bench_texts t ON t.k = ${k} WHERE id % ${fullEvery} = 0 ORDER BY id;
      INSERT INTO gate_results (attempt_id, gate, command, passed, exit_code, signal, timed_out, duration_ms, output_bytes, failures_json)
        SELECT id, 'test', 'npm test', ${passed}, CASE WHEN ${passed} THEN 0 ELSE 1 END, NULL, 0, 1200, length(t.log), '[]'
        FROM bench_attempts JOIN bench_texts t ON t.k = ${k} WHERE id % ${fullEvery} = 0 ORDER BY id;
      INSERT INTO gate_outputs (gate_result_id, output)
        SELECT g.id, t.log FROM gate_results g JOIN bench_attempts a ON a.id = g.attempt_id JOIN bench_texts t ON t.k = ((a.r + a.s + a.n) % 8) ORDER BY g.id;
      INSERT INTO api_calls (attempt_id, model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_usd, at)
        SELECT id, 'claude-sonnet-5-5', 9000, 800, 6000, 900, 0.041, ${at('500')} FROM bench_attempts ORDER BY id;
      INSERT INTO events (run_id, at, type, payload_json)
        SELECT 'run-' || r, ${at('900')}, 'attempt.finished', '{"attemptId":' || id || '}' FROM bench_attempts ORDER BY id;
      DROP TABLE bench_attempts; DROP TABLE bench_texts;`);
    for (const i of indexes) db.exec(i.sql);
    summary(db);
  })();
  db.pragma('journal_mode = WAL');
  return (db.prepare('SELECT count(*) AS n FROM attempts').get() as { n: number }).n;
}

/** The per-day summary tables built the way migration 16 builds them for an existing store, and their triggers put back. */
export function summarize(db: Database.Database): void {
  rebuildSummary(db);
  db.exec(SUMMARY_TRIGGERS);
  rebuildClassSummary(db);
  db.exec(CLASS_TRIGGERS);
}

/** The dashboard's store (P5, P5b): 1M attempts over 30 days, one in 200 with a full transcript, diff and gate log. */
export const DASHBOARD_STORE = {
  attempts: Number(process.env.BENCH_ATTEMPTS ?? 1_000_000),
  days: 30,
  fullEvery: Number(process.env.BENCH_FULL_EVERY ?? 200),
};

/**
 * A Ratchet home whose store `run-all.ts` built once with the dashboard's history (DASHBOARD_STORE) for the benchmarks
 * that can share it: the dashboard measures on it as it is; start-up (P12) then fills it with archived attempts to its
 * 5 GB. A benchmark run alone builds its own.
 */
export const SHARED_HOME_ENV = 'BENCH_SHARED_HOME';

/** A new Ratchet home at `home` (the engine's schema, made by the engine) whose store holds the dashboard's history. */
export async function buildDashboardHome(home: string, opts: { attempts: number; days: number; fullEvery: number; now?: number }): Promise<number> {
  const engine = createEngine({ home, env: {} });
  engine.close();
  await engine.releaseSandbox();
  const db = new Database(join(home, 'ratchet.db'));
  try {
    return buildDashboardStore(db, { ...opts, now: opts.now ?? Date.now() }, summarize);
  } finally {
    db.close();
  }
}
