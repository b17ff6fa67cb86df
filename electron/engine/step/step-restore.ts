// Rebuilds a step's machine state from its stored attempts (pure): the history of every round, and the accounting of the current one.
import type { ErrorClass } from '../../../shared/domain';
import type { FailedTest } from '../gates/parse-failures';
import type { Failure } from '../failures/failure';
import { testIdentity } from '../failures/attempt-summary';
import type { Overrides } from '../policy/retry-entries';
import { initialState, isApiFault, type StepMachine } from './step-machine';
import type { AttemptRecord, StepState } from './step-state';
import type { RedTest } from './tdd';

/** A stored attempt, as much of it as the machine needs. */
export interface StoredAttempt {
  n: number;
  round: number;
  outcome: string;
  errorClass: ErrorClass | null;
  message: string | null;
  failures: FailedTest[];
  fingerprint: string | null;
  overrides: Overrides | null;
}

const failedOutcome = (o: string) => o === 'failed' || o === 'error';

export function toRecord(a: StoredAttempt): AttemptRecord {
  return {
    n: a.n,
    round: a.round,
    outcome: a.outcome,
    errorClass: a.errorClass,
    message: a.message,
    failedTests: [...new Set(a.failures.map(testIdentity))],
    fingerprint: a.fingerprint,
    apiFault: a.outcome === 'error' && a.errorClass !== null && isApiFault(a.errorClass),
    overrides: a.overrides,
  };
}

/**
 * The attempt whose failure a retried or resumed step's first prompt carries: the last one whose gates failed, else the
 * last failed one that was not `no_change` (which says nothing about the code). Interrupted attempts are not failures.
 */
export function lastRealFailure<T extends Pick<StoredAttempt, 'outcome' | 'errorClass'>>(rows: readonly T[]): T | undefined {
  const failed = rows.filter((r) => failedOutcome(r.outcome) && r.errorClass !== null && r.errorClass !== 'no_change');
  return failed.filter((r) => r.outcome === 'failed').at(-1) ?? failed.at(-1);
}

/**
 * The state of a step about to run in `round`: its history, and the accounting of `round` from its attempts in that
 * round (a parked run waking up continues its round). A round with no attempt yet starts afresh ("roundStarted").
 */
export function restoreState(
  machine: StepMachine,
  input: {
    index: number;
    stepStart: string;
    round: number;
    rows: readonly StoredAttempt[];
    lastFailure: Failure | null;
    lastDiff: string | null;
    now: Date;
    /** A test-first step's test that failed as it should (its attempt is stored as `red`): the step is past writing it. */
    red?: RedTest | null;
  },
): StepState {
  const { rows, round } = input;
  const lastRound = rows.reduce((m, r) => Math.max(m, r.round), 0);
  let s: StepState = {
    ...initialState(input.index, input.stepStart, Math.min(lastRound, round)),
    history: rows.map(toRecord),
    nextN: rows.reduce((m, r) => Math.max(m, r.n), 0) + 1,
    lastFailure: input.lastFailure,
    lastDiff: input.lastDiff,
    red: input.red ?? null,
  };
  // The test-first attempt of this round is an attempt (retry entries count it), not a failure.
  const reds = rows.filter((r) => r.round === s.round && r.outcome === 'red').length;
  s.acct = { ...s.acct, attempts: s.acct.attempts + reds, entryAttempts: s.acct.entryAttempts + reds };
  const mine = rows.filter((r) => r.round === s.round && failedOutcome(r.outcome) && r.errorClass !== null);
  for (const r of mine) {
    const c = r.errorClass!;
    const api = toRecord(r).apiFault;
    s.acct = {
      ...s.acct,
      attempts: s.acct.attempts + 1,
      entryAttempts: s.acct.entryAttempts + (api ? 0 : 1),
      classRetries: { ...s.acct.classRetries, [c]: (s.acct.classRetries[c] ?? 0) + 1 },
      classesSeen: s.acct.classesSeen.includes(c) ? s.acct.classesSeen : [...s.acct.classesSeen, c],
      fingerprints: [...s.acct.fingerprints, r.fingerprint],
      active: r.overrides ?? s.acct.active,
    };
  }
  if (round > s.round) {
    s = machine.next(s, { type: 'roundStarted', round }, input.now).state;
  }
  return s;
}
