// Times in words, for the app and the terminal alike: how long ago ("3 min ago", "3 minutes ago"), a span ("1 min 5 s"), a time to come ("at 12:05 (in 4 min)").

export type AgoStyle = 'short' | 'long';

/**
 * `iso` relative to `now` (ms). Short: "just now", "3 min ago", "2 h ago", "4 d ago", "—" when unknown. Long (the
 * terminal's resume plan): "40 seconds ago", "3 minutes ago", "5 hours ago", "4 days ago", "at an unknown time".
 */
export function ago(iso: string | null | undefined, now: number = Date.now(), style: AgoStyle = 'short'): string {
  const t = iso ? Date.parse(iso) : NaN;
  if (Number.isNaN(t)) return style === 'short' ? '—' : 'at an unknown time';
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (style === 'long') {
    if (s < 90) return `${s} seconds ago`;
    if (s < 5400) return `${Math.round(s / 60)} minutes ago`;
    if (s < 86_400 * 2) return `${Math.round(s / 3600)} hours ago`;
    return `${Math.round(s / 86_400)} days ago`;
  }
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86_400)} d ago`;
}

/** A span of time as people say it: "850 ms", "2 s", "1 min 5 s", "2 h 5 min" (whole seconds from 1 s up). */
export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
  return m % 60 ? `${Math.floor(m / 60)} h ${m % 60} min` : `${Math.floor(m / 60)} h`;
}

/** A time to come as a clock and a span: "12:05 (in 4 min)", in the local time zone. */
export function clockWords(iso: string, now: number = Date.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const at = new Date(t).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return `${at} (in ${duration(Math.max(0, t - now))})`;
}

/** A time inside a sentence: "3 min ago" when past, "at 12:05 (in 4 min)" when to come. */
export function timeWords(iso: string, now: number = Date.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  if (t <= now + 30_000) return ago(iso, now);
  return `at ${clockWords(iso, now)}`;
}
