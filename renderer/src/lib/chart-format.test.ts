// Tests for the dashboard's axis labels and cost scale.
import { describe, expect, it } from 'vitest';
import { costAxisMax, moneyTick, shortDay } from './chart-format';

describe('chart-format', () => {
  it('writes days short', () => {
    expect(shortDay('2026-11-03')).toBe('Nov 3');
    expect(shortDay('2026-01-31')).toBe('Jan 31');
    expect(shortDay('not a day')).toBe('not a day');
  });

  it('writes money ticks with $ and no float noise', () => {
    expect([0, 0.1 + 0.2, 0.05, 1.5, 2.25, 20, 12.5].map(moneyTick)).toEqual(['$0', '$0.3', '$0.05', '$1.5', '$2.3', '$20', '$13']);
  });

  it('makes the cost axis tall enough for the daily budget line, on a round number', () => {
    expect(costAxisMax(0.04, 20)).toBe(25);
    expect(costAxisMax(31, 20)).toBe(50);
    expect(costAxisMax(0.04, null)).toBe(0.05);
    expect(costAxisMax(0, null)).toBe(1);
  });
});
