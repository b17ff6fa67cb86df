// Each run's pull request in the store (migration 19): what `ratchet pr` opened and last saw of it.
import { PrDoc } from '../../../shared/pull-request';
import type { Store } from './store';
import type { StoreDb } from './store-rows';

export class RunPrStore {
  constructor(private readonly store: Store) {}

  get(runId: string): (PrDoc & { repo: string }) | null {
    const row = this.store.db.prepare('SELECT repo, doc_json FROM run_pr WHERE run_id = ?').get(runId) as { repo: string; doc_json: string } | undefined;
    if (!row) return null;
    let json: unknown;
    try {
      json = JSON.parse(row.doc_json);
    } catch {
      return null;
    }
    const doc = PrDoc.safeParse(json);
    return doc.success ? { ...doc.data, repo: row.repo } : null;
  }

  put(runId: string, repo: string, doc: PrDoc, at: string): void {
    this.store.db
      .prepare(
        `INSERT INTO run_pr (run_id, repo, number, doc_json, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (run_id) DO UPDATE SET repo = excluded.repo, number = excluded.number, doc_json = excluded.doc_json, updated_at = excluded.updated_at`,
      )
      .run(runId, repo, doc.number, JSON.stringify(PrDoc.parse(doc)), at);
  }
}

/** The pull requests last seen at or after `sinceIso` (their rounds are the statistics' pull-request numbers). */
export function prDocsSince(db: StoreDb, sinceIso: string): PrDoc[] {
  const rows = db.prepare('SELECT doc_json FROM run_pr WHERE updated_at >= ?').all(sinceIso) as { doc_json: string }[];
  return rows.flatMap((r) => {
    try {
      const doc = PrDoc.safeParse(JSON.parse(r.doc_json));
      return doc.success ? [doc.data] : [];
    } catch {
      return [];
    }
  });
}
