// Queue order for the runs list's controls: where a queued run stands, and the priority that makes it start next.
import type { RunQueueDoc } from '../../../shared/contract';

type Queued = RunQueueDoc['queued'][number];

/** The highest priority a run can have (the contract's bound on `runs.setPriority`). */
export const MAX_PRIORITY = 100;

/**
 * The priority that puts `runId` at the head of the queue (the queue starts the highest priority first, then the
 * first come): one above every other queued run's. Null when it is already first, not queued, or cannot go higher.
 */
export function priorityToRunNext(queued: readonly Queued[], runId: string): number | null {
  const me = queued.find((q) => q.runId === runId);
  if (!me || me.position === 1) return null;
  const others = Math.max(...queued.filter((q) => q.runId !== runId).map((q) => q.priority));
  const next = others + 1;
  return next > MAX_PRIORITY ? null : Math.max(next, me.priority);
}

/** "1st in the queue", "2nd in the queue"… */
export function queuePlace(position: number): string {
  const tens = position % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[position % 10] ?? 'th');
  return `${position}${suffix} in the queue`;
}
