// Backoff before a retry: min(base * 2^(attempt-1), max) plus up to `jitter` of it at random (rng injected so tests are exact).
import type { Backoff } from '../workflow/schema';

/** Delay in seconds before retry number `retry` (1 = the first retry). */
export function backoffDelayS(b: Backoff, retry: number, rng: () => number = Math.random): number {
  const raw = Math.min(b.base_s * 2 ** Math.max(0, retry - 1), b.max_s);
  return Math.round((raw + raw * b.jitter * rng()) * 1000) / 1000;
}
