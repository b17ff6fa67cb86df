// Pure decision after a failed attempt (the decision tree, with the workflow's retry entries): retry, wait, escalate or stop, and why.
import type { ErrorClass } from '../../../shared/domain';
import { errorClassLabel, plural } from '../../../shared/error-classes';
import { backoffDelayS } from './backoff';
import { ESCALATE_TO_USER, MAX_ATTEMPTS_PER_STEP, NON_RETRIABLE, type Policy } from './policy';
import { applyEntries, type Overrides } from './retry-entries';

export interface Decision {
  action: 'retry' | 'fatal' | 'escalate' | 'wait' | 'done';
  reason: string;
  delayS: number;
  /** Overrides active for the next attempt (sticky). */
  overrides: Overrides;
  /**
   * on_repeat's change of strategy (the default, `new_session`): the next attempt starts a new session and its prompt
   * carries this hint. Not sticky: it applies to that one attempt.
   */
  strategy?: { freshSession: true; hint: string };
}

export interface FailureFacts {
  policy: Policy;
  /**
   * The attempt that just failed, counted as retry entries count them: attempts of this round (a retry or resume
   * starts at 1 again) that were not API faults.
   */
  attempt: number;
  /**
   * The failure is the agent's API or process (rate_limit, api_error, a crash of the agent's process), not a gate's:
   * its class limits, retry-after and parking decide, whatever the retry entries say.
   */
  apiFault?: boolean;
  /** Every attempt of this round so far, API faults included (for the hard cap). */
  roundAttempts?: number;
  errorClass: ErrorClass;
  message: string;
  /** Retries this step already spent on this class (before this failure). */
  classRetriesUsed: number;
  /** An agent/API error that no retry can fix (bad key, bad request). */
  agentFatal: boolean;
  retryAfterS: number | null;
  failedGates: readonly string[];
  validated?: ReadonlyMap<number, boolean>;
  /** Overrides active on the attempt that just failed. */
  active: Overrides;
  /** The class of the last real failure still standing when this attempt changed nothing (a git conflict left untouched). */
  unresolved?: ErrorClass | null;
  /** How many attempts in a row (this one included) ended with this same failure fingerprint. */
  sameFailureInARow: number;
  rng?: () => number;
}

/** The class as it reads mid-sentence ("test failure", "API error"). */
const cls = (c: string) => errorClassLabel(c, { midSentence: true });
/** With its article: "a test failure", "an API error". */
const aCls = (c: string) => `${/^[aeiouAEIOU]/.test(cls(c)) ? 'an' : 'a'} ${cls(c)}`;

