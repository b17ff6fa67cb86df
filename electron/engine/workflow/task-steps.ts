// The steps a run follows: given by the task (the app's plan, `--task`), the workflow file's own, or the task as one step when the file leaves them out.
import { RatchetError } from '../errors';
import type { StepConfig, Workflow } from './schema';

export interface TaskPlan {
  /** Steps written for this task (the app); they take the place of the file's. */
  steps?: StepConfig[];
  /** The task's title and description (`--task`, `--description`): one step when the workflow has none. */
  title?: string;
  description?: string;
  /** The plan comes later (an agent-drafted plan, `--draft`): no steps are needed now. */
  planLater?: boolean;
}

/** The workflow with the steps this task runs; refuses steps naming a gate the workflow does not define, and a task with no steps at all. */
export function withTaskSteps(workflow: Workflow, plan: TaskPlan, file: string): Workflow {
  if (plan.steps?.length) {
    for (const s of plan.steps) {
      for (const g of s.gates ?? [])
        if (!(g in workflow.gates)) throw new RatchetError('unknown_gate', `Step "${s.title}" names gate \`${g}\`, which ${file} does not define.`);
      // A test-first step proves its test fails by running its gates: with none, nothing could.
      if ((s.tdd ?? workflow.tdd) && (s.gates ?? Object.keys(workflow.gates)).length === 0) {
        throw new RatchetError('unknown_gate', `Step "${s.title}" is test first (tdd), which needs a gate that runs its tests; ${file} gives it none.`);
      }
    }
    return { ...workflow, steps: plan.steps };
  }
  if (workflow.steps.length > 0 || plan.planLater) return workflow;
  const title = plan.title?.trim() || workflow.task?.title;
  if (!title) {
    throw new RatchetError(
      'no_steps',
      `${file} has no steps: each task gives its own. Pass --task "<title>" (and --description) to run the task as one step, --draft to let the agent plan it, or add steps to the file.`,
    );
  }
  const prompt = (plan.description ?? workflow.task?.description ?? '').trim();
  if (workflow.tdd && Object.keys(workflow.gates).length === 0) {
    throw new RatchetError('unknown_gate', `${file} asks for test first (tdd), which needs a gate that runs the tests; it defines none.`);
  }
  return { ...workflow, steps: [{ title, prompt: prompt || title }] };
}
