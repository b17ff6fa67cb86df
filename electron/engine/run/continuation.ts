// How a retry or resume continues a run, decided without git or the store: which recoveries run (in order), what the user
// and the agent are told, which step is skipped, whether a new retry round starts, the turn budget. run-recovery.ts
// carries the decision out (git and store writes).
import type { RunStatus, StepStatus } from '../../../shared/domain';
import type { RecoveryOption, RequiredAction, ResumePlan } from './resume-plan';
import { retryTurnBudget } from './reconcile';

export interface ContinuationInput {
  kind: 'retry' | 'resume';
  run: { status: RunStatus; wakeAt: string | null; baseBranch: string | null; baseCommit: string };
  plan: ResumePlan;
  baseConflicts: readonly string[];
  /** How many times the next step failed across runs (counted only at 3 or more). */
  repeatedFailures: number;
  choices?: Partial<Record<RequiredAction['code'], RecoveryOption>>;
  skipStep?: boolean;
  /** The run's steps as the store has them before any of this. */
  steps: ReadonlyArray<{ index: number; status: StepStatus }>;
  maxTurns: number;
}

/** What to do, in order: a note for the user, a recovery to carry out (its note comes from doing it), a warning logged. */
export type ContinuationStep =
  | { kind: 'note'; text: string }
  | { kind: 'recover'; action: RequiredAction; option: RecoveryOption }
  | { kind: 'baseMoved'; text: string }
  | { kind: 'repeatedFailures'; step: number | null; text: string }
  | { kind: 'skip'; step: number };

export interface Continuation {
  /** Set when the run cannot continue (the plan is blocked). */
  refused: { code: 'no_plan' | 'no_branch'; message: string } | null;
  steps: ContinuationStep[];
  /** What the agent is told before it continues. */
  agentNotes: string[];
  /** Steps that go back to pending (failed, or running when its process died); their attempts stay as history. */
  toPending: number[];
  /** A retry, or a resume not at a parked run's wake time, starts a new round: the step's retry accounting starts afresh. */
  newRound: boolean;
  turnBudget: number;
}

export function decideContinuation(i: ContinuationInput): Continuation {
  const { plan, run } = i;
  if (plan.blocked) {
    const blocker = plan.required.find((r) => (r.code === 'no_branch' && r.options.length === 1) || r.code === 'no_plan');
    const refused =
      blocker?.code === 'no_plan'
        ? { code: 'no_plan' as const, message: 'No plan found.' }
        : { code: 'no_branch' as const, message: 'Cannot retry — no branch from previous execution' };
    return { refused, steps: [], agentNotes: [], toPending: [], newRound: false, turnBudget: i.maxTurns };
  }
  const steps: ContinuationStep[] = plan.required.map((action) =>
    action.code === 'missing_commits'
      ? { kind: 'note', text: action.message }
      : { kind: 'recover', action, option: i.choices?.[action.code] ?? action.safeDefault },
  );
  // The base moved and conflicts: warn, proceed, and let the agent work towards a clean merge (it is told).
  const agentNotes: string[] = [];
  if (i.baseConflicts.length) {
    const files = i.baseConflicts.join(', ');
    steps.push({
      kind: 'baseMoved',
      text: `The base branch ${run.baseBranch} moved since this run started, and merging it would conflict in: ${files}. The run goes on from its own base; the agent is asked to resolve it, and the run does not succeed while the conflict is still there.`,
    });
    agentNotes.push(
      `The base branch ${run.baseBranch} moved since this run started, and merging it into this branch would conflict in: ${files}. ` +
        `See its side with \`git diff ${run.baseCommit.slice(0, 10)}..${run.baseBranch} -- ${i.baseConflicts.join(' ')}\` (and \`git show ${run.baseBranch}:<file>\`). ` +
        "Resolve the conflict in this step: change those files on this branch so they take in the base branch's changes and the merge is clean " +
        '(the run is not done while merging the base still conflicts); do not merge or rebase yourself (Ratchet handles git).',
    );
  }
  if (i.repeatedFailures) {
    steps.push({
      kind: 'repeatedFailures',
      step: plan.nextStep,
      text: `Step ${plan.nextStep} has failed ${i.repeatedFailures} times across runs; consider revising the plan.`,
    });
  }
  const skipped = i.skipStep && plan.nextStep !== null ? plan.nextStep : null;
  if (skipped !== null) steps.push({ kind: 'skip', step: skipped });
  const after = i.steps.map((s) => ({
    index: s.index,
    status: s.index === skipped ? 'skipped' : s.status === 'failed' || s.status === 'running' ? 'pending' : s.status,
  }));
  const counted = after.filter((s) => s.status !== 'skipped');
  return {
    refused: null,
    steps,
    agentNotes,
    toPending: i.steps.filter((s) => s.index !== skipped && (s.status === 'failed' || s.status === 'running')).map((s) => s.index),
    // A parked run resuming at its wake_at (rate limit, daily budget) continues its round, so its class limits still hold.
    newRound: i.kind === 'retry' || !(run.status === 'waiting' && run.wakeAt !== null),
    turnBudget: retryTurnBudget(counted.filter((s) => s.status !== 'succeeded').length, counted.length, i.maxTurns),
  };
}
