// OS notifications for the moments a developer who looked away cares about: a run succeeded, failed, needs them, or crossed its budget alert.
import { Notification } from 'electron';
import type { EngineEventDoc } from '../../shared/contract';
import { errorClassLabel } from '../../shared/error-classes';
import { money } from '../../shared/money';
import type { OwnRunFacts } from '../engine';

export interface Notice {
  title: string;
  body: string;
  runId: string;
}

function usd(n: unknown): string {
  return typeof n === 'number' && Number.isFinite(n) ? money(n) : '?';
}

/**
 * Pure: which engine events deserve a notification, and its words — Ratchet's own only (the run's task title, the step
 * it stopped at and that step's error class, from `facts`). The run's stored reason is never shown: it quotes gate
 * output and the agent's words, which must not leave through a notification.
 */
export function noticeFor(event: EngineEventDoc, facts: OwnRunFacts | null = null): Notice | null {
  const name = facts ? `“${facts.task}”` : 'A run';
  const at = facts?.step ? ` at step ${facts.step.index} “${facts.step.title}”` : '';
  const cls = facts?.errorClass ? `: ${errorClassLabel(facts.errorClass)}` : '';
  if (event.type === 'run.status') {
    switch (event.payload.status) {
      case 'succeeded':
        return { runId: event.runId, title: 'Run succeeded', body: `${name} finished: every step passed its gates.` };
      case 'failed':
        return { runId: event.runId, title: 'Run failed', body: `${name} failed${at}${cls}.` };
      case 'paused':
        // Escalations, unknown errors, conflicts and task budgets all pause the run until the user acts.
        return { runId: event.runId, title: 'Ratchet needs you', body: `${name} is paused${at}${cls}, waiting for you.` };
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
  /** What may be said about the run (see ownRunFacts); its stored reason is not among it. */
  runFacts?: (runId: string) => Promise<OwnRunFacts | null>;
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
      const facts = deps.runFacts ? await deps.runFacts(event.runId).catch(() => null) : null;
      const notice = noticeFor(event, facts);
      if (notice) show(notice, () => deps.onClick?.(notice.runId));
    } catch {
      // Notifications are a courtesy; the renderer still shows the event.
    }
  };
}
