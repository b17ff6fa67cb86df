// Formatting as the screens show it: durations in words people use, counts in the right number.
import { describe, expect, it } from 'vitest';
import { ago, duration, errorClassLabel, plural, seconds } from './format';

describe('duration', () => {
  it('says "2 s", "1 min 5 s", "2 h 5 min" (issue 13 item 8: not "2.083 s" or "1m 05s")', () => {
    expect(seconds(2.083)).toBe('2 s');
    expect(duration(65_000)).toBe('1 min 5 s');
    expect(duration(120_000)).toBe('2 min');
    expect(duration(2 * 3600_000 + 5 * 60_000)).toBe('2 h 5 min');
    expect(duration(850)).toBe('850 ms');
    expect(duration(null)).toBe('—');
  });
});

describe('counts, classes and times', () => {
  it('pluralises and labels', () => {
    expect(plural(1, 'gate')).toBe('1 gate');
    expect(plural(3, 'run')).toBe('3 runs');
    expect(errorClassLabel('test_failure')).toBe('Test failure');
  });
  it('says how long ago', () => {
    const now = Date.parse('2026-11-22T12:00:00Z');
    expect(ago('2026-11-22T11:57:00Z', now)).toBe('3 min ago');
    expect(ago('2026-11-22T11:59:50Z', now)).toBe('just now');
  });
});
