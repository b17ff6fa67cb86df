// Migration 2: each attempt keeps the policy's decision, its failure fingerprint and the overrides it ran with.
import type { Migration } from '../migration';

export const migration0002: Migration = {
  version: 2,
  name: 'attempt-decisions',
  up(db) {
    db.exec(`
      ALTER TABLE attempts ADD COLUMN decision_json TEXT;
      ALTER TABLE attempts ADD COLUMN fingerprint TEXT;
      ALTER TABLE attempts ADD COLUMN overrides_json TEXT NOT NULL DEFAULT '{}';
      CREATE INDEX api_calls_at ON api_calls(at);
    `);
  },
};
