// Migration 13: per error class and day, the steps that failed with it and how many of them were fixed (and after how
// many tries) — what the improvement suggestions read. Kept by triggers in the checkpoint's transaction, like migration 9's summary.
import type Database from 'better-sqlite3';
import { creates, type Migration } from '../migration';

/** The attempt is a failure of its error class. */
const failure = (r: string) => `(${r}.error_class IS NOT NULL AND ${r}.outcome IN ('failed', 'error'))`;
/** The attempt passed (a flaky pass included). */
const pass = (r: string) => `(${r}.outcome IN ('passed', 'flaky'))`;
/** The run's local day of creation (migration 9's runs.day; computed, so this migration stands without it). */
const runDay = (r: string) => `(SELECT date(created_at, 'localtime') FROM runs WHERE id = ${r}.run_id)`;
const sameStep = (r: string) => `o.run_id = ${r}.run_id AND o.step_index = ${r}.step_index AND o.id <> ${r}.id`;

/** The step's first failure of this class appears or goes: one step more or less for (day, class). */
const stepDelta = (r: string, sign: '+' | '-') => `
  INSERT INTO stats_classes (day, class, steps, fixed, fixed_r1, fixed_r2, fixed_r3, fixed_r4plus)
    SELECT ${runDay(r)}, ${r}.error_class, ${sign}1, 0, 0, 0, 0, 0
    WHERE ${failure(r)} AND ${runDay(r)} IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM attempts o WHERE ${sameStep(r)} AND o.error_class = ${r}.error_class AND o.outcome IN ('failed', 'error'))
    ON CONFLICT (day, class) DO UPDATE SET steps = steps + excluded.steps;`;

/** The step's first pass appears or goes: every class that failed before it was fixed (or is not any more), after k tries. */
const fixDelta = (r: string, sign: '+' | '-') => `
  INSERT INTO stats_classes (day, class, steps, fixed, fixed_r1, fixed_r2, fixed_r3, fixed_r4plus)
    SELECT d, f.error_class, 0, ${sign}1, ${sign}(f.k = 1), ${sign}(f.k = 2), ${sign}(f.k = 3), ${sign}(f.k >= 4)
    FROM (SELECT o.error_class, ${r}.n - MIN(o.n) AS k FROM attempts o
          WHERE o.run_id = ${r}.run_id AND o.step_index = ${r}.step_index AND o.n < ${r}.n AND o.error_class IS NOT NULL AND o.outcome IN ('failed', 'error')
          GROUP BY o.error_class) f, (SELECT ${runDay(r)} AS d) dd
    WHERE ${pass(r)} AND d IS NOT NULL AND NOT EXISTS (SELECT 1 FROM attempts o WHERE ${sameStep(r)} AND o.outcome IN ('passed', 'flaky'))
    ON CONFLICT (day, class) DO UPDATE SET fixed = fixed + excluded.fixed, fixed_r1 = fixed_r1 + excluded.fixed_r1,
      fixed_r2 = fixed_r2 + excluded.fixed_r2, fixed_r3 = fixed_r3 + excluded.fixed_r3, fixed_r4plus = fixed_r4plus + excluded.fixed_r4plus;`;

export const CLASS_TRIGGERS = `
  CREATE TRIGGER stats_class_insert AFTER INSERT ON attempts BEGIN
    ${stepDelta('NEW', '+')}
    ${fixDelta('NEW', '+')}
  END;
  CREATE TRIGGER stats_class_update AFTER UPDATE OF outcome, error_class, n ON attempts
    WHEN ${failure('OLD')} IS NOT ${failure('NEW')} OR OLD.error_class IS NOT NEW.error_class OR ${pass('OLD')} IS NOT ${pass('NEW')} OR OLD.n IS NOT NEW.n BEGIN
    ${stepDelta('OLD', '-')}
    ${fixDelta('OLD', '-')}
    ${stepDelta('NEW', '+')}
    ${fixDelta('NEW', '+')}
  END;
  CREATE TRIGGER stats_class_delete AFTER DELETE ON attempts BEGIN
    ${stepDelta('OLD', '-')}
    ${fixDelta('OLD', '-')}
  END;
`;

export const migration0013: Migration = {
  version: 13,
  name: 'stats-classes',
  present: creates('table', 'stats_classes'),
  up(db) {
    db.exec(`
      CREATE TABLE stats_classes (
        day TEXT NOT NULL, class TEXT NOT NULL,
        steps INTEGER NOT NULL, fixed INTEGER NOT NULL,
        fixed_r1 INTEGER NOT NULL, fixed_r2 INTEGER NOT NULL, fixed_r3 INTEGER NOT NULL, fixed_r4plus INTEGER NOT NULL,
        PRIMARY KEY (day, class)
      ) WITHOUT ROWID;
    `);
    rebuildClassSummary(db);
    db.exec(CLASS_TRIGGERS);
  },
};

/** Recomputes stats_classes from the attempts (the migration's backfill, and the benchmarks' after a bulk load). */
export function rebuildClassSummary(db: Database.Database): void {
  db.exec(`
    DELETE FROM stats_classes;
    INSERT INTO stats_classes (day, class, steps, fixed, fixed_r1, fixed_r2, fixed_r3, fixed_r4plus)
      SELECT date(r.created_at, 'localtime') AS day, x.error_class, count(*), sum(x.k IS NOT NULL), sum(COALESCE(x.k = 1, 0)), sum(COALESCE(x.k = 2, 0)), sum(COALESCE(x.k = 3, 0)), sum(COALESCE(x.k >= 4, 0))
      FROM (SELECT run_id, error_class, CASE WHEN pass_n > first_n THEN pass_n - first_n END AS k
            FROM (SELECT f.run_id, f.error_class, MIN(f.n) AS first_n,
                    (SELECT MIN(p.n) FROM attempts p WHERE p.run_id = f.run_id AND p.step_index = f.step_index AND p.outcome IN ('passed', 'flaky')) AS pass_n
                  FROM attempts f WHERE ${failure('f')} GROUP BY f.run_id, f.step_index, f.error_class)) x
      JOIN runs r ON r.id = x.run_id
      GROUP BY 1, x.error_class;
  `);
}
