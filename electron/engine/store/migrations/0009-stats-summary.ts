// Migration 9: the dashboard's per-day summary (runs by status, attempts by class × outcome, steps by retry bucket, API cost), kept by triggers in the same
// transaction as every write to runs, steps, attempts and API calls, so the stats read a few hundred rows, never history.
// A run's day is its local calendar day of creation (`runs.day`, fixed at insert); an API call's day is its own.
import type Database from 'better-sqlite3';
import { creates, type Migration } from '../migration';

/** The step's retry bucket (as the dashboard's breakdown counts it), for the row alias `r`. */
const bucket = (r: string) =>
  `CASE WHEN ${r}.status = 'succeeded' AND ${r}.tries > 0 THEN (CASE ${r}.tries WHEN 1 THEN 'r0' WHEN 2 THEN 'r1' WHEN 3 THEN 'r2' ELSE 'r3plus' END)
        WHEN ${r}.status = 'failed' THEN 'failedAfterMax' END`;
const runDay = (r: string) => `(SELECT day FROM runs WHERE id = ${r}.run_id)`;
/** An attempt counts as a try unless it was interrupted or is still running. */
const counted = (r: string) => `(${r}.outcome NOT IN ('interrupted', 'running'))`;

const addStep = (r: string, sign: '+' | '-') => `
  INSERT INTO stats_daily (day, kind, class, outcome, n, retries, retry_decisions, unknown_cost, tries)
    SELECT ${runDay(r)}, 'step', '', b, ${sign}1, 0, 0, 0, ${sign}${r}.tries
    FROM (SELECT ${bucket(r)} AS b) WHERE b IS NOT NULL AND ${runDay(r)} IS NOT NULL
    ON CONFLICT (day, kind, class, outcome) DO UPDATE SET n = n + excluded.n, tries = tries + excluded.tries;`;

const addAttempt = (r: string, sign: '+' | '-') => `
  INSERT INTO stats_daily (day, kind, class, outcome, n, retries, retry_decisions, unknown_cost, tries)
    SELECT d, 'attempt', COALESCE(${r}.error_class, ''), ${r}.outcome, ${sign}1, ${sign}(${r}.n > 1),
      ${sign}(${r}.error_class IS NOT NULL AND json_extract(${r}.decision_json, '$.action') IS 'retry'), ${sign}(${r}.cost_known = 0), 0
    FROM (SELECT ${runDay(r)} AS d) WHERE d IS NOT NULL
    ON CONFLICT (day, kind, class, outcome) DO UPDATE SET n = n + excluded.n, retries = retries + excluded.retries,
      retry_decisions = retry_decisions + excluded.retry_decisions, unknown_cost = unknown_cost + excluded.unknown_cost;`;

const addRun = (r: string, sign: '+' | '-') => `
  INSERT INTO stats_runs (day, status, runs) SELECT COALESCE(${r}.day, date(${r}.created_at, 'localtime')), ${r}.status, ${sign}1 WHERE true
    ON CONFLICT (day, status) DO UPDATE SET runs = runs + excluded.runs;`;

/** A step's contribution changed: its bucket, or its tries while in a success bucket (a pending or running step has none). */
const stepMoved = `((${bucket('OLD')}) IS NOT (${bucket('NEW')}) OR (OLD.tries IS NOT NEW.tries AND (${bucket('NEW')}) IS NOT NULL))`;

const stepTries = (r: string, sign: '+' | '-') => `UPDATE step_runs SET tries = tries ${sign} 1 WHERE run_id = ${r}.run_id AND step_index = ${r}.step_index;`;

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
  CREATE TRIGGER stats_attempt_insert AFTER INSERT ON attempts BEGIN
    ${addAttempt('NEW', '+')}
    UPDATE step_runs SET tries = tries + 1 WHERE ${counted('NEW')} AND run_id = NEW.run_id AND step_index = NEW.step_index;
  END;
  CREATE TRIGGER stats_attempt_update AFTER UPDATE OF outcome, error_class, decision_json, cost_known, n ON attempts
    WHEN OLD.outcome IS NOT NEW.outcome OR OLD.error_class IS NOT NEW.error_class OR OLD.decision_json IS NOT NEW.decision_json
      OR OLD.cost_known IS NOT NEW.cost_known OR OLD.n IS NOT NEW.n BEGIN
    ${addAttempt('OLD', '-')}
    ${addAttempt('NEW', '+')}
  END;
  CREATE TRIGGER stats_attempt_tries AFTER UPDATE OF outcome ON attempts WHEN ${counted('OLD')} IS NOT ${counted('NEW')} BEGIN
    UPDATE step_runs SET tries = tries + (CASE WHEN ${counted('NEW')} THEN 1 ELSE -1 END) WHERE run_id = NEW.run_id AND step_index = NEW.step_index;
  END;
  CREATE TRIGGER stats_attempt_delete AFTER DELETE ON attempts BEGIN
    ${addAttempt('OLD', '-')}
    ${stepTries('OLD', '-').replace('WHERE', `WHERE ${counted('OLD')} AND`)}
  END;
  CREATE TRIGGER stats_call_insert AFTER INSERT ON api_calls BEGIN
    INSERT INTO stats_costs (day, retry, calls, cost_usd, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens)
      SELECT date(NEW.at, 'localtime'), COALESCE((SELECT n > 1 FROM attempts WHERE id = NEW.attempt_id), 0), 1, COALESCE(NEW.cost_usd, 0),
        NEW.input_tokens, NEW.output_tokens, NEW.cache_read_tokens, NEW.cache_write_tokens WHERE true
      ON CONFLICT (day, retry) DO UPDATE SET calls = calls + 1, cost_usd = cost_usd + excluded.cost_usd,
        input_tokens = input_tokens + excluded.input_tokens, output_tokens = output_tokens + excluded.output_tokens,
        cache_read_tokens = cache_read_tokens + excluded.cache_read_tokens, cache_write_tokens = cache_write_tokens + excluded.cache_write_tokens;
  END;
