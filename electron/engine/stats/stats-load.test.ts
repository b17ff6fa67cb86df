import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadStats, loadStatsFromRows } from './stats-load';
import { openDatabase } from '../store/open-store';
import { rebuildSummary } from '../store/migrations/0016-stats-tries';
import { writeVariedHistory } from '../store/testing/varied-history';

const end = new Date('2026-11-21T15:30:00Z');

function store(runs: number, seed: number) {
  const { db } = openDatabase(mkdtempSync(join(tmpdir(), 'ratchet-stats-')));
  writeVariedHistory(db, { runs, days: 40, end, seed });
  return db;
}

describe('the dashboard from the per-day summary', () => {
  it('equals the numbers computed from every raw row, for 7 and 30 days and for several histories', () => {
    for (const seed of [1, 2, 3]) {
      const db = store(160, seed);
      for (const days of [1, 7, 30]) {
        const fromSummary = loadStats(db, days, end, 20);
        const fromRows = loadStatsFromRows(db, days, end, 20);
        expect(fromSummary, `seed ${seed}, ${days} days`).toEqual(fromRows);
      }
      // Something of everything was written, so the comparison covers every number.
      const s = loadStats(db, 30, end, 20);
      expect(s.runs).toBeGreaterThan(50);
      expect(s.failed).toBeGreaterThan(0);
      expect(s.retryBreakdown.r1 + s.retryBreakdown.r2 + s.retryBreakdown.r3plus).toBeGreaterThan(0);
      expect(s.retryReasons.length).toBeGreaterThan(1);
      expect(s.totalCostUsd).toBeGreaterThan(0);
      expect(s.suggestions.join('\n')).toContain('no price');
      db.close();
    }
  });

  it('is what a rebuild from the rows gives (the migration backfill and the triggers agree)', () => {
    const db = store(120, 9);
    const dump = () =>
      ['stats_runs', 'stats_daily', 'stats_costs'].map((t) =>
        db
          .prepare(`SELECT * FROM ${t} ORDER BY 1, 2, 3`)
          .all()
          .map((r) => JSON.stringify(r, (_k, v: unknown) => (typeof v === 'number' ? Math.round(v * 1e9) / 1e9 : v)))
          .filter((r) => !/"(runs|n|calls)":0[,}]/.test(r)),
      );
    const byTriggers = dump();
    db.transaction(() => rebuildSummary(db))();
    expect(dump()).toEqual(byTriggers);
    db.close();
  });
});
