// The one place a run's status is written: the run machine's status commands (run-machine.ts) with their reason codes, applied to the store,
// which checks each change against RUN_TRANSITIONS. Every other module feeds the machine an event and calls this.
import type { Store } from '../store/store';
import { runLife, type RunLifeEvent, type RunStatusCommand } from './run-machine';

export function applyRunCommands(store: Pick<Store, 'setRunStatus'>, runId: string, commands: readonly RunStatusCommand[]): void {
  for (const c of commands) {
    store.setRunStatus(runId, c.status, c.reason, { finished: c.finished, code: c.code, ...(c.wakeAt !== undefined ? { wakeAt: c.wakeAt } : {}) });
  }
}

/** A run's life event carried out at once: the run machine decides the status commands, `applyRunCommands` writes them. */
export function applyRunEvent(store: Pick<Store, 'setRunStatus'>, now: () => Date = () => new Date()): (runId: string, event: RunLifeEvent) => void {
  return (runId, event) => applyRunCommands(store, runId, runLife(runId, event, now()));
}
