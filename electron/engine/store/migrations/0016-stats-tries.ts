// Migration 16: what the summary counts as a try and a retry. A test-first step's `red` attempt (its new test failing, as
// it should) is a phase of the step, not a try; an attempt cut by a stop is not one either. A retry is an attempt after
// one of its step's tries (never a `red` one), and only a retry's API calls are retry cost. Migrations 9 and 13 said
// "attempt n > 1": a test-first step whose implementation passed first time showed 1 retry, its cost as retry cost.
// The summary's triggers are put back whole (9's and 13's, as they are now) and every summary row recomputed.
import type Database from 'better-sqlite3';
import type { Migration } from '../migration';

/** An attempt is one of its step's tries unless it is running, was cut by a stop, or is a test-first step's red test (stats.ts's isTry). */
const counted = (r: string) => `(${r}.outcome NOT IN ('interrupted', 'running', 'red'))`;
/** The attempt comes after one of its step's tries, and is no red attempt: a retry (stats.ts's isRetry). */
const retry = (r: string) =>
  `(${r}.outcome <> 'red' AND EXISTS (SELECT 1 FROM attempts o WHERE o.run_id = ${r}.run_id AND o.step_index = ${r}.step_index AND o.n < ${r}.n AND o.id <> ${r}.id AND ${counted('o')}))`;

// ---- migration 9's per-day summary -----------------------------------------------------------------------------------

/** The step's retry bucket (as the dashboard's breakdown counts it), for the row alias `r`. */
const bucket = (r: string) =>
  `CASE WHEN ${r}.status = 'succeeded' AND ${r}.tries > 0 THEN (CASE ${r}.tries WHEN 1 THEN 'r0' WHEN 2 THEN 'r1' WHEN 3 THEN 'r2' ELSE 'r3plus' END)
        WHEN ${r}.status = 'failed' THEN 'failedAfterMax' END`;
const runDay = (r: string) => `(SELECT day FROM runs WHERE id = ${r}.run_id)`;

const addStep = (r: string, sign: '+' | '-') => `
  INSERT INTO stats_daily (day, kind, class, outcome, n, retries, retry_decisions, unknown_cost, tries)
    SELECT ${runDay(r)}, 'step', '', b, ${sign}1, 0, 0, 0, ${sign}${r}.tries
    FROM (SELECT ${bucket(r)} AS b) WHERE b IS NOT NULL AND ${runDay(r)} IS NOT NULL
    ON CONFLICT (day, kind, class, outcome) DO UPDATE SET n = n + excluded.n, tries = tries + excluded.tries;`;

const addAttempt = (r: string, sign: '+' | '-') => `
  INSERT INTO stats_daily (day, kind, class, outcome, n, retries, retry_decisions, unknown_cost, tries)
    SELECT d, 'attempt', COALESCE(${r}.error_class, ''), ${r}.outcome, ${sign}1, ${sign}${retry(r)},
      ${sign}(${r}.error_class IS NOT NULL AND json_extract(${r}.decision_json, '$.action') IS 'retry'), ${sign}(${r}.cost_known = 0), 0
    FROM (SELECT ${runDay(r)} AS d) WHERE d IS NOT NULL
    ON CONFLICT (day, kind, class, outcome) DO UPDATE SET n = n + excluded.n, retries = retries + excluded.retries,
      retry_decisions = retry_decisions + excluded.retry_decisions, unknown_cost = unknown_cost + excluded.unknown_cost;`;

const addRun = (r: string, sign: '+' | '-') => `
  INSERT INTO stats_runs (day, status, runs) SELECT COALESCE(${r}.day, date(${r}.created_at, 'localtime')), ${r}.status, ${sign}1 WHERE true
    ON CONFLICT (day, status) DO UPDATE SET runs = runs + excluded.runs;`;

