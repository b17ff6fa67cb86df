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
  failed: 'done',
  cancelled: 'done',
};

export function runGroup(status: RunStatus): RunGroup {
  return GROUP_OF[status];
}

/** Runs in their groups, in RUN_GROUPS order, each keeping the list's own order; empty groups left out. */
export function groupRuns<T extends { status: RunStatus }>(runs: readonly T[]): Array<{ group: RunGroup; runs: T[] }> {
  const by = new Map<RunGroup, T[]>();
  for (const r of runs) {
    const g = runGroup(r.status);
    by.set(g, [...(by.get(g) ?? []), r]);
  }
  return RUN_GROUPS.filter((g) => by.has(g)).map((group) => ({ group, runs: by.get(group) ?? [] }));
}

/** How many runs wait for the user (paused, waiting for approval, interrupted). */
export function needsYouCount(runs: ReadonlyArray<{ status: RunStatus }>): number {
  return runs.filter((r) => runGroup(r.status) === 'needs_you').length;
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
