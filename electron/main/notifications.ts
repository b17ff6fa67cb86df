// OS notifications for the moments a developer who looked away cares about: a run succeeded, failed, needs them, or crossed its budget alert.
import { Notification } from 'electron';
import type { EngineEventDoc } from '../../shared/contract';

export interface Notice {
  title: string;
  body: string;
  runId: string;
}

function usd(n: unknown): string {
  return typeof n === 'number' && Number.isFinite(n) ? `$${n.toFixed(2)}` : '?';
}

/** Pure: which engine events deserve a notification, and its words. `runTitle` names the run when it is known. */
export function noticeFor(event: EngineEventDoc, runTitle: string | null = null): Notice | null {
  const name = runTitle ? `“${runTitle}”` : 'A run';
  const reason = typeof event.payload.reason === 'string' && event.payload.reason ? event.payload.reason : null;
  if (event.type === 'run.status') {
    switch (event.payload.status) {
      case 'succeeded':
        return { runId: event.runId, title: 'Run succeeded', body: `${name} finished: every step passed its gates.` };
      case 'failed':
        return { runId: event.runId, title: 'Run failed', body: reason ?? `${name} failed.` };
      case 'paused':
        // Escalations, unknown errors, conflicts and task budgets all pause the run until the user acts.
        return { runId: event.runId, title: 'Ratchet needs you', body: reason ?? `${name} is paused and waiting for you.` };
      case 'waiting_approval':
        return { runId: event.runId, title: 'Ratchet needs you', body: `${name} is waiting for your approval.` };
      default:
        return null;
    }
  }
  if (event.type === 'budget.alert') {
    const which = event.payload.kind === 'daily' ? 'Daily budget' : 'Task budget';
    return { runId: event.runId, title: 'Budget alert', body: `${which}: ${usd(event.payload.spentUsd)} of ${usd(event.payload.limitUsd)} spent.` };
  }
  return null;
}

export interface NotifierDeps {
  /** The user's setting, read each time so a change applies at once. */
  enabled: () => Promise<boolean>;
  /** When the window has focus the app shows the change itself; the OS notification would only repeat it. */
  windowFocused: () => boolean;
  runTitle?: (runId: string) => Promise<string | null>;
  onClick?: (runId: string) => void;
  show?: (notice: Notice, onClick: () => void) => void;
}

function showWithElectron(notice: Notice, onClick: () => void): void {
  if (!Notification.isSupported()) return;
  const n = new Notification({ title: notice.title, body: notice.body });
  n.on('click', onClick);
  n.show();
}

/** Returns the listener for `runs.onEvent` payloads; it never throws (a failed notification must not disturb a run). */
export function createNotifier(deps: NotifierDeps): (event: EngineEventDoc) => Promise<void> {
  const show = deps.show ?? showWithElectron;
  return async (event) => {
    try {
      if (!noticeFor(event)) return;
      if (deps.windowFocused() || !(await deps.enabled())) return;
      const title = deps.runTitle ? await deps.runTitle(event.runId).catch(() => null) : null;
      const notice = noticeFor(event, title);
      if (notice) show(notice, () => deps.onClick?.(notice.runId));
    } catch {
      // Notifications are a courtesy; the renderer still shows the event.
    }
  };
}