/** The API calls of attempt `r`, per day, added to (or taken from) the cost summary as retry cost or not, as `r` is a retry or not. */
const addCalls = (r: string, sign: '+' | '-') => `
  INSERT INTO stats_costs (day, retry, calls, cost_usd, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens)
    SELECT date(c.at, 'localtime'), ${retry(r)}, ${sign}count(*), ${sign}COALESCE(sum(c.cost_usd), 0), ${sign}sum(c.input_tokens), ${sign}sum(c.output_tokens),
      ${sign}sum(c.cache_read_tokens), ${sign}sum(c.cache_write_tokens)
    FROM api_calls c WHERE c.attempt_id = ${r}.id GROUP BY date(c.at, 'localtime')
    ON CONFLICT (day, retry) DO UPDATE SET calls = calls + excluded.calls, cost_usd = cost_usd + excluded.cost_usd,
      input_tokens = input_tokens + excluded.input_tokens, output_tokens = output_tokens + excluded.output_tokens,
      cache_read_tokens = cache_read_tokens + excluded.cache_read_tokens, cache_write_tokens = cache_write_tokens + excluded.cache_write_tokens;`;

/** A step's contribution changed: its bucket, or its tries while in a success bucket (a pending or running step has none). */
const stepMoved = `((${bucket('OLD')}) IS NOT (${bucket('NEW')}) OR (OLD.tries IS NOT NEW.tries AND (${bucket('NEW')}) IS NOT NULL))`;

/**
 * The summary's triggers, in the transaction of every write to runs, steps, attempts and API calls. An attempt's
 * retry flag reads its step's earlier attempts, which are final by the time a later one exists (an attempt starts after
 * the one before it ended, or was closed as interrupted); an attempt's own outcome turning `red` (or back) moves its
 * calls between first-try and retry cost.
 */
export const SUMMARY_TRIGGERS = `
  CREATE TRIGGER stats_run_insert AFTER INSERT ON runs BEGIN
    UPDATE runs SET day = date(NEW.created_at, 'localtime') WHERE id = NEW.id AND NEW.day IS NULL;
    ${addRun('NEW', '+')}
  END;
  CREATE TRIGGER stats_run_status AFTER UPDATE OF status ON runs WHEN OLD.status IS NOT NEW.status BEGIN
    ${addRun('OLD', '-')}
    ${addRun('NEW', '+')}
  END;
  CREATE TRIGGER stats_step_insert AFTER INSERT ON step_runs BEGIN ${addStep('NEW', '+')} END;
  CREATE TRIGGER stats_step_leave AFTER UPDATE OF status, tries ON step_runs WHEN ${stepMoved} AND (${bucket('OLD')}) IS NOT NULL BEGIN
    ${addStep('OLD', '-')}
  END;
  CREATE TRIGGER stats_step_enter AFTER UPDATE OF status, tries ON step_runs WHEN ${stepMoved} AND (${bucket('NEW')}) IS NOT NULL BEGIN
    ${addStep('NEW', '+')}
  END;
  CREATE TRIGGER stats_step_delete AFTER DELETE ON step_runs BEGIN ${addStep('OLD', '-')} END;
  CREATE TRIGGER stats_attempt_added AFTER INSERT ON attempts BEGIN
    ${addAttempt('NEW', '+')}
    UPDATE step_runs SET tries = tries + 1 WHERE ${counted('NEW')} AND run_id = NEW.run_id AND step_index = NEW.step_index;
  END;
  CREATE TRIGGER stats_attempt_changed AFTER UPDATE OF outcome, error_class, decision_json, cost_known, n ON attempts
    WHEN OLD.outcome IS NOT NEW.outcome OR OLD.error_class IS NOT NEW.error_class OR OLD.decision_json IS NOT NEW.decision_json
      OR OLD.cost_known IS NOT NEW.cost_known OR OLD.n IS NOT NEW.n BEGIN
    ${addAttempt('OLD', '-')}
    ${addAttempt('NEW', '+')}
  END;
  CREATE TRIGGER stats_attempt_counted AFTER UPDATE OF outcome ON attempts WHEN ${counted('OLD')} IS NOT ${counted('NEW')} BEGIN
    UPDATE step_runs SET tries = tries + (CASE WHEN ${counted('NEW')} THEN 1 ELSE -1 END) WHERE run_id = NEW.run_id AND step_index = NEW.step_index;
  END;
  CREATE TRIGGER stats_attempt_removed AFTER DELETE ON attempts BEGIN
    ${addAttempt('OLD', '-')}
    UPDATE step_runs SET tries = tries - 1 WHERE ${counted('OLD')} AND run_id = OLD.run_id AND step_index = OLD.step_index;
  END;
  CREATE TRIGGER stats_call_added AFTER INSERT ON api_calls BEGIN
    INSERT INTO stats_costs (day, retry, calls, cost_usd, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens)
      SELECT date(NEW.at, 'localtime'), COALESCE((SELECT ${retry('a')} FROM attempts a WHERE a.id = NEW.attempt_id), 0), 1, COALESCE(NEW.cost_usd, 0),
        NEW.input_tokens, NEW.output_tokens, NEW.cache_read_tokens, NEW.cache_write_tokens WHERE true
      ON CONFLICT (day, retry) DO UPDATE SET calls = calls + 1, cost_usd = cost_usd + excluded.cost_usd,
        input_tokens = input_tokens + excluded.input_tokens, output_tokens = output_tokens + excluded.output_tokens,
        cache_read_tokens = cache_read_tokens + excluded.cache_read_tokens, cache_write_tokens = cache_write_tokens + excluded.cache_write_tokens;
  END;
  CREATE TRIGGER stats_call_moved AFTER UPDATE OF outcome, n ON attempts
    WHEN ((OLD.outcome = 'red') IS NOT (NEW.outcome = 'red') OR OLD.n IS NOT NEW.n) AND ${retry('OLD')} IS NOT ${retry('NEW')} BEGIN
    ${addCalls('OLD', '-')}
    ${addCalls('NEW', '+')}
  END;
`;

