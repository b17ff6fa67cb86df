// Migration 20: what a run's estimate needs. `workflow_key` names the workflow a run followed (its file's path in the
// repository, or the app's), so "runs like this one" are found through an index; `estimate_json` is the estimate made
// when it started (shared/domain.ts RunEstimate), which the status document shows and the dashboard checks against.
import type Database from 'better-sqlite3';
import type { Migration } from '../migration';

const hasColumn = (db: Database.Database) => (db.prepare('PRAGMA table_info(runs)').all() as Array<{ name: string }>).some((c) => c.name === 'estimate_json');

export const migration0020: Migration = {
  version: 20,
  name: 'run-estimate',
  present: hasColumn,
  up(db) {
    db.exec(`
      ALTER TABLE runs ADD COLUMN workflow_key TEXT;
      ALTER TABLE runs ADD COLUMN estimate_json TEXT;
      CREATE INDEX runs_repo_workflow ON runs(repo_id, workflow_key, created_at);
      -- How the estimates held (the dashboard): the last runs that have one, without walking the runs from before estimates.
      CREATE INDEX runs_estimated ON runs(created_at DESC, id DESC) WHERE estimate_json IS NOT NULL;
    `);
  },
};
