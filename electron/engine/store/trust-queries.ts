// Workspace trust's record: one answer per repository and workflow file, with the hash of the content the user trusted
// (the hash itself: workflow/workflow-hash.ts; what a file would do: trust/trust-items.ts).
import type { StoreDb } from './store-rows';

export interface TrustEntry {
  repo: string;
  file: string;
  sha256: string;
  trustedAt: string;
}

/** Trust answers, one per repository and workflow file, with the hash of the content that was trusted. */
export class TrustStore {
  constructor(private readonly db: StoreDb) {}

  isTrusted(repo: string, file: string, sha256: string): boolean {
    const row = this.db.prepare('SELECT sha256 FROM workflow_trust WHERE repo = ? AND file = ?').get(repo, file) as { sha256: string } | undefined;
    return row?.sha256 === sha256;
  }

  trust(repo: string, file: string, sha256: string, at: string): void {
    this.db
      .prepare(
        'INSERT INTO workflow_trust (repo, file, sha256, trusted_at) VALUES (?, ?, ?, ?) ON CONFLICT (repo, file) DO UPDATE SET sha256 = excluded.sha256, trusted_at = excluded.trusted_at',
      )
      .run(repo, file, sha256, at);
  }

  /** What is trusted for a repository (every repository when null): each workflow file, its trusted hash and when. */
  list(repo: string | null): TrustEntry[] {
    const rows = (
      repo === null
        ? this.db.prepare('SELECT repo, file, sha256, trusted_at FROM workflow_trust ORDER BY repo, file').all()
        : this.db.prepare('SELECT repo, file, sha256, trusted_at FROM workflow_trust WHERE repo = ? ORDER BY file').all(repo)
    ) as Array<{ repo: string; file: string; sha256: string; trusted_at: string }>;
    return rows.map((r) => ({ repo: r.repo, file: r.file, sha256: r.sha256, trustedAt: r.trusted_at }));
  }

  /** Forgets every trust answer for a repository (`ratchet trust <repo> --revoke`); returns how many were removed. */
  revoke(repo: string): number {
    return this.db.prepare('DELETE FROM workflow_trust WHERE repo = ?').run(repo).changes;
  }
}
