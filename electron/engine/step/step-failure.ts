// The step machine after a failed attempt: record it, ask the validators, decide (retry, wait, park, give up), and prepare the retry.
import type { ErrorClass } from '../../../shared/domain';
import { errorClassLabel } from '../../../shared/error-classes';
import type { Failure } from '../failures/failure';
import { attemptsSummary, testIdentity } from '../failures/attempt-summary';
import { decideAfterFailure } from '../policy/decide';
import { fingerprint } from '../failures/fingerprint';
import type { StepKit, Transition } from './step-kit';
import { conflictFilesIn, remainingIssues } from './step-prompt';
import type { FinishData, StepCommand, StepState } from './step-state';

/** Failures of the agent's API or process: their class limits, retry-after and parking decide, whatever the retry entries say. */
export const isApiFault = (c: ErrorClass): boolean => c === 'rate_limit' || c === 'api_error' || c === 'crash';

const inSeconds = (now: Date, s: number): string => new Date(now.getTime() + s * 1000).toISOString();

/** The attempt failed: record it, then ask the validators (when the retry list has any) or decide. */
export function onFailure(kit: StepKit, s: StepState, failure: Failure, apiFault: boolean, now: Date, knownFiles: readonly string[] = []): Transition {
  const { cfg } = kit;
  const cur = s.current!;
  // A sandbox violation is not a failure of the code: nothing to fingerprint, no validator to ask (they would run in the worktree it concerns).
  const untouchable = failure.errorClass === 'sandbox_violation';
  const fp =
    failure.agentFatal || untouchable || failure.errorClass === 'no_change' || failure.errorClass === 'empty_attempt'
      ? null
      : fingerprint({ errorClass: failure.errorClass, failures: failure.failures, output: failure.gate?.output ?? failure.message, root: cfg.worktree });
  const files = failure.errorClass === 'git_conflict' ? [...knownFiles, ...conflictFilesIn(`${failure.message}\n${failure.gate?.output ?? ''}`)] : [];
  const outcome: FinishData['outcome'] = failure.gate ? 'failed' : 'error';
  const record = {
    n: cur.n,
    round: s.round,
    outcome,
    errorClass: failure.errorClass,
    message: failure.message,
    failedTests: [...new Set(failure.failures.map(testIdentity))],
    fingerprint: fp,
    apiFault,
    overrides: null,
  };
  const next: StepState = {
    ...s,
    history: [...s.history, record],
    current: { ...cur, failure, fingerprint: fp },
    acct: { ...s.acct, conflictFiles: [...new Set([...s.acct.conflictFiles, ...files])] },
  };
  const commands: StepCommand[] = [
    {
      kind: 'finishAttempt',
      attemptId: cur.attemptId!,
      finish: kit.finishData(next, {
        outcome,
        errorClass: failure.errorClass,
        errorMessage: failure.message,
        summary: `${errorClassLabel(failure.errorClass)}: ${failure.message}`,
        failures: failure.failures,
        fingerprint: fp,
      }),
    },
  ];
  const hasValidators = cfg.policy.entries.some((e) => e.validate !== undefined);
  if (hasValidators && !apiFault && !untouchable && failure.errorClass !== 'no_change' && failure.errorClass !== 'empty_attempt') {
    return {
      state: { ...next, phase: 'validating' },
      commands: [...commands, { kind: 'validate', attemptId: cur.attemptId!, failure, agent: kit.agentConfig(s) }],
    };
  }
  const d = decide(kit, next, new Map(), apiFault, now);
  return { state: d.state, commands: [...commands, ...d.commands] };
}

