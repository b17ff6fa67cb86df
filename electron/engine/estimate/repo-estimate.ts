// The estimate for a task not started yet (`ratchet estimate`, New task): the repository's workflow (its file, the
// app's, or the defaults when it has none) with the task's steps, estimated from the runs like it. Reads the workflow
// file only to count its steps and its policy: nothing in it runs, so an untrusted file is estimated as well.
import { resolve } from 'node:path';
import type { PlanEstimate } from '../../../shared/domain';
import type { PricingTable } from '../agents/pricing';
import { inspectRepo } from '../git/repo-git';
import type { StoreDb } from '../store/store-rows';
import { findWorkflowFile, loadWorkflowSource } from '../workflow/load-workflow';
import { WorkflowFile, type StepConfig, type Workflow } from '../workflow/schema';
import { withTaskSteps } from '../workflow/task-steps';
import { estimatePlanFor } from './estimate-load';

/** The name run-create.ts gives a workflow written in the app (no file). */
export const APP_WORKFLOW = '(written in the app)';

export interface RepoEstimateInput {
  repo: string;
  workflowFile?: string;
  /** A workflow built in the app: takes the place of a file. */
  workflow?: Workflow;
  title?: string;
  description?: string;
  /** The task's own steps (New task's plan). */
  steps?: StepConfig[];
  /** The retry preset chosen for this task, over the workflow file's. */
  preset?: Workflow['preset'];
}

export async function estimateForRepo(db: StoreDb, pricing: PricingTable, input: RepoEstimateInput): Promise<PlanEstimate> {
  const repo = await inspectRepo(input.repo);
  const file = input.workflow ? APP_WORKFLOW : input.workflowFile ? resolve(input.workflowFile) : (findWorkflowFile(repo.root) ?? APP_WORKFLOW);
  const found = input.workflow ?? (file === APP_WORKFLOW ? WorkflowFile.parse({}) : loadWorkflowSource(file).workflow);
  const base = input.preset ? { ...found, preset: input.preset } : found;
  // No steps anywhere yet (a task without a title, a plan to draft): the estimator takes the step count runs like it had.
  const workflow = withTaskSteps(base, { steps: input.steps, title: input.title, description: input.description, planLater: true }, file);
  return estimatePlanFor(db, { repoRoot: repo.root, workflowFile: file, workflow, description: input.description, pricing });
}