/** Recomputes the summary tables from the rows: the migration's backfill (and the benchmarks', after a bulk load). */
export function rebuildSummary(db: Database.Database): void {
  db.exec(`
    UPDATE runs SET day = date(created_at, 'localtime') WHERE day IS NULL;
    UPDATE step_runs SET tries = (SELECT count(*) FROM attempts a WHERE a.run_id = step_runs.run_id AND a.step_index = step_runs.step_index AND ${counted('a')});
    DELETE FROM stats_runs; DELETE FROM stats_daily; DELETE FROM stats_costs;
    INSERT INTO stats_runs (day, status, runs) SELECT day, status, count(*) FROM runs GROUP BY day, status;
    INSERT INTO stats_daily (day, kind, class, outcome, n, retries, retry_decisions, unknown_cost, tries)
      SELECT r.day, 'step', '', b, count(*), 0, 0, 0, sum(tries) FROM (SELECT s.run_id, s.tries, ${bucket('s')} AS b FROM step_runs s) x JOIN runs r ON r.id = x.run_id
      WHERE b IS NOT NULL GROUP BY r.day, b;
    INSERT INTO stats_daily (day, kind, class, outcome, n, retries, retry_decisions, unknown_cost, tries)
      SELECT r.day, 'attempt', COALESCE(a.error_class, ''), a.outcome, count(*), sum(${retry('a')}),
        sum(a.error_class IS NOT NULL AND json_extract(a.decision_json, '$.action') IS 'retry'), sum(a.cost_known = 0), 0
      FROM attempts a JOIN runs r ON r.id = a.run_id GROUP BY r.day, COALESCE(a.error_class, ''), a.outcome;
    INSERT INTO stats_costs (day, retry, calls, cost_usd, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens)
      SELECT date(c.at, 'localtime'), COALESCE(${retry('a')}, 0) AS flag, count(*), COALESCE(sum(c.cost_usd), 0), sum(c.input_tokens), sum(c.output_tokens),
        sum(c.cache_read_tokens), sum(c.cache_write_tokens)
      FROM api_calls c LEFT JOIN attempts a ON a.id = c.attempt_id GROUP BY date(c.at, 'localtime'), flag;
  `);
}

