// Assembles the status document (the CLI's JSON contract) from store rows.
import { DecisionDoc, FailedTestDoc, RunEstimate, type AttemptFailureDoc, type StatusDocument } from '../../../shared/domain';
import type { RunRow, Store } from '../store/store';
import { policyDoc } from '../policy/policy-doc';
import { RunEnvStore } from '../store/run-env';
import { RunPrStore } from '../store/run-pr';
import { ScheduleStore } from '../store/schedule-queries';
import type { PrDoc } from '../../../shared/pull-request';

/** The stored failures of an attempt in the document's shape; anything unreadable is left out, never an error. */
function failuresOf(json: string): AttemptFailureDoc[] {
  let list: unknown;
  try {
    list = JSON.parse(json);
  } catch {
    return [];
  }
  if (!Array.isArray(list)) return [];
  return list.flatMap((f: unknown) => {
    const r = FailedTestDoc.safeParse(f);
    return r.success ? [{ name: r.data.name, file: r.data.file, line: r.data.line, expected: r.data.expected, actual: r.data.actual }] : [];
  });
}

export function statusDocument(store: Store, run: RunRow): StatusDocument {
  const attempts = store.getAttempts(run.id);
  let runCost: number | null = 0;
  const steps = store.getSteps(run.id).map((s) => ({
    index: s.step_index,
    title: s.title,
    status: s.status,
    commit: s.commit_sha,
    attempts: attempts
      .filter((a) => a.step_index === s.step_index)
      .map((a) => {
        const cost = a.cost_known ? (a.cost_usd ?? 0) : null;
        if (cost === null) runCost = null;
        else if (runCost !== null) runCost += cost;
        return {
          n: a.n,
          outcome: a.outcome,
          errorClass: a.error_class,
          model: a.model,
          inputTokens: a.input_tokens,
          outputTokens: a.output_tokens,
          cacheReadTokens: a.cache_read_tokens,
          cacheWriteTokens: a.cache_write_tokens,
          costUsd: cost,
          decision: a.decision_json ? DecisionDoc.parse(JSON.parse(a.decision_json)) : null,
          fingerprint: a.fingerprint,
          round: a.round,
          message: a.error_message,
          failures: failuresOf(a.failures_json),
        };
      }),
  }));
  const environment = new RunEnvStore(store).doc(run.id);
  const pr = new RunPrStore(store).get(run.id);
  return {
    id: run.id,
    status: run.status,
    reason: run.reason,
    reasonCode: run.reason_code ?? null,
    repo: run.repo_path,
    branch: run.branch,
    worktree: run.worktree,
    baseCommit: run.base_commit,
    costUsd: runCost === null ? null : Math.round((runCost as number) * 1e6) / 1e6,
    checked: run.checked === 1,
    steps,
    resumes: store.getResumes(run.id).map((r, i, all) => {
      const u = store.usageBetween(run.id, r.at, all[i + 1]?.at ?? null);
      return {
        kind: r.kind as 'retry' | 'resume',
        at: r.at,
        resumedFrom: { step: r.from_step, status: r.from_status },
        turnBudget: r.turn_budget,
        inputTokens: u.input,
        outputTokens: u.output,
        cacheReadTokens: u.cacheRead,
        cacheWriteTokens: u.cacheWrite,
        costUsd: Math.round(u.costUsd * 1e6) / 1e6,
      };
    }),
    policy: policyDoc(store.getWorkflow(run.id), store.getTaskDescription(run.id), store.getPlan(run.id)?.steps ?? [], raisedTaskBudget(run)),
    ...(environment ? { environment } : {}),
    ...(pr ? { pr: prDoc(pr) } : {}),
    estimate: estimateOf(run),
    schedule: new ScheduleStore(store).originOf(run.id),
  };
}

/** The stored pull request without the store's own column (its repository). */
function prDoc({ repo: _repo, ...doc }: PrDoc & { repo: string }): PrDoc {
  return doc;
}

/** The estimate the run started with; null for a run from before estimates (or a row that no longer reads as one). */
export function estimateOf(run: RunRow): RunEstimate | null {
  if (!run.estimate_json) return null;
  try {
    const parsed = RunEstimate.safeParse(JSON.parse(run.estimate_json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The task budget raised for this run by `ratchet resume --budget` (or the app), if any. */
export function raisedTaskBudget(run: RunRow): number | null {
  return run.task_budget_usd ?? null;
}
