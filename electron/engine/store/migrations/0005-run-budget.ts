// Migration 5: a task budget raised for one run (`ratchet resume --budget`, the app's "Raise budget and continue") persists with the run.
import type { Migration } from '../migration';

export const migration0005: Migration = {
  version: 5,
  name: 'run-budget',
  up(db) {
    db.exec('ALTER TABLE runs ADD COLUMN task_budget_usd REAL;');
  },
};