// ---- migration 13's per-class summary ----------------------------------------------------------------------------------

/** The attempt is a failure of its error class. */
const failure = (r: string) => `(${r}.error_class IS NOT NULL AND ${r}.outcome IN ('failed', 'error'))`;
/** The attempt passed (a flaky pass included). */
const pass = (r: string) => `(${r}.outcome IN ('passed', 'flaky'))`;
/** The run's local day of creation (computed, as migration 13 does). */
const classDay = (r: string) => `(SELECT date(created_at, 'localtime') FROM runs WHERE id = ${r}.run_id)`;
const sameStep = (r: string) => `o.run_id = ${r}.run_id AND o.step_index = ${r}.step_index AND o.id <> ${r}.id`;
/** The tries of the step from just after attempt `first_n` up to the pass `pass_n` (the pass included): after how many retries a failure was fixed. */
const triesToFix = (r: string, first: string, passN: string) =>
  `(1 + (SELECT count(*) FROM attempts t WHERE t.run_id = ${r}.run_id AND t.step_index = ${r}.step_index AND t.n > ${first} AND t.n < ${passN} AND ${counted('t')}))`;

/** The step's first failure of this class appears or goes: one step more or less for (day, class). */
const stepDelta = (r: string, sign: '+' | '-') => `
  INSERT INTO stats_classes (day, class, steps, fixed, fixed_r1, fixed_r2, fixed_r3, fixed_r4plus)
    SELECT ${classDay(r)}, ${r}.error_class, ${sign}1, 0, 0, 0, 0, 0
    WHERE ${failure(r)} AND ${classDay(r)} IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM attempts o WHERE ${sameStep(r)} AND o.error_class = ${r}.error_class AND o.outcome IN ('failed', 'error'))
    ON CONFLICT (day, class) DO UPDATE SET steps = steps + excluded.steps;`;

/** The step's first pass appears or goes: every class that failed before it was fixed (or is not any more), after k tries. */
const fixDelta = (r: string, sign: '+' | '-') => `
  INSERT INTO stats_classes (day, class, steps, fixed, fixed_r1, fixed_r2, fixed_r3, fixed_r4plus)
    SELECT d, f.error_class, 0, ${sign}1, ${sign}(f.k = 1), ${sign}(f.k = 2), ${sign}(f.k = 3), ${sign}(f.k >= 4)
    FROM (SELECT g.error_class, ${triesToFix(r, 'g.first_n', `${r}.n`)} AS k
          FROM (SELECT o.error_class, MIN(o.n) AS first_n FROM attempts o
                WHERE o.run_id = ${r}.run_id AND o.step_index = ${r}.step_index AND o.n < ${r}.n AND ${failure('o')}
                GROUP BY o.error_class) g) f, (SELECT ${classDay(r)} AS d) dd
    WHERE ${pass(r)} AND d IS NOT NULL AND NOT EXISTS (SELECT 1 FROM attempts o WHERE ${sameStep(r)} AND o.outcome IN ('passed', 'flaky'))
    ON CONFLICT (day, class) DO UPDATE SET fixed = fixed + excluded.fixed, fixed_r1 = fixed_r1 + excluded.fixed_r1,
      fixed_r2 = fixed_r2 + excluded.fixed_r2, fixed_r3 = fixed_r3 + excluded.fixed_r3, fixed_r4plus = fixed_r4plus + excluded.fixed_r4plus;`;

