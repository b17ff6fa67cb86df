// Cron expressions through croner (a well-kept library, not a parser of our own): whether one is valid in a time zone,
// its next times, the latest tick at or before a moment, and those times in words. Pure: the app, the CLI and the engine share it.
import { Cron } from 'croner';

export type CronCheck = { ok: true; next: Date[] } | { ok: false; message: string };

/** Whether `tz` is a time zone this runtime knows (an IANA name such as Europe/Paris); null or empty: the machine's. */
export function knownTimeZone(tz: string | null | undefined): boolean {
  if (!tz) return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

function cronOf(expr: string, tz: string | null | undefined): Cron {
  return new Cron(expr.trim(), { paused: true, ...(tz ? { timezone: tz } : {}) });
}

/** Checks a cron expression and a time zone; on success its next `n` times after `from`. The message says what to fix. */
export function checkCron(expr: string, tz: string | null | undefined, from: Date, n = 5): CronCheck {
  if (!knownTimeZone(tz)) return { ok: false, message: `Unknown time zone "${tz}": give an IANA name such as Europe/Paris or America/New_York.` };
  let cron: Cron;
  try {
    cron = cronOf(expr, tz);
  } catch (e) {
    const why = e instanceof Error ? e.message.replace(/^CronPattern: /, '') : String(e);
    return { ok: false, message: `Invalid cron expression "${expr}": ${why}. Five fields: minute hour day-of-month month day-of-week, e.g. "0 3 * * 1-5".` };
  }
  const next = cron.nextRuns(n, from);
  if (!next.length) return { ok: false, message: `The cron expression "${expr}" never fires after ${from.toISOString()}.` };
  return { ok: true, next };
}

/** The latest tick at or before `at` (null: none); the expression must be valid (checkCron). */
export function lastTickAtOrBefore(expr: string, tz: string | null | undefined, at: Date): Date | null {
  const cron = cronOf(expr, tz);
  // previousRuns looks strictly before its reference: a tick at exactly `at` counts as due.
  return cron.previousRuns(1, new Date(at.getTime() + 1))[0] ?? null;
}

/** The next tick strictly after `at`. */
export function nextTickAfter(expr: string, tz: string | null | undefined, at: Date): Date | null {
  return cronOf(expr, tz).nextRun(at);
}

/** A time in words, in the schedule's zone: "Tue, 8 Dec 2026, 03:00 (Europe/Paris)". */
export function cronTimeText(d: Date, tz: string | null | undefined): string {
  const f = new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
    ...(tz ? { timeZone: tz } : {}),
  });
  return `${f.format(d)}${tz ? ` (${tz})` : ''}`;
}
