// Money as people read it, in the app and in the engine's sentences: cents, or four decimals where cents would hide the amount ($0.0040, not $0.00).

/** `$2.25`, `$1.50`, `$0.0040`, `$0.0059`, `$0.000020`; whole cents keep two decimals; null or not a number is `unknown`, never `$0`. */
export function money(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return 'unknown';
  const sign = v < 0 ? '-' : '';
  const a = Math.abs(v);
  const wholeCents = Math.abs(a * 100 - Math.round(a * 100)) < 1e-6;
  if (wholeCents || a >= 10) return `${sign}$${a.toFixed(2)}`;
  // Below a hundredth of a cent, two significant digits ($0.000020): four decimals would read $0.0000.
  return `${sign}$${a < 0.0001 ? a.toPrecision(2) : a.toFixed(4)}`;
}
