// Which tick of a schedule is due now, as a pure decision: the latest tick at or before `now` not yet claimed fires
// when it is on time; one missed while nothing ran (older than the grace) fires once or is skipped, as the schedule
// says. Older missed ticks collapse into that one: a machine off for a week starts one nightly run, not seven.
import { lastTickAtOrBefore } from '../../../shared/cron-text';
import type { MissedTick } from '../../../shared/contract/schedules';

/** How late a tick may be seen and still count as on time (a process polls every few seconds; a busy one can lag). */
export const ON_TIME_MS = 60_000;

export interface ScheduleFacts {
  cron: string;
  tz: string | null;
  missed: MissedTick;
  paused: boolean;
  /** The latest tick claimed (ISO), else when the schedule was made: ticks before it are not owed. */
  lastTickAt: string | null;
  createdAt: string;
}

/** `fire`: claim the tick and start a run; `skip`: claim it and start nothing (a missed tick the schedule skips); `none`: nothing due. */
export type TickDecision = { kind: 'none' } | { kind: 'fire'; tick: string; missed: boolean } | { kind: 'skip'; tick: string };

export function dueTick(s: ScheduleFacts, now: Date): TickDecision {
  if (s.paused) return { kind: 'none' };
  const latest = lastTickAtOrBefore(s.cron, s.tz, now);
  if (!latest) return { kind: 'none' };
  const after = s.lastTickAt ?? s.createdAt;
  if (latest.getTime() <= Date.parse(after)) return { kind: 'none' };
  const tick = latest.toISOString();
  const missed = now.getTime() - latest.getTime() > ON_TIME_MS;
  if (missed && s.missed === 'skip') return { kind: 'skip', tick };
  return { kind: 'fire', tick, missed };
}
