// Pure reconciliation of completed steps between the store and the branch's history: git is the truth for what was committed.
import type { StepCommit } from '../git/step-commits';

export interface StoredStep {
  index: number;
  status: string;
  commit: string | null;
}

export interface Reconciliation {
  /** Steps done, with the commit git has for each. */
  completed: Array<{ index: number; sha: string; subject: string }>;
  /** Commits on the branch the store did not know as done: adopted, and reported. */
  adopted: Array<{ index: number; sha: string }>;
  /** Store rows that said done but whose commit is not on the branch: not complete. */
  demoted: number[];
  /** Step commits for indexes beyond the plan (a revised, shorter plan): reported, not adopted. */
  outsidePlan: number[];
  /** The first step that is not complete, or null when all are. */
  next: number | null;
}

export function reconcile(stored: readonly StoredStep[], commits: readonly StepCommit[]): Reconciliation {
  const byIndex = new Map(commits.map((c) => [c.index, c]));
  const planIndexes = new Set(stored.map((s) => s.index));
  const completed: Reconciliation['completed'] = [];
  const adopted: Reconciliation['adopted'] = [];
  const demoted: number[] = [];
  for (const s of stored) {
    const c = byIndex.get(s.index);
    if (c) {
      completed.push({ index: s.index, sha: c.sha, subject: c.subject });
      if (s.status !== 'succeeded' || s.commit !== c.sha) adopted.push({ index: s.index, sha: c.sha });
    } else if (s.status === 'succeeded') {
      demoted.push(s.index);
    }
  }
  const done = new Set(completed.map((c) => c.index));
  const next =
    stored
      .map((s) => s.index)
      .sort((a, b) => a - b)
      .find((i) => !done.has(i) && stored.find((s) => s.index === i)?.status !== 'skipped') ?? null;
  return {
    completed,
    adopted,
    demoted,
    outsidePlan: commits.filter((c) => !planIndexes.has(c.index)).map((c) => c.index),
    next,
  };
}

/** A retry's turn budget: min(max(ceil(remaining / total * max_turns), 15), max_turns). */
export function retryTurnBudget(remaining: number, total: number, maxTurns: number): number {
  if (total <= 0) return maxTurns;
  return Math.min(Math.max(Math.ceil((remaining / total) * maxTurns), 15), maxTurns);
}
