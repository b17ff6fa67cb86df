// The host's side of the stats worker: the dashboard's heavy calls (weekly report, improvement suggestions, what-if) are
// answered by a worker_thread with its own read-only connection to the store (stats-worker.ts), started on the first
// call, so the host's event loop — every live run's stream, every other call — never waits on a period's raw rows.
// Where no worker can run (an in-memory store, a build without the worker file, a worker that failed), the same call
// runs inline, on the host's connection.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { StoreDb } from '../store/store-rows';
import { runStatsCall, type StatsCall, type StatsCallResult } from './stats-calls';

export interface StatsReader {
  call<C extends StatsCall>(call: C): Promise<StatsCallResult<C>>;
  /** Whether calls are answered off the host's thread (false: inline, see above). */
  offThread(): boolean;
  close(): Promise<void>;
}

/**
 * The worker's entry beside this module, as this module was built: `stats-worker.ts` from the sources (run with tsx),
 * `stats-worker.mjs` beside the CLI's chunks (scripts/build-cli.mjs), `stats-worker.js` beside the app's main chunks
 * (electron.vite.config.ts). Null when it is not there.
 */
export function statsWorkerEntry(here = import.meta.url): { url: URL; execArgv: string[] } | null {
  const ext = /\.(ts|mjs|cjs|js)$/.exec(new URL(here).pathname)?.[1];
  if (!ext) return null;
  const url = new URL(`./stats-worker.${ext}`, here);
  if (url.protocol !== 'file:' || !existsSync(fileURLToPath(url))) return null;
  return { url, execArgv: ext === 'ts' ? ['--import', 'tsx'] : [] };
}

export function createStatsReader(db: StoreDb, opts: { worker?: boolean } = {}): StatsReader {
  const entry = opts.worker === false || db.memory ? null : statsWorkerEntry();
  let worker: Worker | null = null;
  let broken = !entry;
  let next = 1;
  const pending = new Map<number, { call: StatsCall; resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  // A worker that cannot start or dies: its calls, and every later one, are answered inline.
  const fail = () => {
    broken = true;
    worker = null;
    const left = [...pending.values()];
    pending.clear();
    for (const p of left) {
      try {
        p.resolve(runStatsCall(db, p.call));
      } catch (e) {
        p.reject(e as Error);
      }
    }
  };
  const start = (): Worker => {
    const w = new Worker(entry!.url, { workerData: { file: db.name }, execArgv: entry!.execArgv });
    // Idle, it does not keep the host alive; a call in flight does (ref'd below).
    w.unref();
    w.on('message', (m: { id: number; result?: unknown; error?: string }) => {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (pending.size === 0) w.unref();
      if (m.error !== undefined) p.reject(new Error(m.error));
      else p.resolve(m.result);
    });
    w.on('error', () => {
      if (worker === w) fail();
    });
    w.on('exit', () => {
      if (worker === w) fail();
    });
    return w;
  };

  return {
    async call<C extends StatsCall>(call: C): Promise<StatsCallResult<C>> {
      if (broken) return runStatsCall(db, call);
      worker ??= start();
      const w = worker;
      const id = next++;
      w.ref();
      return new Promise<StatsCallResult<C>>((resolve, reject) => {
        pending.set(id, { call, resolve: resolve as (v: unknown) => void, reject });
        w.postMessage({ id, call });
      });
    },
    offThread: () => !broken,
    async close() {
      const w = worker;
      worker = null;
      broken = true;
      for (const p of pending.values()) p.reject(new Error('the stats reader was closed'));
      pending.clear();
      if (w) await w.terminate();
    },
  };
}
