// Axis labels and scales for the dashboard's charts: short dates ("Nov 3"), money ticks with $, and a cost axis tall enough for the daily budget line.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "2026-11-03" → "Nov 3" (the day is a local calendar day already: no time zone conversion). */
export function shortDay(day: string): string {
  const m = /^(\d{4})-(\d\d)-(\d\d)$/.exec(day);
  if (!m) return day;
  return `${MONTHS[Number(m[2]) - 1] ?? m[2]} ${Number(m[3])}`;
}

/** A money tick: "$0", "$0.25", "$1.5", "$20" — no float noise, as few digits as the step needs. */
export function moneyTick(v: number): string {
  if (!Number.isFinite(v)) return '';
  if (v === 0) return '$0';
  const abs = Math.abs(v);
  const digits = abs >= 10 ? 0 : abs >= 1 ? 1 : abs >= 0.1 ? 2 : 3;
  return `$${Number(v.toFixed(digits))}`;
}

/**
 * The top of the cost axis: the highest day and the daily budget both fit (so the budget line is always drawn), with
 * room above for the line's label, rounded to a number the ticks divide evenly.
 */
export function costAxisMax(peakUsd: number, budgetUsd: number | null): number {
  const top = Math.max(peakUsd, budgetUsd ?? 0) * 1.15;
  if (top <= 0) return 1;
  const step = 10 ** Math.floor(Math.log10(top));
  const nice = [1, 2, 2.5, 5, 10].map((k) => k * step).find((n) => n >= top) ?? 10 * step;
  return Number(nice.toPrecision(6));
}
