// The one place engine events enter the stores: subscribes to the client's events and dispatches each to its patches.
import type { EngineEventDoc, RatchetApi } from '../../../shared/contract';
import { budgetStopOf } from '../lib/budget-stop';
import { hrefs, navigate } from '../lib/route';
import { money, percent } from '../lib/format';
import { payloadOf } from './event-payloads';
import { runMenuCommand } from './menu-commands';
import { useProject } from './project';
import { useQueue } from './queue';
import { useReview } from './review';
import { useRunDetail } from './run-detail';
import { useRuns } from './runs';
import { useStats } from './stats';
import { useUi } from './ui';

export function applyEngineEvent(e: EngineEventDoc): void {
  useRuns.getState().applyEvent(e);
  useRunDetail.getState().applyEvent(e);
  useQueue.getState().applyEvent(e);
  useStats.getState().applyEvent(e);
  useReview.getState().applyEvent(e);
  const alert = payloadOf('budget.alert', e);
  if (alert) {
    // The one in-app alert for a budget (the service sends no notice of its own for it).
    useUi.getState().notify(budgetAlertNotice(alert, e.runId));
  }
  // Once the run stops at its budget, the notice saying so (the service's) is the one alert: the earlier threshold alert goes.
  const status = payloadOf('run.status', e);
  const stopped = status ? budgetStopOf(status.status, status.reasonCode) : null;
  if (stopped) {
    const code = stopped === 'task' ? 'budget.task_alert' : 'budget.daily_alert';
    useUi.setState((s) => ({ notices: s.notices.filter((n) => !(n.runId === e.runId && n.code === code)) }));
  }
  // A run that runs again (raised budget and continued, retried, resumed) no longer needs you: its "Run needs you" notice (the service's) goes.
  if (status && ['running', 'queued'].includes(status.status)) {
    useUi.setState((s) => ({ notices: s.notices.filter((n) => !(n.runId === e.runId && n.code === 'run.needs_you')) }));
  }
}

/** What the app says when spending crosses a budget's alert threshold: which budget, the figures with enough digits, what comes next. */
export function budgetAlertNotice(a: { kind: string; spentUsd: number; limitUsd: number }, runId: string) {
  const daily = a.kind === 'daily';
  return {
    code: daily ? ('budget.daily_alert' as const) : ('budget.task_alert' as const),
    level: 'warn' as const,
    title: daily ? 'Daily budget alert' : 'Task budget alert',
    body: `${money(a.spentUsd)} of the ${money(a.limitUsd)} ${daily ? 'daily' : 'task'} budget spent (${percent(a.limitUsd > 0 ? a.spentUsd / a.limitUsd : null)}). ${daily ? 'Runs wait for the next day when it is reached.' : 'The run pauses when it is reached; nothing is lost.'}`,
    runId,
  };
}

/** Wires the API's pushed events into the stores; returns the unsubscribe. */
export function connectEvents(api: RatchetApi): () => void {
  const offs = [
    api.on('runs.onEvent', applyEngineEvent),
    api.on('app.onNotice', (n) => useUi.getState().notify(n)),
    // The shell passes a folder dropped on the dock icon or given on the command line.
    api.on('app.onOpenRepo', ({ path }) => navigate(hrefs.newTask(path))),
    // File › New Task, Run › Stop and the other menu items (and their shortcuts).
    api.on('app.onCommand', ({ command }) => void runMenuCommand(command)),
    // New task's "Check project": which part of the baseline check is running.
    api.on('project.onBaseline', (p) => useProject.getState().applyProgress(p)),
  ];
  return () => offs.forEach((off) => off());
}

/** After a reconnect, anything pushed meanwhile was lost: reload the lists and replay missed events of open runs. */
export async function resync(): Promise<void> {
  const runs = useRuns.getState();
  const stats = useStats.getState();
  await Promise.all([
    runs.load(),
    runs.loadInterrupted(),
    useRunDetail.getState().catchUp(),
    useQueue.getState().load(),
    // The dashboard, when it was loaded: runs may have ended while disconnected.
    stats.summary[stats.days].status !== 'idle' ? stats.load(stats.days) : Promise.resolve(),
  ]);
}
