// Tests for the dashboard's axis labels and cost scale.
import { describe, expect, it } from 'vitest';
import { costAxis, dayLabel, dayTicks, moneyTick, shortDay } from './chart-format';

describe('chart-format', () => {
  it('writes days short', () => {
    expect(shortDay('2026-11-03')).toBe('Nov 3');
    expect(shortDay('2026-01-31')).toBe('Jan 31');
    expect(shortDay('not a day')).toBe('not a day');
  });

  it('writes money ticks with $ and no float noise', () => {
    expect([0, 0.1 + 0.2, 0.05, 0.5, 1.5, 2.25, 20, 12.5, 0.005].map(moneyTick)).toEqual([
      '$0',
      '$0.30',
      '$0.05',
      '$0.50',
      '$1.50',
      '$2.25',
      '$20',
      '$13',
      '$0.005',
    ]);
  });

  it('makes the cost axis tall enough for the daily budget line, with even round ticks', () => {
    expect(costAxis(0.04, 20)).toEqual({ max: 30, ticks: [0, 10, 20, 30] });
    expect(costAxis(23.18, 20)).toEqual({ max: 30, ticks: [0, 10, 20, 30] });
    expect(costAxis(31, 20)).toEqual({ max: 40, ticks: [0, 10, 20, 30, 40] });
    expect(costAxis(0.04, null)).toEqual({ max: 0.06, ticks: [0, 0.02, 0.04, 0.06] });
    expect(costAxis(0, null).max).toBe(1);
    for (const [peak, budget] of [
      [0.013, 0.5],
      [97, 20],
      [3.3, null],
      [0.2, 0.2],
    ] as const) {
      const { max, ticks } = costAxis(peak, budget);
      expect(max).toBeGreaterThanOrEqual(Math.max(peak, budget ?? 0) * 1.1 - 1e-9);
      expect(ticks.length).toBeGreaterThanOrEqual(3);
      expect(ticks.length).toBeLessThanOrEqual(6);
    }
  });
});

describe('the cost chart’s day axis (issue 34 item 10)', () => {
  it('always marks the newest day, today, at 7 and at 30 days', () => {
    const days = (n: number) => Array.from({ length: n }, (_, i) => `2026-11-${String(i + 1).padStart(2, '0')}`);
    expect(dayTicks(days(7))).toEqual(days(7));
    const month = dayTicks(days(30));
    expect(month.length).toBeLessThanOrEqual(8);
    expect(month.at(-1)).toBe('2026-11-30');
    expect(dayLabel('2026-11-30', '2026-11-30')).toBe('today');
    expect(dayLabel('2026-11-03', '2026-11-30')).toBe('Nov 3');
  });
});
