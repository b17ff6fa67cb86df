// Migration 22: what Ratchet does on its own while it watches a run's pull request (shared/pull-request.ts PrOptions:
// which remote gates it fixes, how it merges when green), kept per run so the app's toggles outlive the window.
import { creates, type Migration } from '../migration';

export const migration0022: Migration = {
  version: 22,
  name: 'run-pr-options',
  present: creates('table', 'run_pr_options'),
  up(db) {
    db.exec(`
      CREATE TABLE run_pr_options (
        run_id TEXT PRIMARY KEY REFERENCES runs(id),
        -- PrOptions as JSON: { fix: ('ci'|'review')[], merge: 'squash'|'merge'|'rebase'|null }.
        options_json TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
    `);
  },
};
