// The estimate from the store: finds the runs like this one (its repository and workflow, else the store's latest),
// reads their attempts through indexed, bounded queries, and hands them with the plan's policy to the pure estimator.
import { isAbsolute, relative, resolve } from 'node:path';
import type { PlanEstimate, RunEstimate } from '../../../shared/domain';
import { priceUsage, type PricingTable } from '../agents/pricing';
import { stepPolicies } from '../policy/policy-doc';
import { parseTaskRetryConfig, type TaskRetryConfig } from '../policy/task-retry-config';
import { attemptsOfRuns, recentRunIds, similarRunIds, type EstimateAttemptRow } from '../store/estimate-queries';
import type { StoreDb } from '../store/store-rows';
import type { Workflow } from '../workflow/schema';
import { BASIS_LIMIT, estimatePlan, estimateRun, type EstimateInput, type PastRun } from './estimate';

/** What names a run's workflow among its repository's runs: the file's path inside the repository, else the path as given. */
export function workflowKey(repoRoot: string, workflowFile: string): string {
  if (!isAbsolute(workflowFile)) return workflowFile;
  const rel = relative(resolve(repoRoot), workflowFile);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split('\\').join('/') : workflowFile;
}

function toRuns(ids: readonly string[], rows: readonly EstimateAttemptRow[]): PastRun[] {
  const byRun = new Map<string, PastRun & { attempts: PastRun['attempts'][number][] }>(ids.map((id) => [id, { id, attempts: [] }]));
  for (const r of rows) {
    const ms = r.finishedAt ? Date.parse(r.finishedAt) - Date.parse(r.startedAt) : 0;
    byRun.get(r.runId)?.attempts.push({
      step: r.step,
      outcome: r.outcome,
      errorClass: r.errorClass,
      tokens: { inputTokens: r.inputTokens, outputTokens: r.outputTokens, cacheReadTokens: r.cacheReadTokens, cacheWriteTokens: r.cacheWriteTokens },
      costUsd: r.costKnown ? (r.costUsd ?? 0) : null,
      durationMs: Number.isFinite(ms) ? Math.max(0, ms) : 0,
    });
  }
  return ids.map((id) => byRun.get(id)!);
}

function typicalSteps(runs: readonly PastRun[]): number {
  const counts = runs
    .map((r) => new Set(r.attempts.map((a) => a.step)).size)
    .filter((n) => n > 0)
    .sort((x, y) => x - y);
  return counts.length ? (counts[Math.floor(counts.length / 2)] as number) : 3;
}

/** The runs an estimate for this repository and workflow reads: its own last finished runs, and the store's. */
export function loadEstimateHistory(db: StoreDb, repoRoot: string, key: string): { similar: PastRun[]; store: PastRun[] } {
  const similarIds = similarRunIds(db, repoRoot, key, BASIS_LIMIT);
  const storeIds = similarIds.length >= BASIS_LIMIT ? [] : recentRunIds(db, BASIS_LIMIT).filter((id) => !similarIds.includes(id));
  const rows = attemptsOfRuns(db, [...similarIds, ...storeIds]);
  return { similar: toRuns(similarIds, rows), store: toRuns(storeIds, rows) };
}

export interface EstimateRequest {
  repoRoot: string;
  workflowFile: string;
  workflow: Workflow;
  /** The task's description: its "## Retry Configuration" block is part of the policy replayed. */
  description?: string;
  pricing: PricingTable;
}

/** The estimate for a run about to start (`ratchet estimate`, `ratchet run`, New task, the status document). */
export function estimateFor(db: StoreDb, req: EstimateRequest): RunEstimate {
  return estimateRun(estimateInput(db, req));
}

/** The same estimate with each step's share, in the plan's order (New task lists it beside each step). */
export function estimatePlanFor(db: StoreDb, req: EstimateRequest): PlanEstimate {
  return estimatePlan(estimateInput(db, req));
}

function estimateInput(db: StoreDb, req: EstimateRequest): EstimateInput {
  let task: TaskRetryConfig | null = null;
  try {
    task = parseTaskRetryConfig(req.description ?? '');
  } catch {
    // A bad block is refused when the run starts; the estimate uses the workflow's policy.
  }
  const { similar, store } = loadEstimateHistory(db, req.repoRoot, workflowKey(req.repoRoot, req.workflowFile));
  // A plan still to be drafted: as many steps as runs like it had (their median), else three.
  const steps = req.workflow.steps.length
    ? req.workflow.steps
    : Array.from({ length: typicalSteps([...similar, ...store]) }, (_, i) => ({ title: `step ${i + 1}` }) as Workflow['steps'][number]);
  const policies = stepPolicies(req.workflow, task, steps);
  return {
    plan: { steps: policies.map((p) => ({ limits: p.limits, backoff: p.backoff })), model: req.workflow.agent.model },
    similar,
    store,
    price: (model, tokens) => priceUsage(req.pricing, model, tokens),
  };
}
