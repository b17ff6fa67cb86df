// The step machine's test-first (TDD) parts: the test attempt's prompt, its rule broken, and its test failing as it should (red).
import type { Failure } from '../failures/failure';
import { hintsFor } from '../failures/classify';
import { NO_FAILURE_FIELDS, unfailedRecord, type StepKit, type Transition } from './step-kit';
import type { StepCommand, StepState } from './step-state';
import { implementInstructions, keepTestNote, redSummary, testFirstInstructions, type RedTest } from './tdd';

/** The prompt of a test-first step's attempt: the test-only rule while writing the test, then the failing test to make pass. */
export function tddPrompt(kit: StepKit, s: StepState, prompt: string, session: 'new' | 'continue'): string {
  const { tdd } = kit.cfg;
  if (!tdd) return prompt;
  if (s.red === null) return `${prompt}\n\n${testFirstInstructions(tdd)}`;
  // The first implementation attempt: in the test's session it needs only what to do now; in a new one, the step too.
  if (s.lastFailure === null) return session === 'continue' ? implementInstructions(s.red) : `${prompt}\n\n${implementInstructions(s.red)}`;
  return `${prompt}\n\n${keepTestNote(s.red)}`;
}

/** A test-first violation: retried like a test failure (its limit follows test_failure's), the rule said in the agent's context. */
export function violation(kit: StepKit, message: string): Failure {
  return {
    ...NO_FAILURE_FIELDS,
    errorClass: 'tdd_violation',
    message,
    hints: hintsFor('tdd_violation', '', []),
    failedGates: [...(kit.cfg.tdd?.gates ?? [])],
  };
}

/** The test attempt's gates failed on its code, as they should: the attempt is kept as `red`, and the implementation starts. */
export function onRed(kit: StepKit, s: StepState, failure: Failure, commands: StepCommand[]): Transition {
  const cur = s.current!;
  const red: RedTest = {
    n: cur.n,
    testFiles: cur.testFiles ?? [],
    failures: failure.failures,
    output: (failure.gate?.output ?? failure.message).slice(-8000),
    gate: failure.gate?.name ?? null,
    tree: cur.tree,
  };
  const summary = redSummary(red);
  const record = unfailedRecord(s, cur.n, 'red');
  const next: StepState = {
    ...s,
    phase: 'budget',
    red,
    history: [...s.history, record],
    // An attempt of the round (retry entries' `attempt: N` and `exit: N` count it), not a failure: no class retry is spent.
    acct: { ...s.acct, attempts: s.acct.attempts + 1, entryAttempts: s.acct.entryAttempts + 1 },
    lastTree: cur.tree,
    lastDiff: cur.diff,
    lastFailure: null,
    strategy: null,
    current: null,
  };
  return {
    state: next,
    commands: [
      ...commands,
      { kind: 'finishAttempt', attemptId: cur.attemptId!, finish: kit.finishData(s, { outcome: 'red', summary, failures: failure.failures }) },
      { kind: 'checkBudget' },
    ],
  };
}
