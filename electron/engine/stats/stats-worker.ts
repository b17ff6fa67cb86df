// The stats worker (a worker_thread): answers stats-reader.ts's calls over its own read-only connection to the store, so
// reading a period's raw rows (the what-if replay, the unfixed failures) never holds up the host's event loop — a live
// run's stream, the UI's calls. One call at a time, in the order they come.
import { parentPort, workerData } from 'node:worker_threads';
import { openReadOnly } from '../store/open-store';
import { runStatsCall, type StatsCall } from './stats-calls';

const port = parentPort;
if (!port) throw new Error('stats-worker.ts runs as a worker thread');
// A writer may hold the store for a moment (a checkpoint): it waits as the engine's own connection does.
const db = openReadOnly((workerData as { file: string }).file);
port.on('message', (m: { id: number; call: StatsCall }) => {
  try {
    port.postMessage({ id: m.id, result: runStatsCall(db, m.call) });
  } catch (e) {
    port.postMessage({ id: m.id, error: e instanceof Error ? e.message : String(e) });
  }
});
