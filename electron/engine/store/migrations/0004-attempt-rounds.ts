// Migration 4: each execution of a run (the first, then every retry or resume) is a round; attempts say which round they belong to.
import type { Migration } from '../migration';

export const migration0004: Migration = {
  version: 4,
  name: 'attempt-rounds',
  up(db) {
    db.exec(`
      ALTER TABLE runs ADD COLUMN round INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE attempts ADD COLUMN round INTEGER NOT NULL DEFAULT 0;
    `);
  },
};
