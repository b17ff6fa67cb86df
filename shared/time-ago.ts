// How long ago something happened, in words: the app's short form ("3 min ago") and the terminal's long one ("3 minutes ago").

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
