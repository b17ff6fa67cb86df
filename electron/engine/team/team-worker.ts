// `ratchet worker --team <url>`: a process that runs the team's queued runs on this machine. A team run is a DBOS
// workflow (TEAM_WORKFLOW) on the team's queue: a `begin` step, then one `advance` step per Ratchet step (team-run.ts),
// so DBOS keeps which steps are done and a run recovered elsewhere goes on from the next one. The queue's limits (all
// workers, one worker, one repository), its order (priorities) and the recovery are DBOS's. What DBOS leaves to a
// deployment here — noticing that a worker died, which its Conductor service does — Ratchet does with heartbeats in its
// own table: a live worker claims a silent one and has DBOS re-enqueue that worker's pending runs.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { DBOS } from '@dbos-inc/dbos-sdk';
import type { TeamLimits } from '../../../shared/team';
import type { Engine } from '../engine';
import type { EngineEvent } from '../store/store';
import { RatchetError, userStop } from '../errors';
import { createTeamRunner } from './team-run';
import type { StepAnswer } from './team-run-life';
import { registerTeamWorkflow } from './team-workflow';
import { registerTeamSchedule } from './team-schedule';
import { NO_ALLOWANCES, type WorkerAllowances } from './team-allow';
import { serialized } from './team-git';
import { dbosLogger, migrateDbos } from './dbos-log';
import { recoverWorkflowsOf } from './dbos-recovery';
import { apiKeyHash } from '../run/api-hold';
import type { SharedDay } from '../policy/budget';
import { RunQueue } from '../store/run-queue';
import { applyRunEvent } from '../run/apply-run-commands';
import { HEARTBEAT_MS, TEAM_APP, TEAM_EVENTS, TEAM_PROTOCOL, TEAM_QUEUE, TeamDb, WORKER_GONE_MS } from '../store/team-db';

export const DEFAULT_LIMITS: TeamLimits = { global: 8, perWorker: 2, perRepo: 4 };

export interface WorkerOptions {
  url: string;
  engine: Engine;
  /** The worker's environment: its own API key (never sent through the database; only a hash of it names its 429 hold). */
  env: NodeJS.ProcessEnv;
  /** What a submitted workflow may have here beyond the sandbox's defaults (`--allow-env`, `--allow-network`, `--allow-command-agent`); none by default. */
  allow?: WorkerAllowances;
  /** Runs at once on this worker; sets the queue's per-worker limit (one value for the team in DBOS, see README). */
  concurrency?: number;
  /** The team's global and per-repository limits, when this worker is told them. */
  limits?: Partial<TeamLimits>;
  say(line: string): void;
  /** Ends the worker (SIGINT, SIGTERM): its runs stop and are handed to another worker. */
  signal: AbortSignal;
  /** Tests: a shorter time before a silent worker counts as gone. */
  goneMs?: number;
  /** Sets the team's daily budget in US dollars (kept in the team database; null removes it). */
  dailyBudgetUsd?: number | null;
  /** Receives the team's day as it changes (the engine's `sharedDay`): its daily budget and the other workers' spend. */
  onSharedDay?: (day: SharedDay) => void;
}