export function decideAfterFailure(f: FailureFacts): Decision {
  const { policy } = f;
  const stop = (action: 'fatal' | 'escalate', reason: string): Decision => ({ action, reason, delayS: 0, overrides: f.active });
  if (f.agentFatal) return stop('fatal', `the agent failed in a way a retry cannot fix: ${f.message}`);
  // A conflict the agent left untouched is the user's to resolve (git conflicts are escalated), not a code failure.
  if (f.errorClass === 'no_change' && f.unresolved === 'git_conflict') {
    return stop(
      'escalate',
      `retry ${f.attempt - 1} changed nothing and the git conflict is still there; it needs you: resolve the conflicting files in the worktree, then resume`,
    );
  }
  if (f.errorClass === 'no_change')
    return stop('fatal', `retry ${f.attempt - 1} changed nothing since the previous attempt; stopping early instead of looping`);
  if (NON_RETRIABLE.has(f.errorClass)) return stop('fatal', `${errorClassLabel(f.errorClass)} is not retriable: ${f.message}`);
  if (policy.allowRetryOn && !policy.allowRetryOn.has(f.errorClass)) {
    return stop('fatal', `${errorClassLabel(f.errorClass)} is not among the classes allowed a retry (allow_retry_on: ${[...policy.allowRetryOn].join(', ')})`);
  }
  const api = f.apiFault === true;
  const next = f.attempt + 1;
  if (!api && policy.exitAt !== null && next >= policy.exitAt)
    return stop('fatal', `exit: ${policy.exitAt} reached (the retry list ends the step at attempt ${policy.exitAt})`);
  if ((f.roundAttempts ?? f.attempt) + 1 > MAX_ATTEMPTS_PER_STEP) return stop('fatal', `${MAX_ATTEMPTS_PER_STEP} attempts is the most a step gets`);
  const repeated = !api && f.sameFailureInARow >= policy.onRepeat.after;
  if (repeated && (policy.onRepeat.action === 'stop' || policy.onRepeat.action === 'escalate')) {
    const reason = `the same failure came back ${f.sameFailureInARow} attempts in a row`;
    return policy.onRepeat.action === 'escalate' ? stop('escalate', `${reason}; it needs you`) : stop('fatal', `${reason}; stopping early`);
  }
  const limit = policy.limits[f.errorClass];
  if (f.classRetriesUsed >= limit) {
    const why =
      limit === 0
        ? `${errorClassLabel(f.errorClass)} gets no retries`
        : `gave up after ${plural(limit, `${cls(f.errorClass)} retry`, `${cls(f.errorClass)} retries`)}`;
    return ESCALATE_TO_USER.has(f.errorClass) ? stop('escalate', `${why}; it needs you: ${f.message}`) : stop('fatal', why);
  }

  let overrides = f.active;
  if (policy.entries.length) {
    const r = applyEntries(policy.entries, f.active, { attempt: next, failedGates: f.failedGates, validated: f.validated ?? new Map() });
    const sticky = Object.keys(f.active).some((k) => k !== 'gateTimeoutMultiplier');
    // A list of only `attempt: N` and `exit: N` entries filters no failure (seed 004's table: attempt 3, attempt 5, exit 8):
    // it is the basic retry, every gate failure retried with the automatic context, each entry's overrides from its
    // attempt on. Only `not` and `validate` entries choose which failures are retried.
    const basic = policy.entries.every((e) => e.exit !== undefined || e.attempt !== undefined);
    // Entries decide about gate failures; an API fault is retried by its class whether or not an entry applies.
    if (r.applied.length === 0 && !sticky && !api && !basic) return stop('fatal', 'no retry entry applies to this failure');
    overrides = r.overrides;
  }
  if (f.errorClass === 'timeout') overrides = { ...overrides, gateTimeoutMultiplier: (f.active.gateTimeoutMultiplier ?? 1) * 2 };

  const retry = f.classRetriesUsed + 1;
  let delayS = backoffDelayS(policy.backoff, retry, f.rng);
  if (f.retryAfterS !== null) delayS = Math.max(delayS, f.retryAfterS);
  // The n of "retry k of n" is what can really come: `exit: N` ends the step at attempt N, so at most N - 1 attempts
  // run (docs/retries-and-resume.md); with `exit: 3` one retry is possible, not the class's 3.
  const byExit = !api && policy.exitAt !== null ? f.classRetriesUsed + (policy.exitAt - 1 - f.attempt) : Infinity;
  const label = `retry ${retry} of ${Math.min(limit, byExit)} after ${aCls(f.errorClass)}`;
  if (f.errorClass === 'rate_limit' && delayS > policy.parkAfterS) {
    return { action: 'wait', reason: `${label}: the API asks to wait ${Math.round(delayS)} s; the run is parked until then`, delayS, overrides };
  }
  const escalated = overrides.agent?.model && overrides.agent.model !== f.active.agent?.model ? `, escalating to ${overrides.agent.model}` : '';
  if (repeated && policy.onRepeat.action === 'new_session') {
    const hint = `The same failure came back ${f.sameFailureInARow} times in a row: the approach so far is not working. Start again from the failing test and the code it exercises, and try a different fix.`;
    return {
      action: 'retry',
      reason: `${label}${escalated}; the same failure came back ${f.sameFailureInARow} times, so the next attempt starts a new session`,
      delayS,
      overrides,
      strategy: { freshSession: true, hint },
    };
  }
  return { action: 'retry', reason: `${label}${escalated}`, delayS, overrides };
}
