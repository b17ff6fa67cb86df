// Team runs in the runs list: each as a row like a local run's (RunSummary), plus what only a team run has (its worker).
import type { RunSummary } from '../../../shared/contract';
import type { TeamRunItem } from '../../../shared/team';

export function teamSummary(t: TeamRunItem): RunSummary {
  return {
    id: t.id,
    status: t.status,
    reasonCode: t.reasonCode,
    repo: t.repoName,
    branch: t.branch ?? '',
    createdAt: t.createdAt,
    title: t.title,
    reason: t.reason,
    wakeAt: null,
    updatedAt: t.updatedAt,
    stepsDone: t.stepsDone,
    stepsTotal: t.stepsTotal,
    // Nothing is spent before a worker takes it (null would read "a price is unknown").
    costUsd: t.costUsd ?? (t.worker ? null : 0),
  };
}

/** Local and team runs in one list, newest first (as runs.list orders the local ones). */
export function withTeamRuns(local: readonly RunSummary[], team: readonly TeamRunItem[]): RunSummary[] {
  if (team.length === 0) return local as RunSummary[];
  return [...local, ...team.map(teamSummary)].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
}

/** Where the run runs (or ran last): its worker; null while it waits for one (its reason says so). */
export function teamPlace(t: TeamRunItem): string | null {
  return t.worker ? `on worker ${t.worker}` : null;
}
