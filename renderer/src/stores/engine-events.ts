// The one place engine events enter the stores: subscribes to the client's events and dispatches each to its patches.
import type { EngineEventDoc, RatchetApi } from '../../../shared/contract';
import { hrefs, navigate } from '../lib/route';
import { usd } from '../lib/format';
import { payloadOf } from './event-payloads';
import { runMenuCommand } from './menu-commands';
import { useQueue } from './queue';
import { useRunDetail } from './run-detail';
import { useRuns } from './runs';
import { useStats } from './stats';
import { useUi } from './ui';

export function applyEngineEvent(e: EngineEventDoc): void {
  useRuns.getState().applyEvent(e);
  useRunDetail.getState().applyEvent(e);
  useQueue.getState().applyEvent(e);
  useStats.getState().applyEvent(e);
  const alert = payloadOf('budget.alert', e);
  if (alert) {
    useUi.getState().notify({
      level: 'warn',
      title: `Budget alert (${alert.kind})`,
      body: `${usd(alert.spentUsd)} spent of ${usd(alert.limitUsd)}.`,
      runId: e.runId,
    });
  }
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
  ];
  return () => offs.forEach((off) => off());
}

/** After a reconnect, anything pushed meanwhile was lost: reload the lists and replay missed events of open runs. */
export async function resync(): Promise<void> {
  const runs = useRuns.getState();
  const stats = useStats.getState();
  await Promise.all([
    runs.load(), runs.loadInterrupted(), useRunDetail.getState().catchUp(), useQueue.getState().load(),
    // The dashboard, when it was loaded: runs may have ended while disconnected.
    stats.summary[stats.days].status !== 'idle' ? stats.load(stats.days) : Promise.resolve(),
  ]);
}