`;

export const migration0009: Migration = {
  version: 9,
  name: 'stats-summary',
  present: creates('table', 'stats_daily'),
  up(db) {
    db.exec(`
      ALTER TABLE runs ADD COLUMN day TEXT;
      ALTER TABLE step_runs ADD COLUMN tries INTEGER NOT NULL DEFAULT 0;

      CREATE TABLE stats_runs (day TEXT NOT NULL, status TEXT NOT NULL, runs INTEGER NOT NULL, PRIMARY KEY (day, status)) WITHOUT ROWID;
      -- Attempts (day × error class × outcome) and steps (day × retry bucket) share one table, so a checkpoint, which
      -- changes both, writes one page of summary: a day's rows sit together. The two views below name their columns.
      CREATE TABLE stats_daily (
        day TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('attempt', 'step')),
        class TEXT NOT NULL,
        outcome TEXT NOT NULL,
        n INTEGER NOT NULL,
        retries INTEGER NOT NULL,
        retry_decisions INTEGER NOT NULL,
        unknown_cost INTEGER NOT NULL,
        tries INTEGER NOT NULL,
        PRIMARY KEY (day, kind, class, outcome)
      ) WITHOUT ROWID;
      CREATE VIEW stats_attempts AS
        SELECT day, class AS error_class, outcome, n AS attempts, retries, retry_decisions, unknown_cost FROM stats_daily WHERE kind = 'attempt';
      CREATE VIEW stats_steps AS SELECT day, outcome AS bucket, n AS steps, tries FROM stats_daily WHERE kind = 'step';
      CREATE TABLE stats_costs (
        day TEXT NOT NULL, retry INTEGER NOT NULL, calls INTEGER NOT NULL, cost_usd REAL NOT NULL,
        input_tokens INTEGER NOT NULL, output_tokens INTEGER NOT NULL, cache_read_tokens INTEGER NOT NULL, cache_write_tokens INTEGER NOT NULL,
        PRIMARY KEY (day, retry)
      ) WITHOUT ROWID;
    `);
    rebuildSummary(db);
    db.exec(SUMMARY_TRIGGERS);
  },
};

/** Recomputes the summary tables from the rows: the migration's backfill (and the benchmarks', after a bulk load). */
export function rebuildSummary(db: Database.Database): void {
  db.exec(`
    UPDATE runs SET day = date(created_at, 'localtime') WHERE day IS NULL;
    UPDATE step_runs SET tries = (SELECT count(*) FROM attempts a WHERE a.run_id = step_runs.run_id AND a.step_index = step_runs.step_index
      AND a.outcome NOT IN ('interrupted', 'running'));
    DELETE FROM stats_runs; DELETE FROM stats_daily; DELETE FROM stats_costs;
    INSERT INTO stats_runs (day, status, runs) SELECT day, status, count(*) FROM runs GROUP BY day, status;
    INSERT INTO stats_daily (day, kind, class, outcome, n, retries, retry_decisions, unknown_cost, tries)
      SELECT r.day, 'step', '', b, count(*), 0, 0, 0, sum(tries) FROM (SELECT s.run_id, s.tries, ${bucket('s')} AS b FROM step_runs s) x JOIN runs r ON r.id = x.run_id
      WHERE b IS NOT NULL GROUP BY r.day, b;
    INSERT INTO stats_daily (day, kind, class, outcome, n, retries, retry_decisions, unknown_cost, tries)
      SELECT r.day, 'attempt', COALESCE(a.error_class, ''), a.outcome, count(*), sum(a.n > 1),
        sum(a.error_class IS NOT NULL AND json_extract(a.decision_json, '$.action') IS 'retry'), sum(a.cost_known = 0), 0
      FROM attempts a JOIN runs r ON r.id = a.run_id GROUP BY r.day, COALESCE(a.error_class, ''), a.outcome;
    INSERT INTO stats_costs (day, retry, calls, cost_usd, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens)
      SELECT date(c.at, 'localtime'), COALESCE(a.n > 1, 0), count(*), COALESCE(sum(c.cost_usd), 0), sum(c.input_tokens), sum(c.output_tokens),
        sum(c.cache_read_tokens), sum(c.cache_write_tokens)
      FROM api_calls c LEFT JOIN attempts a ON a.id = c.attempt_id GROUP BY date(c.at, 'localtime'), COALESCE(a.n > 1, 0);
  `);
}
