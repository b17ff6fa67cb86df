// The step's state machine: next(state, event, now) → { state, commands }. Pure: no git, no store, no clock but `now`; the step runner's adapters carry out the commands.
// Its parts: step-kit (shared helpers), step-attempt (starting an attempt), step-events (the events' handlers), step-failure (deciding after a failure), step-tdd (test first).
import { checkBudget } from '../policy/budget';
import { beginAttempt, withArtifacts } from './step-attempt';
import { onAgentFinished, onCommitted, onGatesFinished, onRebased, onStopped, onWorktreeViolated } from './step-events';
import { afterWait, decide, isApiFault, onFailure } from './step-failure';
import { createStepKit, NO_FAILURE_FIELDS, type Transition } from './step-kit';
import { emptyAccounting, type MachineConfig, type StepCommand, type StepEvent, type StepState } from './step-state';

export type { Transition } from './step-kit';
export { EMPTY_ATTEMPT_MESSAGE } from './step-events';
export { isApiFault } from './step-failure';

export function initialState(index: number, stepStart: string, round = 0): StepState {
  return {
    index,
    round,
    phase: 'idle',
    stepStart,
    nextN: 1,
    history: [],
    acct: emptyAccounting(),
    lastFailure: null,
    lastDiff: null,
    lastTree: null,
    lastSession: null,
    prev: undefined,
    errorLog: [],
    strategy: null,
    notes: [],
    current: null,
    outcome: null,
    red: null,
  };
}

export interface StepMachine {
  next(state: StepState, event: StepEvent, now: Date): Transition;
}

export function createStepMachine(cfg: MachineConfig): StepMachine {
  // The event's own random draw while next() handles it (synchronous: set on entry, cleared on exit).
  let drawn: (() => number) | undefined;
  const kit = createStepKit(cfg, () => drawn ?? cfg.rng);

  function next(s: StepState, e: StepEvent, now: Date): Transition {
    const draw = e.draw;
    drawn = draw === undefined ? undefined : () => draw;
    try {
      return handle(s, e, now);
    } finally {
      drawn = undefined;
    }
  }

  function handle(s: StepState, e: StepEvent, now: Date): Transition {
    switch (e.type) {
      case 'start':
        return { state: { ...s, phase: 'budget' }, commands: [{ kind: 'checkBudget' }] };
      case 'roundStarted':
        // The step gets a new chance: limits, exit, on_repeat and "attempt k of n" count from here. The last real
        // failure stays for the prompt; the first attempt is not refused for changing nothing (the user may have
        // fixed the cause outside the tree).
        return { state: { ...s, round: e.round, acct: emptyAccounting(), lastTree: null, lastSession: null, strategy: null, notes: [] }, commands: [] };
      case 'budgetChecked': {
        // Budgets are checked before every attempt (cost control).
        const verdict = checkBudget(e.facts);
        if (!verdict.ok) {
          return kit.finish(s, { kind: 'budget', budget: verdict.kind, reason: verdict.reason, wakeAt: verdict.kind === 'daily' ? e.dayNext : null });
        }
        const alerts: StepCommand[] = verdict.alerts.map((a) => ({ kind: 'budgetAlert', budget: a.kind, spentUsd: a.spent, limitUsd: a.limit }));
        const t = beginAttempt(kit, s);
        return { state: t.state, commands: [...alerts, ...t.commands] };
      }
      case 'agentFinished':
        return onAgentFinished(kit, s, e, now);
      case 'budgetStopped': {
        const s1 = withArtifacts(s, e);
        const closed: StepCommand = {
          kind: 'finishAttempt',
          attemptId: e.attemptId,
          finish: kit.finishData(s1, { outcome: 'interrupted', errorMessage: e.reason }),
        };
        return kit.finish(s1, { kind: 'budget', budget: e.budget, reason: e.reason, wakeAt: e.wakeAt }, [closed]);
      }
      case 'apiError':
        return onFailure(
          kit,
          withArtifacts(s, e),
          { ...NO_FAILURE_FIELDS, errorClass: e.errorClass, message: e.message, agentFatal: !e.retriable, retryAfterS: e.retryAfterS },
          isApiFault(e.errorClass),
          now,
        );
      case 'gatesFinished':
        return onGatesFinished(kit, s, e, now);
      case 'validated':
        return decide(kit, s, new Map(e.results), false, now);
      case 'committed':
        return onCommitted(kit, s, e);
      case 'commitConflicted':
        return onFailure(
          kit,
          s,
          { ...NO_FAILURE_FIELDS, errorClass: 'git_conflict', message: `${e.message}; conflicting files: ${e.files.join(', ')}`, failedGates: [] },
          false,
          now,
          e.files,
        );
      case 'timerFired':
        return afterWait(s);
      case 'rebased':
        return onRebased(kit, s, e);
      case 'worktreeViolated':
        return onWorktreeViolated(kit, s, e, now);
      case 'stopped':
        return onStopped(kit, s, e);
    }
  }

  return { next };
}
