// The sentences a run's status reason says when a step ends it: failed, needs you, stopped, or paused by auto-progress.
import { nextSteps } from '../failures/attempt-summary';
import type { StepOutcome } from './step-outcome';

/** Capitalised: the reason starts a sentence ("Step 2 … needs you: …"). */
const sentence = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * The reason of a run a step failed (`fatal`) or handed to the user (`escalate`): the engine's one-line reason, what to
 * do, the attempts summary — which names an error the first line already states instead of repeating it — and, when
 * the run is known, the next steps that will work for it.
 */
export function runEndReason(
  outcome: Extract<StepOutcome, { kind: 'fatal' | 'escalate' }>,
  rescued = '',
  run?: { runId: string; committedSteps: number },
): string {
  const first =
    outcome.kind === 'escalate'
      ? `${sentence(outcome.reason)}. The attempts are kept; revise the plan or fix the setup, then resume.`
      : `${sentence(outcome.reason)}.${rescued}`;
  const next = run ? `\n\n${nextSteps({ ...run, kind: outcome.kind }).join('\n')}` : '';
  return `${first}\n${outcome.summary}${next}`;
}

export type AutoProgressPause = { kind: 'step'; doneStep: number; nextStep: number } | { kind: 'phase'; phase: string | null; nextPhase: string | null };

/** A run paused by auto-progress (one step or one phase at a time), said as a sentence. */
export function autoProgressReason(p: AutoProgressPause): string {
  if (p.kind === 'step') return `Paused after step ${p.doneStep}, as you asked to go one step at a time. Resume to continue with step ${p.nextStep}.`;
  const next = p.nextPhase ? `phase "${p.nextPhase}"` : 'the next phase';
  return `Phase "${p.phase ?? 'default'}" is complete, as you asked to go one phase at a time. Resume to continue with ${next}.`;
}
