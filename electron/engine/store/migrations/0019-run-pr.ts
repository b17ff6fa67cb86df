// Migration 19: each run's pull request (`ratchet pr`): its number and page, and the document the status carries
// (shared/pull-request.ts's PrDoc: head commit, checks, rounds). One per run: a run's branch has one pull request.
import { creates, type Migration } from '../migration';

export const migration0019: Migration = {
  version: 19,
  name: 'run-pr',
  present: creates('table', 'run_pr'),
  up(db) {
    db.exec(`
      CREATE TABLE run_pr (
        run_id TEXT PRIMARY KEY REFERENCES runs(id),
        -- owner/name on the forge, and the pull request's number there.
        repo TEXT NOT NULL,
        number INTEGER NOT NULL,
        -- PrDoc as JSON; parsed on the way out, an unreadable one is left out of the status, never an error.
        doc_json TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
    `);
  },
};