export const CLASS_TRIGGERS = `
  CREATE TRIGGER stats_class_added AFTER INSERT ON attempts BEGIN
    ${stepDelta('NEW', '+')}
    ${fixDelta('NEW', '+')}
  END;
  CREATE TRIGGER stats_class_changed AFTER UPDATE OF outcome, error_class, n ON attempts
    WHEN ${failure('OLD')} IS NOT ${failure('NEW')} OR OLD.error_class IS NOT NEW.error_class OR ${pass('OLD')} IS NOT ${pass('NEW')} OR OLD.n IS NOT NEW.n BEGIN
    ${stepDelta('OLD', '-')}
    ${fixDelta('OLD', '-')}
    ${stepDelta('NEW', '+')}
    ${fixDelta('NEW', '+')}
  END;
  CREATE TRIGGER stats_class_removed AFTER DELETE ON attempts BEGIN
    ${stepDelta('OLD', '-')}
    ${fixDelta('OLD', '-')}
  END;
`;

/** Recomputes stats_classes from the attempts (the migration's backfill, and the benchmarks' after a bulk load). */
export function rebuildClassSummary(db: Database.Database): void {
  db.exec(`
    DELETE FROM stats_classes;
    INSERT INTO stats_classes (day, class, steps, fixed, fixed_r1, fixed_r2, fixed_r3, fixed_r4plus)
      SELECT date(r.created_at, 'localtime') AS day, x.error_class, count(*), sum(x.k IS NOT NULL), sum(COALESCE(x.k = 1, 0)), sum(COALESCE(x.k = 2, 0)), sum(COALESCE(x.k = 3, 0)), sum(COALESCE(x.k >= 4, 0))
      FROM (SELECT y.run_id, y.error_class, CASE WHEN y.pass_n > y.first_n THEN ${triesToFix('y', 'y.first_n', 'y.pass_n')} END AS k
            FROM (SELECT f.run_id, f.step_index, f.error_class, MIN(f.n) AS first_n,
                    (SELECT MIN(p.n) FROM attempts p WHERE p.run_id = f.run_id AND p.step_index = f.step_index AND ${pass('p')}) AS pass_n
                  FROM attempts f WHERE ${failure('f')} GROUP BY f.run_id, f.step_index, f.error_class) y) x
      JOIN runs r ON r.id = x.run_id
      GROUP BY 1, x.error_class;
  `);
}

// ---- the migration ---------------------------------------------------------------------------------------------------

/** The triggers migrations 9 and 13 created under names this migration no longer uses (they counted `n > 1`). */
const REPLACED = [
  'stats_attempt_insert',
  'stats_attempt_update',
  'stats_attempt_tries',
  'stats_attempt_delete',
  'stats_call_insert',
  'stats_class_insert',
  'stats_class_update',
  'stats_class_delete',
];
const has = (db: Database.Database, type: 'table' | 'trigger', name: string) =>
  db.prepare('SELECT 1 FROM sqlite_master WHERE type = ? AND name = ?').get(type, name) !== undefined;
const statsTriggers = (db: Database.Database) =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'stats\\_%' ESCAPE '\\'").all() as Array<{ name: string }>).map(
    (t) => t.name,
  );

export const migration0016: Migration = {
  version: 16,
  name: 'stats-tries',
  // Its triggers are there and none it replaced: so migration 9 or 13 applied late (merged after 16) puts it back to work.
  present: (db) =>
    !REPLACED.some((t) => has(db, 'trigger', t)) &&
    (!has(db, 'table', 'stats_daily') || has(db, 'trigger', 'stats_call_moved')) &&
    (!has(db, 'table', 'stats_classes') || has(db, 'trigger', 'stats_class_added')),
  up(db) {
    for (const t of statsTriggers(db)) db.exec(`DROP TRIGGER ${t}`);
    // Each summary only where its migration has made its tables (a later run of this migration completes the other).
    if (has(db, 'table', 'stats_daily')) {
      rebuildSummary(db);
      db.exec(SUMMARY_TRIGGERS);
    }
    if (has(db, 'table', 'stats_classes')) {
      rebuildClassSummary(db);
      db.exec(CLASS_TRIGGERS);
    }
  },
};
