// Runs grouped by what they ask of the user: the runs list's sections and the count on the window title and dock badge.
import type { RunStatus } from './domain';

export const RUN_GROUPS = ['needs_you', 'active', 'queued', 'done'] as const;
export type RunGroup = (typeof RUN_GROUPS)[number];

export const RUN_GROUP_LABEL: Record<RunGroup, string> = {
  needs_you: 'Needs you',
  active: 'Running',
  queued: 'Queued',
  done: 'Finished',
};

const GROUP_OF: Record<RunStatus, RunGroup> = {
  paused: 'needs_you',
  waiting_approval: 'needs_you',
  interrupted: 'needs_you',
  planning: 'active',
  running: 'active',
  waiting: 'active',
  queued: 'queued',
  succeeded: 'done',
  // A failed run is the user's to look at (retry, revise, start again) — until a newer run of the task replaces it.
  failed: 'needs_you',
  cancelled: 'done',
};

export function runGroup(status: RunStatus): RunGroup {
  return GROUP_OF[status];
}

/** What a run needs to be told apart from the other runs of its task (all optional: a bare status groups by status alone). */
export interface GroupedRun {
  status: RunStatus;
  repo?: string;
  title?: string;
  createdAt?: string;
}

const taskKey = (r: GroupedRun) => `${r.repo ?? ''}\u0000${r.title ?? ''}`;

/** The newest run of each task (repository and title): a failed run older than it was replaced ("Start again", a new run). */
function newestByTask(runs: readonly GroupedRun[]): Map<string, string> {
  const newest = new Map<string, string>();
  for (const r of runs) {
    if (r.title === undefined || r.createdAt === undefined) continue;
    const k = taskKey(r);
    const seen = newest.get(k);
    if (seen === undefined || r.createdAt > seen) newest.set(k, r.createdAt);
  }
  return newest;
}

/** The run's group among `runs`: a failed run that a newer run of the same task replaced is finished, not the user's. */
function groupAmong(r: GroupedRun, newest: Map<string, string>): RunGroup {
  const g = runGroup(r.status);
  if (r.status === 'failed' && r.createdAt !== undefined && r.title !== undefined && (newest.get(taskKey(r)) ?? '') > r.createdAt) return 'done';
  return g;
}

/** Runs in their groups, in RUN_GROUPS order, each keeping the list's own order; empty groups left out. */
export function groupRuns<T extends GroupedRun>(runs: readonly T[]): Array<{ group: RunGroup; runs: T[] }> {
  const newest = newestByTask(runs);
  const by = new Map<RunGroup, T[]>();
  for (const r of runs) {
    const g = groupAmong(r, newest);
    by.set(g, [...(by.get(g) ?? []), r]);
  }
  return RUN_GROUPS.filter((g) => by.has(g)).map((group) => ({ group, runs: by.get(group) ?? [] }));
}

/** The runs that wait for the user (paused, waiting for approval, interrupted, failed and not replaced), in the list's order. */
export function runsNeedingYou<T extends GroupedRun>(runs: readonly T[]): T[] {
  const newest = newestByTask(runs);
  return runs.filter((r) => groupAmong(r, newest) === 'needs_you');
}

/** How many runs wait for the user (paused, waiting for approval, interrupted, failed and not replaced). */
export function needsYouCount(runs: readonly GroupedRun[]): number {
  return runsNeedingYou(runs).length;
}

/** The window title with the count in front, as mail apps do: "(2) Ratchet". */
export function titleWithCount(base: string, count: number): string {
  return count > 0 ? `(${count}) ${base}` : base;
}

/** Reads the count back from a title (the main process sets the dock/taskbar badge from it). */
export function countFromTitle(title: string): number {
  const m = /^\((\d+)\) /.exec(title);
  return m ? Number(m[1]) : 0;
}
