// Migration 17: a run's reason code (shared/domain.ts's RunReasonCode) beside its reason text, so the app decides by a
// code, not by the engine's words. Old rows get the codes their rows say exactly: a paused or waiting run whose reason
// names a reached task or daily budget (the words the app read until now: `(task|daily) budget (of )$… reached`), and a
// run waiting for approval (nothing else sets that status). Every other old row keeps null: the app reads its text.
import type Database from 'better-sqlite3';
import type { Migration } from '../migration';

const hasColumn = (db: Database.Database) => (db.prepare('PRAGMA table_info(runs)').all() as Array<{ name: string }>).some((c) => c.name === 'reason_code');

/** The budget's words as the app read them (GLOB is case-sensitive, as that regex was). */
const budgetReached = (kind: 'task' | 'daily') => `(reason GLOB '*${kind} budget of $* reached*' OR reason GLOB '*${kind} budget $* reached*')`;

export const migration0017: Migration = {
  version: 17,
  name: 'run-reason-code',
  present: hasColumn,
  up(db) {
    db.exec(`
      ALTER TABLE runs ADD COLUMN reason_code TEXT;
      UPDATE runs SET reason_code = 'task_budget' WHERE status IN ('paused', 'waiting') AND ${budgetReached('task')};
      UPDATE runs SET reason_code = 'daily_budget' WHERE status IN ('paused', 'waiting') AND reason_code IS NULL AND ${budgetReached('daily')};
      UPDATE runs SET reason_code = 'plan_awaiting_approval' WHERE status = 'waiting_approval';
    `);
  },
};
