// Pure decision after a failed attempt: retry (after how long) or stop, and why.
import type { ErrorClass } from '../../../shared/domain';
import type { Backoff } from '../workflow/schema';
import { backoffDelayS } from './backoff';

export interface Decision {
  action: 'retry' | 'fatal' | 'escalate' | 'wait' | 'done';
  reason: string;
  delayS: number;
  overrides: Record<string, unknown>;
}

/** Classes another agent attempt cannot fix: fail at once (seed 002). */
export const NON_RETRIABLE: ReadonlySet<ErrorClass> = new Set(['missing_dependency', 'permission_error', 'resource_exhaustion']);

export interface FailureFacts {
  attempt: number;
  maxRetries: number;
  errorClass: ErrorClass;
  message: string;
  /** The attempt changed nothing since the previous one (only meaningful from attempt 2). */
  noChange: boolean;
  /** An agent/API error that no retry can fix (bad key, bad request). */
  agentFatal: boolean;
  retryAfterS: number | null;
  backoff: Backoff;
  rng?: () => number;
}

export function decideAfterFailure(f: FailureFacts): Decision {
  const fatal = (reason: string): Decision => ({ action: 'fatal', reason, delayS: 0, overrides: {} });
  if (f.noChange && f.attempt > 1) {
    return fatal(`retry ${f.attempt - 1} changed nothing since the previous attempt; stopping early instead of looping`);
  }
  if (f.agentFatal) return fatal(`the agent failed in a way a retry cannot fix: ${f.message}`);
  if (NON_RETRIABLE.has(f.errorClass)) return fatal(`${f.errorClass} is not retriable: ${f.message}`);
  const retriesUsed = f.attempt - 1;
  if (retriesUsed >= f.maxRetries) {
    return fatal(f.maxRetries === 0 ? 'retries are off (max_retries: 0)' : `gave up after ${f.maxRetries} ${f.maxRetries === 1 ? 'retry' : 'retries'}`);
  }
  const next = retriesUsed + 1;
  let delayS = backoffDelayS(f.backoff, next, f.rng);
  if (f.retryAfterS !== null) delayS = Math.max(delayS, f.retryAfterS);
  return { action: 'retry', reason: `retry ${next}/${f.maxRetries} after ${f.errorClass}`, delayS, overrides: {} };
}
