// Formatting of money, durations, token counts and times the way the screens show them.
import { reasonHead } from '../../../shared/reason-text';
import { ago, duration, timeWords } from '../../../shared/time-ago';

/** How long ago, a span, a time in a sentence: shared with the terminal (shared/time-ago.ts). */
export { ago, duration, timeWords };

/** A delay given in seconds (a backoff of 2.083 s reads "2 s"). */
export function seconds(s: number): string {
  return duration(s * 1000);
}

/** The exact local date and time, for a title on hover next to a relative time. */
export function exactTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const t = Date.parse(iso);
  return Number.isNaN(t) ? '' : new Date(t).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

export { plural } from '../../../shared/error-classes';

/** "in 58 s" style countdown text from a number of milliseconds left. */
export function countdown(msLeft: number): string {
  if (msLeft <= 0) return 'now';
  const s = Math.ceil(msLeft / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}:${String(s % 60).padStart(2, '0')}`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

export function tokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** A sentence as a box or a row starts it: with a capital (the engine's reasons start in lower case mid-sentence). */
export function sentence(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** A run's reason without the terminal's commands and raw times: see shared/reason-text.ts. */
export function reasonLine(reason: string | null | undefined, now: number = Date.now()): string {
  return reasonHead(reason, (iso) => timeWords(iso, now));
}

export function percent(v: number | null | undefined, digits = 0): string {
  if (v === null || v === undefined) return '—';
  return `${(v * 100).toFixed(digits)} %`;
}

export function shortSha(sha: string | null | undefined): string {
  return sha ? sha.slice(0, 8) : '—';
}

/** The last path segment, for repositories shown by name. */
export function baseName(path: string): string {
  const parts = path.split(/[\\/]+/).filter(Boolean);
  return parts.at(-1) ?? path;
}

export function humanize(code: string): string {
  return code.replace(/_/g, ' ');
}

/** Money with enough digits to tell small amounts apart ($0.0040, $0.0059; whole cents as $1.50): budgets and what runs spent against them. The engine's sentences use the same one. */
export { money } from '../../../shared/money';
/** An error class as a readable label ("Test failure"); mid-sentence in lower case ("a test failure"). */
export { errorClassLabel } from '../../../shared/error-classes';
