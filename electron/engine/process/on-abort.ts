// Abort listeners for child processes. A listener added after the signal fired never runs: a Stop that lands while
// the sandbox is still wrapping a command (an await before spawn) would let the command run to its end.

/** Runs `fn` once when `signal` aborts, or at once if it already has. Returns the function that removes it. */
export function whenAborted(signal: AbortSignal | undefined, fn: () => void): () => void {
  if (!signal) return () => undefined;
  if (signal.aborted) {
    fn();
    return () => undefined;
  }
  signal.addEventListener('abort', fn, { once: true });
  return () => signal.removeEventListener('abort', fn);
}
