// The runs list's page query answers what the status documents say (steps done and total, cost), page after page.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { statusDocument } from '../run/status-document';
import { openDatabase } from './open-store';
import { Store } from './store';
import { writeVariedHistory } from './testing/varied-history';

describe('listRunSummaries', () => {
  it('pages through every run, newest first, each with the counts and cost of its status document', () => {
    const { db } = openDatabase(mkdtempSync(join(tmpdir(), 'ratchet-page-')));
    writeVariedHistory(db, { runs: 45, days: 9, end: new Date('2026-11-21T12:00:00Z'), seed: 5 });
    const store = new Store(db);
    const pages: ReturnType<Store['listRunSummaries']>[] = [];
    let before: { createdAt: string; id: string } | undefined;
    for (;;) {
      const page = store.listRunSummaries({ limit: 7, before });
      if (!page.length) break;
      pages.push(page);
      const last = page.at(-1)!;
      before = { createdAt: last.created_at, id: last.id };
    }
    const all = pages.flat();
    expect(pages[0]).toHaveLength(7);
    expect(all.map((r) => r.id)).toEqual(store.listRuns().map((r) => r.id));
    for (const r of all) {
      const doc = statusDocument(store, store.getRun(r.id)!);
      expect({ done: r.steps_done, total: r.steps_total, cost: r.cost_usd }, r.id).toEqual({
        done: doc.steps.filter((s) => s.status === 'succeeded').length,
        total: doc.steps.filter((s) => s.status !== 'skipped').length,
        cost: doc.costUsd,
      });
    }
    expect(all.some((r) => r.cost_usd === null)).toBe(true);
    expect(store.listRunSummaries({ limit: 5, ids: [all[3]!.id, all[9]!.id] }).map((r) => r.id)).toEqual([all[3]!.id, all[9]!.id]);
    db.close();
  });
});