/** Runs a worker until `signal` aborts. */
export async function runWorker(o: WorkerOptions): Promise<void> {
  // DBOS's tables are made under the team database's migration lock: workers starting together would race in DBOS's own.
  const db = await TeamDb.open(o.url, { underLock: () => migrateDbos(o.url) });
  const workerId = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const { engine } = o;
  const stopping = new AbortController();
  const running = new Map<string, AbortController>();
  const mirrors = new Map<string, ReturnType<typeof setTimeout>>();
  const costs = new Map<string, number>();
  /** What this worker added to the team's spend, per UTC day: the rest of today's spend is the other workers'. */
  const mine = new Map<string, number>();
  const utcDay = () => new Date().toISOString().slice(0, 10);

  /** The team's row of the run, from this worker's store (the list, `ratchet status --team`, the daily budget): all but its status, the workflow's (team-workflow.ts). */
  /** Runs whose durable step ended in an error (the workflow says failed, with why): a late batch must not write the store's document over it. */
  const broken = new Set<string>();
  async function mirror(runId: string): Promise<void> {
    const run = engine.store.getRun(runId);
    if (!run || broken.has(runId)) return;
    const doc = engine.status(runId);
    const cost = doc.costUsd ?? 0;
    const delta = cost - (costs.get(runId) ?? cost);
    costs.set(runId, cost);
    if (delta > 0) mine.set(utcDay(), (mine.get(utcDay()) ?? 0) + delta);
    await db.addSpend(runId, delta);
    await db.updateRun(runId, {
      worker: workerId,
      branch: run.branch,
      cost_usd: doc.costUsd,
      steps_done: doc.steps.filter((s) => s.status === 'succeeded' || s.status === 'skipped').length,
      steps_total: doc.steps.length,
      doc,
    });
  }
  // The run's engine events, carried to whoever follows it (the app's run screen, `ratchet run --team`) by the
  // workflow's DBOS stream TEAM_EVENTS, a batch at a time. The batch is written from the durable step's own context
  // (the timer is made there), as DBOS streams are written from a workflow or its steps.
  const outbox = new Map<string, EngineEvent[]>();
  function flush(runId: string): Promise<void> {
    // One batch after the other per run: two writes at once would race for the stream's next offset.
    return serialized(`flush:${runId}`, async () => {
      const events = outbox.get(runId) ?? [];
      outbox.delete(runId);
      if (events.length && DBOS.isInStep()) await DBOS.writeStream(TEAM_EVENTS, { worker: workerId, events }).catch(() => undefined);
      await mirror(runId);
    });
  }
  function mirrorSoon(runId: string): void {
    if (mirrors.has(runId)) return;
    mirrors.set(
      runId,
      setTimeout(() => {
        mirrors.delete(runId);
        void flush(runId).catch(() => undefined);
      }, 250),
    );
  }
  const offEvents = engine.onEvent((e) => {
    if (!running.has(e.runId)) return;
    // A transcript's text can be long: the stream carries what the progress and the run screen show, not megabytes.
    if (JSON.stringify(e.payload).length <= 64_000) outbox.set(e.runId, [...(outbox.get(e.runId) ?? []), e]);
    mirrorSoon(e.runId);
  });

  // The team's day and the API key's 429 hold, shared through the team database (polled: a second late at most).
  const keyHash = apiKeyHash(o.env);
  const holds = new RunQueue(engine.store, applyRunEvent(engine.store));
  const share = async () => {
    const [dailyUsd, spent] = await Promise.all([db.getSetting<number | null>('daily_budget_usd'), db.spentToday()]);
    o.onSharedDay?.({ dailyUsd: typeof dailyUsd === 'number' ? dailyUsd : null, elsewhereUsd: Math.max(0, spent - (mine.get(utcDay()) ?? 0)) });
    if (!keyHash) return;
    const local = holds.activeHold(keyHash);
    if (local && local.runId !== null) await db.holdApi(keyHash, new Date(local.until), local.reason);
    const team = await db.apiHold(keyHash);
    if (team && (!local || Date.parse(local.until) < team.until.getTime()))
      holds.hold({ keyHash, until: team.until.toISOString(), runId: null, reason: `${team.reason ?? 'rate limited (429)'}, on another worker of the team` });
  };

  /** A task budget raised from the team (Raise budget in the app, `ratchet resume --team --budget`), applied to the run here. */
  async function applyRaisedBudget(runId: string): Promise<void> {
    const raised = (await db.getRun(runId))?.task_budget_usd ?? null;
    const run = engine.store.getRun(runId);
    if (raised !== null && run && run.task_budget_usd !== raised) engine.raiseBudget(runId, raised);
  }

  const runner = createTeamRunner({
    engine,
    worker: workerId,
    allow: o.allow ?? NO_ALLOWANCES,
    signalFor(runId) {
      const c = new AbortController();
      running.set(runId, c);
      // The team's Stop (DBOS's cancel of the workflow) is the user's Stop; the worker stopping is not.
      const cancel = DBOS.stepStatus?.cancelSignal;
      cancel?.addEventListener('abort', () => c.abort(userStop()), { once: true });
      if (stopping.signal.aborted) c.abort(stopping.signal.reason);
      else stopping.signal.addEventListener('abort', () => c.abort(stopping.signal.reason), { once: true });
      return c.signal;
    },
    done(runId) {
      running.delete(runId);
    },
  });

  /** A durable step's body: its answer, and the team's row of the run. A worker stopping never ends a step: another worker reruns it. */
  const inflight = new Set<Promise<unknown>>();
  async function durable(runId: string, body: () => Promise<StepAnswer>): Promise<StepAnswer> {
    let a: StepAnswer;
    broken.delete(runId);
    // One execution of a run at a time here: a run stopped and resumed at once starts its new execution (DBOS has fenced
    // the old one) only when the old one's step has let go of the run (its attempt stopped, its state pushed).
    const work = serialized(`execution:${runId}`, body);
    inflight.add(work);
    try {
      a = await work;
    } catch (e) {
      if (stopping.signal.aborted) return new Promise<never>(() => undefined);
      // The remote moved under this step: the step runs again from the remote (the workflow's step retry).
      if (e instanceof RatchetError && e.code === 'team_lost_run') throw e;
      const reason = e instanceof RatchetError ? e.message : `This worker could not run it: ${(e as Error).message}`;
      broken.add(runId);
      // The workflow's run machine takes it as a crash of the run (team-workflow.ts): the run failed here, with why.
      return { events: [{ type: 'crashed', message: reason }], pending: [], status: 'failed', code: 'internal_error', reason, stepsDone: 0, stepsTotal: 0 };
    } finally {
      inflight.delete(work);
    }
    if (stopping.signal.aborted) return new Promise<never>(() => undefined);
    await mirror(runId).catch(() => undefined);
    return a;
  }

  const teamWorkflow = registerTeamWorkflow({
    db,
    workerId,
    begin: (raw, runId) => durable(runId, () => runner.begin(raw)),
    advance: (raw, runId) =>
      durable(runId, async () => {
        // The team's day and holds as they are now, before the step's first API call; a budget raised for the run.
        await share().catch(() => undefined);
        await applyRaisedBudget(runId).catch(() => undefined);
        return runner.advance(raw);
      }),
  });

  // Team schedules: DBOS fires each tick once across the workers (team-schedule.ts); a new one is seen within 5 s.
  registerTeamSchedule({ db, teamWorkflow });

  DBOS.setConfig({
    name: TEAM_APP,
    systemDatabaseUrl: o.url,
    executorID: workerId,
    applicationVersion: TEAM_PROTOCOL,
    logger: dbosLogger({ warnings: true }),
    schedulerPollingIntervalMs: 5000,
  });
  const perWorker = o.concurrency ?? DEFAULT_LIMITS.perWorker;
  let queue: Awaited<ReturnType<typeof DBOS.registerQueue>>;
  try {
    await DBOS.launch();
    queue = await DBOS.registerQueue(TEAM_QUEUE, {
      globalConcurrency: Math.max(o.limits?.global ?? DEFAULT_LIMITS.global, perWorker),
      workerConcurrency: perWorker,
      partitionConcurrency: Math.min(o.limits?.perRepo ?? DEFAULT_LIMITS.perRepo, Math.max(o.limits?.global ?? DEFAULT_LIMITS.global, perWorker)),
      // How often an idle worker looks for a queued run: a tenth of a second to start, DBOS backs off under contention.
      minPollingIntervalMs: 100,
      // The first worker sets the team's limits; a later one changes them only when told to.
      onConflict: o.concurrency !== undefined || o.limits ? 'always_update' : 'never_update',
    });
  } catch (e) {
    // A worker that cannot take runs ends, saying why (it must not stay up doing nothing).
    offEvents();
    await DBOS.shutdown().catch(() => undefined);
    await db.close().catch(() => undefined);
    throw new RatchetError('team_unreachable', `This worker could not start on the team database: ${(e as Error).message}`, { cause: e });
  }
  await db.registerWorker({ id: workerId, host: hostname(), pid: process.pid, concurrency: perWorker });
  o.say(
    `ratchet worker ${workerId}: taking runs from the team queue (${await queue.getGlobalConcurrency()} at once in the team, ${await queue.getWorkerConcurrency()} per worker, ${await queue.getPartitionConcurrency()} per repository). Ctrl-C hands its runs to another worker.`,
  );

  if (o.dailyBudgetUsd !== undefined) await db.setSetting('daily_budget_usd', o.dailyBudgetUsd);
  const timers: Array<ReturnType<typeof setInterval>> = [];
  await share().catch(() => undefined);
  timers.push(setInterval(() => void share().catch(() => undefined), 1000));
  const goneMs = o.goneMs ?? WORKER_GONE_MS;
  timers.push(setInterval(() => void db.heartbeat(workerId).catch(() => undefined), Math.min(HEARTBEAT_MS, goneMs / 4)));
  // A silent worker's runs: claimed by one live worker, which has DBOS put them back on the queue.
  const takeOver = async () => {
    for (const gone of await db.claimGoneWorkers(workerId, goneMs)) {
      // Back on the queue: the team's list reads them as queued, the worker that stopped named (team-client.ts itemOf).
      const ids = await recoverWorkflowsOf([gone]);
      if (ids.length) o.say(`ratchet worker: took over ${ids.length} run(s) of ${gone}, which stopped answering: ${ids.join(', ')}`);
    }
  };
  timers.push(setInterval(() => void takeOver().catch(() => undefined), Math.min(10_000, Math.max(500, goneMs / 3))));

  await new Promise<void>((done) => {
    if (o.signal.aborted) done();
    else o.signal.addEventListener('abort', () => done(), { once: true });
  });

  // Stopping: no new runs; the runs here stop where they are (their state pushed), and go back to the queue for another worker.
  const held = await DBOS.listWorkflows({ executorId: workerId, status: 'PENDING', loadInput: false, loadOutput: false }).catch(() => []);
  o.say(`ratchet worker ${workerId}: stopping; its ${held.length} run(s) go to another worker.`);
  for (const t of timers) clearInterval(t);
  offEvents();
  stopping.abort(new RatchetError('process_stopped', 'The worker running it stopped.'));
  // Each run's state reaches the remote before the worker says it stopped (then another worker takes the runs at once).
  await Promise.race([Promise.allSettled([...inflight]), new Promise((r) => setTimeout(r, 60_000).unref())]);
  await engine.settled();
  await db.stopWorker(workerId).catch(() => undefined);
  await DBOS.shutdown().catch(() => undefined);
  await db.close().catch(() => undefined);
}
