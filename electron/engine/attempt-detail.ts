// What runs.attempt answers about an attempt's failures beyond what was stored: expected and got read from a failure's
// own message when the gate's parser left them empty (older attempts, hand-written messages), by the same parser.
import { extractExpectedActual } from './gates/failure-text';

interface HasValues {
  message?: string | null;
  expected?: string | null;
  actual?: string | null;
}

const isFailure = (f: unknown): f is HasValues => typeof f === 'object' && f !== null && !Array.isArray(f);

/** The failures with expected/actual filled from their message where both are missing and the message has them. */
export function withExpectedActual<T>(failures: readonly T[]): T[] {
  return failures.map((f) => {
    if (!isFailure(f) || f.expected != null || f.actual != null || !f.message) return f;
    const { expected, actual } = extractExpectedActual(f.message);
    return expected === null && actual === null ? f : { ...f, expected, actual };
  });
}
