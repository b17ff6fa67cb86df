// One API key, one rate limit: a 429 with retry-after on any run holds every run that uses the same key (any process) until then.
import { createHash } from 'node:crypto';
import { RunQueue } from '../store/run-queue';
import type { Store } from '../store/store';
import { applyRunCommands, applyRunEvent } from './apply-run-commands';
import { runLife } from './run-machine';

/** A short hash of the key and endpoint the run's agent uses (never the key itself); null without a key. */
export function apiKeyHash(env: NodeJS.ProcessEnv): string | null {
  const key = env.ANTHROPIC_API_KEY;
  if (!key) return null;
  return createHash('sha256')
    .update(`${env.ANTHROPIC_BASE_URL ?? ''}\n${key}`)
    .digest('hex')
    .slice(0, 16);
}

/** Records the hold a rate-limited call asked for (`retryAfterS` from its retry-after). */
export function recordApiHold(store: Store, deps: { apiKeyHash?: string | null; now(): Date }, runId: string, retryAfterS: number | null): void {
  const keyHash = deps.apiKeyHash ?? null;
  if (!keyHash || retryAfterS === null || retryAfterS <= 0) return;
  const until = new Date(deps.now().getTime() + retryAfterS * 1000).toISOString();
  new RunQueue(store, applyRunEvent(store, deps.now), deps.now).hold({
    keyHash,
    until,
    runId,
    reason: `rate limited (429) with retry-after ${Math.round(retryAfterS)} s`,
  });
}

/**
 * Waits out a hold another run put on this run's API key before its agent calls the API: the run shows `waiting`
 * with the time and the run that was limited ("Retry now" goes ahead anyway). Returns false when the run was stopped meanwhile.
 */
export async function waitForApiHold(
  store: Store,
  deps: { apiKeyHash?: string | null; now(): Date; sleep(ms: number, signal: AbortSignal): Promise<void> },
  runId: string,
  signal: AbortSignal,
  /** Aborted by "Retry now": the user overrides the hold for this run. */
  skip?: AbortSignal,
): Promise<boolean> {
  const keyHash = deps.apiKeyHash ?? null;
  if (!keyHash) return true;
  const queue = new RunQueue(store, applyRunEvent(store, deps.now), deps.now);
  let waited = false;
  for (let hold = queue.activeHold(keyHash); hold; hold = queue.activeHold(keyHash)) {
    const ms = Date.parse(hold.until) - deps.now().getTime();
    // The run that was limited waits by its own backoff (parked until its retry-after, or resumed early by the user).
    if (ms <= 0 || hold.runId === runId || skip?.aborted) break;
    applyRunCommands(store, runId, runLife(runId, { type: 'apiHoldStarted', until: hold.until, holdReason: hold.reason, holdRunId: hold.runId }, deps.now()));
    waited = true;
    await deps.sleep(ms, skip ? AbortSignal.any([signal, skip]) : signal).catch(() => undefined);
    if (signal.aborted) return false;
  }
  if (waited) applyRunCommands(store, runId, runLife(runId, { type: 'apiHoldEnded' }, deps.now()));
  return true;
}
