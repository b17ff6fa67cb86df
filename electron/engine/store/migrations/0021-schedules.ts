// Migration 21: schedules (`ratchet schedule add`, Settings › Schedules). A schedule starts an ordinary run of a task
// at each tick of its cron expression; `last_tick_at` is the latest tick some process claimed (one atomic UPDATE, so a
// tick fires once however many processes run), `problem` what stopped its last tick (kept and shown until one works),
// and `runs.schedule_id` the schedule that started a run.
import type Database from 'better-sqlite3';
import type { Migration } from '../migration';

const hasTable = (db: Database.Database) => Boolean(db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schedules'").get());

export const migration0021: Migration = {
  version: 21,
  name: 'schedules',
  present: hasTable,
  up(db) {
    db.exec(`
      CREATE TABLE schedules (
        id TEXT PRIMARY KEY,
        repo TEXT NOT NULL,
        cron TEXT NOT NULL,
        tz TEXT,
        workflow_file TEXT,
        task TEXT,
        budget_usd REAL,
        missed TEXT NOT NULL DEFAULT 'run-once' CHECK (missed IN ('run-once', 'skip')),
        paused INTEGER NOT NULL DEFAULT 0,
        problem TEXT,
        last_tick_at TEXT,
        last_run_id TEXT,
        created_at TEXT NOT NULL
      );
      ALTER TABLE runs ADD COLUMN schedule_id TEXT;
    `);
  },
};