export function decide(kit: StepKit, s: StepState, validated: ReadonlyMap<number, boolean>, apiFault: boolean, now: Date): Transition {
  const { cfg, finish } = kit;
  const cur = s.current!;
  const failure = cur.failure!;
  const acct = s.acct;
  const inRound = { attempts: acct.attempts + 1, entryAttempts: acct.entryAttempts + (apiFault ? 0 : 1) };
  let sameInARow = 1;
  for (let i = acct.fingerprints.length - 1; i >= 0 && cur.fingerprint !== null && acct.fingerprints[i] === cur.fingerprint; i--) sameInARow++;
  const decision = decideAfterFailure({
    policy: cfg.policy,
    attempt: inRound.entryAttempts,
    apiFault,
    roundAttempts: inRound.attempts,
    errorClass: failure.errorClass,
    message: failure.message,
    classRetriesUsed: acct.classRetries[failure.errorClass] ?? 0,
    agentFatal: failure.agentFatal,
    retryAfterS: failure.retryAfterS,
    failedGates: failure.failedGates,
    validated,
    active: acct.active,
    sameFailureInARow: sameInARow,
    rng: kit.rng(),
    unresolved: failure.errorClass === 'no_change' ? (s.lastFailure?.errorClass ?? null) : null,
  });
  const history = s.history.map((h, i) => (i === s.history.length - 1 ? { ...h, overrides: { ...decision.overrides } } : h));
  const nextAcct = {
    ...acct,
    ...inRound,
    classRetries: { ...acct.classRetries, [failure.errorClass]: (acct.classRetries[failure.errorClass] ?? 0) + 1 },
    classesSeen: acct.classesSeen.includes(failure.errorClass) ? acct.classesSeen : [...acct.classesSeen, failure.errorClass],
    fingerprints: [...acct.fingerprints, cur.fingerprint],
    active: decision.action === 'retry' ? decision.overrides : acct.active,
  };
  const record: StepCommand = {
    kind: 'recordDecision',
    attemptId: cur.attemptId!,
    n: cur.n,
    decision: { ...decision, overrides: { ...decision.overrides } },
    fingerprint: cur.fingerprint,
  };
  const s2: StepState = { ...s, history, acct: nextAcct };

  if (decision.action === 'fatal' || decision.action === 'escalate' || decision.action === 'done') {
    const mine = history.filter((h) => h.round === s.round);
    const files = nextAcct.conflictFiles.length ? `; conflicting files: ${nextAcct.conflictFiles.join(', ')}` : '';
    const reason = `step ${cfg.index} "${cfg.step.title}" ${decision.action === 'escalate' ? 'needs you' : 'failed'}: ${decision.reason}${files}`;
    // An attempt that changed nothing (or was cut short) fixed nothing: what remains is the last real failure.
    const stillFailing = (failure.errorClass === 'no_change' || failure.errorClass === 'empty_attempt' || apiFault) && s.lastFailure ? s.lastFailure : failure;
    const summary = attemptsSummary(mine, remainingIssues(stillFailing), { earlier: history.length - mine.length, said: reason });
    const counts = { attempts: cur.k, maxAttempts: cur.of, why: `${decision.reason}${files}` };
    return finish(
      s2,
      decision.action === 'escalate'
        ? { kind: 'escalate', reason, summary, ...counts }
        : { kind: 'fatal', reason, summary, errorClass: failure.errorClass, ...counts },
      [record],
    );
  }
  if (decision.action === 'wait') {
    return finish(s2, { kind: 'parked', reason: decision.reason, wakeAt: inSeconds(now, decision.delayS) }, [record]);
  }
  // A retry: what this attempt left becomes what the next one is told about. Neither no_change nor an API fault
  // replaces a real failure: the next attempt still needs the gate output and the failing tests.
  const keepReal = (failure.errorClass === 'no_change' || failure.errorClass === 'empty_attempt' || apiFault) && s.lastFailure !== null;
  const keptNote = !keepReal
    ? null
    : apiFault
      ? `The previous attempt was cut short (${failure.errorClass}: ${failure.message}); its changes are still in the worktree.`
      : failure.errorClass === 'empty_attempt'
        ? `The previous attempt changed no files, so the failure below is still there: ${failure.message}.`
        : null;
  const retrying: StepState = {
    ...s2,
    lastTree: cur.tree,
    lastFailure: keepReal ? s.lastFailure : failure,
    notes: keptNote ? [...s.notes, keptNote] : s.notes,
    lastDiff: cur.diff,
    strategy: decision.strategy ?? null,
    current: null,
  };
  if (decision.delayS > 0) {
    return {
      state: { ...retrying, phase: 'waiting' },
      commands: [record, { kind: 'sleep', delayS: decision.delayS, wakeAt: inSeconds(now, decision.delayS), reason: decision.reason }],
    };
  }
  const after = afterWait(retrying);
  return { state: after.state, commands: [record, ...after.commands] };
}

/** Before the next attempt: a git conflict first gets its one rebase onto the moved base. */
export function afterWait(s: StepState): Transition {
  if (s.lastFailure?.errorClass === 'git_conflict') {
    if (!s.acct.rebaseTried) {
      return { state: { ...s, phase: 'rebasing', acct: { ...s.acct, rebaseTried: true } }, commands: [{ kind: 'abortInProgress' }, { kind: 'rebase' }] };
    }
    return { state: { ...s, phase: 'budget' }, commands: [{ kind: 'abortInProgress' }, { kind: 'checkBudget' }] };
  }
  return { state: { ...s, phase: 'budget' }, commands: [{ kind: 'checkBudget' }] };
}
