// Tests for the weekly report: the same numbers as the dashboard's summary for the same period, and the same improvement suggestions.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorClassLabel, plural } from '../../../shared/error-classes';
import { money } from '../../../shared/money';
import { improvementText } from './improvements';
import { loadStats } from './stats-load';
import { loadImprovements, weeklyReport } from './stats-report';
import { openDatabase } from '../store/open-store';
import { writeVariedHistory } from '../store/testing/varied-history';

const end = new Date('2026-11-21T15:30:00Z');

describe('weeklyReport', () => {
  it('states the numbers the dashboard shows for the same period', () => {
    const { db } = openDatabase(mkdtempSync(join(tmpdir(), 'ratchet-report-')));
    writeVariedHistory(db, { runs: 120, days: 40, end, seed: 4 });
    for (const days of [7, 30]) {
      const { markdown } = weeklyReport(db, days, end, { dailyUsd: 1, preset: 'conservative' });
      const s = loadStats(db, days, end, 1);
      const line = (re: RegExp) => markdown.match(re)?.slice(1) ?? [];
      expect(line(/\*\*Success rate:\*\* ([\d.]+) % \((\d+) of (\d+) finished runs?; (\d+) runs? started\)/)).toEqual([
        ((s.successRate ?? 0) * 100).toFixed(1),
        String(s.succeeded),
        String(s.succeeded + s.failed),
        String(s.runs),
      ]);
      expect(line(/\*\*Average attempts:\*\* ([\d.]+) per successful step/)).toEqual([String(s.avgAttemptsPerSuccess)]);
      expect(line(/\*\*Cost:\*\* (\$[\d.]+), of which retries (\$[\d.]+); retries rescued (\d+) step/)).toEqual([
        money(s.totalCostUsd),
        money(s.retryCostUsd),
        String(s.savedByRetries),
      ]);
      const b = s.retryBreakdown;
      const cell = (label: string) => Number(line(new RegExp(`\\| ${label} \\| (\\d+)`))[0]);
      expect([cell('none needed'), cell('1 retry'), cell('2 retries'), cell('3 or more'), cell('failed after max')]).toEqual([
        b.r0,
        b.r1,
        b.r2,
        b.r3plus,
        b.failedAfterMax,
      ]);
      const perDay = [...markdown.matchAll(/^\| (\d{4}-\d\d-\d\d) \| \$([\d.]+) \| \$([\d.]+) \|$/gm)].map((m) => [m[1], Number(m[2])]);
      expect(perDay).toEqual(s.costPerDay.map((d) => [d.day, Number(d.costUsd.toFixed(4))]));
      for (const r of s.retryReasons) expect(markdown).toContain(`${errorClassLabel(r.errorClass)}: ${plural(r.count, 'retry', 'retries')} (`);
      const improvements = loadImprovements(db, s, end, 'conservative');
      expect(improvements.length).toBeGreaterThan(0);
      for (const i of improvements) expect(markdown).toContain(`- ${improvementText(i)}`);
    }
    db.close();
  });
});
