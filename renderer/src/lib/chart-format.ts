// Axis labels and scales for the dashboard's charts: short dates ("Nov 3"), money ticks with $, and a cost axis tall enough for the daily budget line.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "2026-11-03" → "Nov 3" (the day is a local calendar day already: no time zone conversion). */
export function shortDay(day: string): string {
  const m = /^(\d{4})-(\d\d)-(\d\d)$/.exec(day);
  if (!m) return day;
  return `${MONTHS[Number(m[2]) - 1] ?? m[2]} ${Number(m[3])}`;
}

/** A money tick: "$0", "$0.25", "$1.50", "$20", "$0.005" — no float noise, cents where there are any. */
export function moneyTick(v: number): string {
  if (!Number.isFinite(v)) return '';
  const abs = Math.abs(v);
  if (Number.isInteger(v) || abs >= 10) return `$${Math.round(v)}`;
  if (abs >= 0.01) return `$${v.toFixed(2)}`;
  return `$${Number(v.toFixed(4))}`;
}

/**
 * The cost axis: evenly spaced round ticks from $0 up past the highest day and the daily budget (so the budget line is
 * always drawn, with room above it), four or five of them.
 */
export function costAxis(peakUsd: number, budgetUsd: number | null): { max: number; ticks: number[] } {
  const top = Math.max(peakUsd, budgetUsd ?? 0) * 1.1;
  if (top <= 0) return { max: 1, ticks: [0, 0.25, 0.5, 0.75, 1] };
  const rough = top / 4;
  const unit = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((k) => k * unit).find((n) => n >= rough) ?? 10 * unit;
  const n = Math.ceil(top / step - 1e-9);
  const ticks = Array.from({ length: n + 1 }, (_, i) => Number((i * step).toPrecision(6)));
  return { max: ticks[ticks.length - 1]!, ticks };
}

/** A local calendar day as the statistics name it ("2026-11-03"). */
export function localDay(at: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${p(at.getMonth() + 1)}-${p(at.getDate())}`;
}

/**
 * The days the cost chart labels: at most `max`, evenly spaced counting back from the last day, so the newest day —
 * today — always has its mark (issue 34 item 10: the 30-day axis had no today).
 */
export function dayTicks(days: readonly string[], max = 8): string[] {
  const step = Math.max(1, Math.ceil(days.length / max));
  const out: string[] = [];
  for (let i = days.length - 1; i >= 0; i -= step) out.unshift(days[i]!);
  return out;
}

/** A day on the cost chart's axis: "today" for today, else "Nov 3". */
export function dayLabel(day: string, today: string): string {
  return day === today ? 'today' : shortDay(day);
}
