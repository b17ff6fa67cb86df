import { describe, expect, it } from 'vitest';
import { dueTick, type ScheduleFacts } from './schedule-due';

const base: ScheduleFacts = { cron: '*/5 * * * *', tz: 'UTC', missed: 'run-once', paused: false, lastTickAt: null, createdAt: '2026-01-01T00:00:30.000Z' };
const at = (iso: string) => new Date(iso);

describe('which tick of a schedule is due', () => {
  it('nothing before the first tick after the schedule was made; the tick once its time has come, on time', () => {
    expect(dueTick(base, at('2026-01-01T00:04:59.000Z'))).toEqual({ kind: 'none' });
    expect(dueTick(base, at('2026-01-01T00:05:00.000Z'))).toEqual({ kind: 'fire', tick: '2026-01-01T00:05:00.000Z', missed: false });
    expect(dueTick({ ...base, lastTickAt: '2026-01-01T00:05:00.000Z' }, at('2026-01-01T00:09:00.000Z'))).toEqual({ kind: 'none' });
  });

  it('ticks missed while nothing ran fire once (the latest), or are skipped, as the schedule says', () => {
    const week = at('2026-01-08T10:02:00.000Z');
    expect(dueTick(base, week)).toEqual({ kind: 'fire', tick: '2026-01-08T10:00:00.000Z', missed: true });
    expect(dueTick({ ...base, missed: 'skip' }, week)).toEqual({ kind: 'skip', tick: '2026-01-08T10:00:00.000Z' });
    // Within the grace a late tick is on time, even for a schedule that skips missed ones.
    expect(dueTick({ ...base, missed: 'skip' }, at('2026-01-01T00:05:40.000Z'))).toMatchObject({ kind: 'fire', missed: false });
  });

  it('a paused schedule has nothing due; the time zone decides when a daily tick falls', () => {
    expect(dueTick({ ...base, paused: true }, at('2026-01-01T00:05:00.000Z'))).toEqual({ kind: 'none' });
    const daily = { ...base, cron: '0 3 * * *', tz: 'Europe/Paris' };
    expect(dueTick(daily, at('2026-01-01T02:00:10.000Z'))).toEqual({ kind: 'fire', tick: '2026-01-01T02:00:00.000Z', missed: false });
  });
});
