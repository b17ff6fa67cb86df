// Shared by the team benchmarks (P15, P16): real `ratchet worker` processes, each with its own home, counted ready once
// registered on the team's queue; and a scripted API server that notes when each agent call arrived.
import { performance } from 'node:perf_hooks';
import { readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { availableParallelism, loadavg } from 'node:os';
import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { startScriptedServer, type RecordedRequest, type ScriptedServer, type ScriptFn } from '../electron/scripted/server';
import { SANDBOX_AVAILABLE } from '../electron/engine/testing/sandbox-mode';
import { startWorker, type WorkerProcess } from '../electron/engine/testing/team-fixtures';
import { buildCli } from '../scripts/build-cli.mjs';

/** What a worker prints once it takes runs from the queue (team-worker.ts). */
const READY = 'taking runs from the team queue';

/**
 * Starts `n` workers and resolves once each has registered on the queue (its READY line), or throws with its output.
 * The CLI is built first: a worker started on stale sources builds it itself, and three at once would build it thrice.
 */
/** The benchmarks' workflow: `steps` steps whose gate is `true`, so a run's time is its agent's. */
export function benchWorkflow(steps: number): string {
  return `gates:
  plain: "true"
agent: { kind: anthropic, model: claude-sonnet-5-5, max_turns: 10 }
limits: { test_failure: 0 }
flaky_check: false
backoff: { base_s: 0, max_s: 0, jitter: 0 }
steps:
${Array.from({ length: steps }, (_, i) => `  - title: Step number ${i + 1}\n    gates: [plain]`).join('\n')}
`;
}

export async function readyWorkers(url: string, env: NodeJS.ProcessEnv, n: number, args: string[]): Promise<WorkerProcess[]> {
  await buildCli();
  const workers = Array.from({ length: n }, () => startWorker(url, env, [...(SANDBOX_AVAILABLE ? [] : ['--no-sandbox']), ...args]));
  try {
    await Promise.all(
      workers.map(async (w) => {
        const until = Date.now() + 120_000;
        while (!w.output().includes(READY)) {
          if (w.child.exitCode !== null || w.child.signalCode !== null) throw new Error(`a worker ended before it was ready:\n${w.output()}`);
          if (Date.now() > until) throw new Error(`a worker was not ready after 120 s:\n${w.output()}`);
          await sleep(25);
        }
      }),
    );
  } catch (e) {
    await stopWorkers(workers);
    throw e;
  }
  return workers;
}

/** Ends the workers this bench started (each by its own process), waits until they are gone, and removes their homes. */
export async function stopWorkers(workers: WorkerProcess[]): Promise<void> {
  for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
  await Promise.all(workers.map((w) => w.exited));
  for (const w of workers) rmSync(dirname(w.home), { recursive: true, force: true });
}

/** Removes a bench's temporary folders: each path's own temporary folder (the parent of a home, a remote, a workflow file). */
export function removeTemp(...paths: string[]): void {
  for (const p of paths) rmSync(p, { recursive: true, force: true });
}

export interface TimedServer extends ScriptedServer {
  /** performance.now() when each agent call (POST /v1/messages) reached the script, in order of arrival. */
  arrivals: Array<{ at: number; request: RecordedRequest }>;
  /** Resolves at the first agent call arriving after now. */
  nextCall(): Promise<{ at: number; request: RecordedRequest }>;
}

/** A scripted server answering by `script`, each answer `delayMs` after the call arrived (streamed or not). */
export async function timedServer(script: ScriptFn, delayMs = 0): Promise<TimedServer> {
  const arrivals: TimedServer['arrivals'] = [];
  let waiting: Array<(a: { at: number; request: RecordedRequest }) => void> = [];
  const server = await startScriptedServer({
    script: async (request) => {
      const a = { at: performance.now(), request };
      arrivals.push(a);
      const w = waiting;
      waiting = [];
      for (const done of w) done(a);
      // The delay here, not the response's delayMs: that one is paid between each streamed event.
      if (delayMs > 0) await sleep(delayMs);
      return script(request);
    },
  });
  return Object.assign(server, {
    arrivals,
    nextCall: () => new Promise<{ at: number; request: RecordedRequest }>((done) => waiting.push(done)),
  });
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
export const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export interface RunTimeline {
  id: string;
  worker: string | null;
  /** Epoch ms: enqueued, taken from the queue by a worker, ended. */
  enqueued: number;
  dequeued: number | null;
  ended: number | null;
  /** The workflow's durable steps (begin, then one per Ratchet step), epoch ms. */
  steps: Array<{ name: string; start: number; end: number }>;
}

/**
 * Each team run's timeline as DBOS kept it in the team's database (read before the database is dropped), once DBOS
 * has recorded every run's end: a worker tells the team a run succeeded just before DBOS records its last step.
 */
export async function timelines(url: string): Promise<RunTimeline[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    for (let i = 0; i < 200; i++) {
      const open = await c.query("SELECT 1 FROM dbos.workflow_status WHERE status IN ('ENQUEUED', 'PENDING') LIMIT 1");
      if (open.rowCount === 0) break;
      await sleep(50);
    }
    const wfs = await c.query<{
      workflow_uuid: string;
      executor_id: string | null;
      created_at: string;
      started_at_epoch_ms: string | null;
      completed_at: string | null;
      updated_at: string;
    }>('SELECT workflow_uuid, executor_id, created_at, started_at_epoch_ms, completed_at, updated_at, status FROM dbos.workflow_status');
    const ops = await c.query<{ workflow_uuid: string; function_name: string; started_at_epoch_ms: string; completed_at_epoch_ms: string }>(
      'SELECT workflow_uuid, function_name, started_at_epoch_ms, completed_at_epoch_ms FROM dbos.operation_outputs ORDER BY workflow_uuid, function_id',
    );
    return wfs.rows.map((w) => ({
      id: w.workflow_uuid,
      worker: w.executor_id,
      enqueued: Number(w.created_at),
      dequeued: w.started_at_epoch_ms === null ? null : Number(w.started_at_epoch_ms),
      ended: w.completed_at === null ? Number(w.updated_at) : Number(w.completed_at),
      steps: ops.rows
        .filter((o) => o.workflow_uuid === w.workflow_uuid)
        .map((o) => ({ name: o.function_name, start: Number(o.started_at_epoch_ms), end: Number(o.completed_at_epoch_ms) })),
    }));
  } finally {
    await c.end();
  }
}

/** CPU seconds a process used so far, itself and its waited-for children (git, the sandbox), from Linux's /proc; null elsewhere. */
export function cpuSeconds(pid: number | undefined): { own: number; children: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command's closing parenthesis: utime, stime, cutime, cstime are the 14th to 17th, in clock ticks.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = (i: number) => Number(f[i]) / 100;
    return { own: ticks(11) + ticks(12), children: ticks(13) + ticks(14) };
  } catch {
    return null;
  }
}

/** The machine the figures were taken on: its cores and how busy it was (other work on it slows workers and local runs alike, but not equally). */
export function machineLine(): string {
  const [one, five] = loadavg();
  return `  (the machine: ${availableParallelism()} cores, load average ${one!.toFixed(2)} over 1 min and ${five!.toFixed(2)} over 5 min at the end)`;
}
