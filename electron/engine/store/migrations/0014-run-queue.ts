// Migration 14: runs wait in a queue for a free slot (what to do when their turn comes, priority, since when, who waits),
// and a rate limit on one API key holds every run that uses it.
import type { Migration } from '../migration';

export const migration0014: Migration = {
  version: 14,
  name: 'run-queue',
  up(db) {
    db.exec(`
      ALTER TABLE runs ADD COLUMN queue_action TEXT;
      ALTER TABLE runs ADD COLUMN queue_prev_status TEXT;
      ALTER TABLE runs ADD COLUMN queue_priority INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE runs ADD COLUMN queued_at TEXT;
      ALTER TABLE runs ADD COLUMN queue_owner_pid INTEGER;
      ALTER TABLE runs ADD COLUMN queue_owner_host TEXT;
      CREATE INDEX runs_queue ON runs (status, queue_priority DESC, queued_at) WHERE status = 'queued';
      CREATE TABLE api_holds (
        key_hash TEXT PRIMARY KEY,
        until TEXT NOT NULL,
        run_id TEXT,
        reason TEXT NOT NULL
      );
    `);
  },
};
