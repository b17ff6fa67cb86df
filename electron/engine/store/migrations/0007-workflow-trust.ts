// Migration 7: workspace trust — which in-repository workflow file (by its content's hash) the user trusted for a repository.
import type { Migration } from '../migration';

export const migration0007: Migration = {
  version: 7,
  name: 'workflow-trust',
  up(db) {
    db.exec(`
      CREATE TABLE workflow_trust (
        repo TEXT NOT NULL,
        file TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        trusted_at TEXT NOT NULL,
        PRIMARY KEY (repo, file)
      );
    `);
  },
};
