import { describe, expect, it } from 'vitest';
import { goalTable, parseGoalLine } from '../bench/goals';
import { goalLine } from '../bench/measure';

describe('the goal table npm run bench ends with', () => {
  it('reads back every goal line measure.ts prints, met or missed, and nothing else', () => {
    const printed: string[] = [];
    const log = console.log;
    console.log = (s: string) => printed.push(s);
    try {
      goalLine('P5b', 'longest event-loop stall in ms', 12.345, 50);
      goalLine('P15', 'team throughput', 1.2, 1.5, '≥');
    } finally {
      console.log = log;
    }
    const rows = [...printed, '  (3.85 ms vs 110.7 µs baseline)', 'built a store'].map(parseGoalLine).filter((r) => r !== null);
    expect(rows).toEqual([
      { id: 'P5b', what: 'longest event-loop stall in ms', ratio: '12.35', goal: '≤ 50', ok: true },
      { id: 'P15', what: 'team throughput', ratio: '1.20', goal: '≥ 1.5', ok: false },
    ]);
    const table = goalTable(rows);
    expect(table).toMatch(/P5b longest event-loop stall in ms\s+12\.35\s+≤ 50\s+ok/);
    expect(table).toMatch(/P15 team throughput\s+1\.20\s+≥ 1\.5\s+MISSED/);
    expect(table).toContain('1 of 2 goals met; MISSED: P15');
  });
});
