// Migration 15: what Ratchet did to make each run's worktree ready to test — files copied and dependencies reused once,
// the last setup (its inputs' hashes, so a retry or resume does not redo an unchanged setup), and the baseline check.
import { creates, type Migration } from '../migration';

export const migration0015: Migration = {
  version: 15,
  name: 'run-env',
  present: creates('table', 'run_env'),
  up(db) {
    db.exec(`
      CREATE TABLE run_env (
        run_id TEXT PRIMARY KEY REFERENCES runs(id),
        -- When copy and dependency reuse were done (once per worktree); null until then.
        prepared_at TEXT,
        -- Files copied, dependencies reused (WorktreeEnvDoc's copied and reused).
        prepared_json TEXT NOT NULL DEFAULT '{}',
        -- path -> sha256 of setup's inputs when setup last succeeded; null: setup must run.
        setup_inputs_json TEXT,
        -- The last setup (SetupDoc) and its whole, bounded output.
        setup_json TEXT,
        setup_output TEXT,
        -- The baseline check (BaselineDoc).
        baseline_json TEXT
      );
    `);
  },
};
