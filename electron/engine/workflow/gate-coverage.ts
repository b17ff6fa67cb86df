// Whether every step of a plan runs a gate: a success means a check ran, so a step nothing checks is refused unless the user says so (--no-gates).
import { RatchetError } from '../errors';
import type { Workflow } from './schema';

/** The words both the CLI and the app say when nothing would check a step's work. */
export const NOTHING_CHECKS = 'nothing checks this work — add a gate, or pass `--no-gates`';

export interface Uncovered {
  /** 0-based index in `steps`; null: the workflow has no steps (each task gives its own) and no gate for them. */
  step: number | null;
  message: string;
}

/**
 * The steps no gate checks: a step's own `gates` (an empty list runs none), else every gate the workflow defines.
 * A workflow without steps (each task brings its own) is uncovered when it defines no gate at all.
 */
export function uncoveredSteps(workflow: Pick<Workflow, 'gates' | 'steps'>): Uncovered[] {
  const all = Object.keys(workflow.gates);
  if (workflow.steps.length === 0) {
    return all.length ? [] : [{ step: null, message: `the workflow defines no gate: ${NOTHING_CHECKS}` }];
  }
  return workflow.steps.flatMap((s, i) =>
    (s.gates ?? all).length
      ? []
      : [{ step: i, message: `step "${s.title}" runs no gate${s.gates ? ' (`gates: []`)' : ' (the workflow defines none)'}: ${NOTHING_CHECKS}` }],
  );
}

/** Refuses (before anything starts) a plan with a step no gate checks, unless the user chose to run without checks. */
export function assertChecked(workflow: Pick<Workflow, 'gates' | 'steps'>, file: string, noGates: boolean | undefined): void {
  if (noGates) return;
  const uncovered = uncoveredSteps(workflow);
  if (!uncovered.length) return;
  throw new RatchetError(
    'no_gates',
    `Nothing checks this work — add a gate, or pass --no-gates (in the app: Run without checks). ${file}: ${uncovered.map((u) => u.message.replace(/: nothing checks.*$/, '')).join('; ')}.`,
  );
}
