// Migration 3: every retry or resume of a run is recorded, with where it resumed from, so its savings can be measured.
import type { Migration } from '../migration';

export const migration0003: Migration = {
  version: 3,
  name: 'resumes',
  up(db) {
    db.exec(`
      CREATE TABLE resumes (
        id INTEGER PRIMARY KEY,
        run_id TEXT NOT NULL REFERENCES runs(id),
        kind TEXT NOT NULL,
        at TEXT NOT NULL,
        from_step INTEGER,
        from_status TEXT NOT NULL,
        turn_budget INTEGER,
        auto TEXT NOT NULL DEFAULT 'run',
        notes_json TEXT NOT NULL DEFAULT '[]'
      );
      CREATE INDEX resumes_run ON resumes(run_id, id);
      ALTER TABLE step_runs ADD COLUMN phase TEXT;
    `);
  },
};
