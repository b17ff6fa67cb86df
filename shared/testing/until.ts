// The one polling helper for tests (unit, integration and e2e): wait until a condition holds instead of sleeping a fixed time.
// No Node or DOM imports, so the engine's, the renderer's and the e2e tests can all use it.

export interface UntilOptions {
  /** Give up after this many milliseconds (default 30 000). */
  ms?: number;
  /** What is awaited, for the timeout message. */
  describe?: string | (() => string);
  /** Poll interval in milliseconds (default 50). */
  everyMs?: number;
}

/**
 * Polls `check` until it returns something truthy, which it returns; after the time limit it throws
 * "timed out waiting[ for <describe>]". `opts` may be just the time limit in milliseconds.
 */
export async function until<T>(check: () => T | undefined | null | false | 0 | '', opts: number | UntilOptions = {}): Promise<T> {
  const o: UntilOptions = typeof opts === 'number' ? { ms: opts } : opts;
  const ms = o.ms ?? 30_000;
  const start = Date.now();
  for (;;) {
    const v = check();
    if (v) return v;
    if (Date.now() - start > ms) {
      const what = o.describe === undefined ? '' : ` for ${typeof o.describe === 'string' ? o.describe : o.describe()}`;
      throw new Error(`timed out waiting${what}`);
    }
    await new Promise((r) => setTimeout(r, o.everyMs ?? 50));
  }
}
