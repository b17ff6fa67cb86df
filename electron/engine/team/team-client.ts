// The team seen from a machine that is not a worker (the CLI, the app): submit a run to the team's queue, list and
// follow team runs, and steer them — Stop, Resume, Retry, priority — through DBOS's client (DBOSClient), whose queue and
// workflows are the truth of where a run stands; Ratchet's own table (team-db.ts) adds what the worker running it says.
import { DBOSClient, type WorkflowStatus } from '@dbos-inc/dbos-sdk';
import { dbosLogger, migrateDbos } from './dbos-log';
import { hostname, userInfo } from 'node:os';
import type { RunReasonCode, StatusDocument } from '../../../shared/domain';
import { RunReasonCode as ReasonCodes, RunStatus } from '../../../shared/domain';
import { canRaiseAndContinue, canSteer, type SteerAction } from '../../../shared/run-steering';
import type { TeamLimits, TeamOverview, TeamRunItem } from '../../../shared/team';
import { RatchetError, refuseSteering } from '../errors';
import { newId } from '../store/store-rows';
import type { PreparedRun } from '../lifecycle/run-options';
import type { EngineEvent } from '../store/store';
import {
  TEAM_APP,
  TEAM_EVENTS,
  TEAM_PROTOCOL,
  TEAM_QUEUE,
  TEAM_WORKFLOW,
  TeamDb,
  WORKER_GONE_MS,
  checkTeamUrl,
  redactTeamUrl,
  type TeamRunRow,
} from '../store/team-db';
import { dbosPriority, specOf } from './team-spec';
import { teamSchedules } from './team-schedule';
import { teamStats, type TeamStats } from './team-stats';
import { assertOnRemote, teamRemoteOf } from './team-git';
import { DEFAULT_LIMITS } from './team-worker';

export { dbosPriority };

/**
 * The run's status as the team sees it: what its workflow last projected (team-workflow.ts, the one writer), read
 * beside where DBOS has the workflow now, which the steering changes without writing a status: on the queue (submitted,
 * resumed, retried, or taken over from a worker that stopped), cancelled (Stop), or still running. A row can say
 * succeeded or failed while its workflow's last durable step still pushes the branch; the run ends for the team when its
 * workflow does, so whoever reads "succeeded" finds every step on the remote.
 */
export function itemOf(r: TeamRunRow, wf: WorkflowStatus | undefined): TeamRunItem {
  const projected = RunStatus.safeParse(r.status).data ?? 'queued';
  let status = projected;
  let reason = r.reason;
  let code = ReasonCodes.safeParse(r.reason_code).data ?? null;
  if (wf?.status === 'ENQUEUED' || wf?.status === 'DELAYED') {
    status = 'queued';
    if (projected === 'queued') {
      code = 'waiting_for_slot';
      reason = 'Waiting in the team queue for a free worker.';
    } else if (canSteer(projected, 'resume')) {
      // Resumed or retried after it ended: back on the queue.
      code = 'waiting_for_slot';
      reason = 'Back in the team queue; it goes on from its last checkpoint.';
    } else {
      // It was going on when its worker stopped: a live worker put it back on the queue (team-worker.ts's takeover).
      code = 'process_lost';
      reason = `The worker running it${r.worker ? ` (${r.worker})` : ''} stopped; it waits for another worker and goes on from its last checkpoint.`;
    }
  } else if (wf?.status === 'CANCELLED' && !['cancelled', 'succeeded', 'failed'].includes(projected)) {
    status = 'cancelled';
    // A run no worker began (its workflow never projected a status) was taken out of the queue.
    code = projected === 'queued' ? 'removed_from_queue' : 'stopped_by_user';
    reason = projected === 'queued' ? 'Taken out of the team queue before it started.' : 'Stopped by you.';
  } else if (wf?.status === 'PENDING' && projected !== 'running' && projected !== 'waiting') {
    // Its workflow runs: begun on a worker (not projected yet), or ending (the row has its end before DBOS does).
    status = 'running';
    code = null;
    reason = null;
  } else if (wf?.status === 'PENDING' && projected === 'running' && r.doc?.status === 'waiting') {
    // Inside a durable step, what the step's own report (the status document its worker keeps) says: a retry's backoff
    // or the API key's hold, as the run machine decided it on the worker. The workflow projects the step's outcome after it.
    status = 'waiting';
    reason = r.doc.reason ?? null;
    code = r.doc.reasonCode ?? null;
  }
  return {
    id: r.id,
    title: r.title,
    remote: r.remote,
    repoName: r.repo_name,
    branch: r.branch,
    status,
    reason,
    reasonCode: code as RunReasonCode | null,
    worker: r.worker,
    submittedBy: r.submitted_by,
    priority: r.priority,
    costUsd: r.cost_usd,
    stepsDone: r.steps_done,
    stepsTotal: r.steps_total,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

export type TeamClient = Awaited<ReturnType<typeof openTeam>>;

/** Throws the steering table's refusal (shared/run-steering.ts, the same the local engine and the app obey). */
function refuse(runId: string, status: RunStatus, action: SteerAction): void {
  refuseSteering(`Team run ${runId}`, status, action);
}

export async function openTeam(rawUrl: string | undefined) {
  const url = checkTeamUrl(rawUrl);
  // DBOS's tables, made by whoever comes first, under the team database's migration lock.
  const db = await TeamDb.open(url, { max: 3, underLock: () => migrateDbos(url) });
  let client: DBOSClient;
  try {
    client = await DBOSClient.create({ systemDatabaseUrl: url, applicationName: TEAM_APP, logger: dbosLogger({ warnings: false }) });
  } catch (e) {
    await db.close().catch(() => undefined);
    throw new RatchetError('team_unreachable', `Cannot use the team database at ${redactTeamUrl(url)}: ${(e as Error).message}.`, { cause: e });
  }

  async function workflow(runId: string): Promise<WorkflowStatus | undefined> {
    return client.getWorkflow(runId);
  }

  async function row(runId: string): Promise<TeamRunRow> {
    const r = await db.getRun(runId);
    if (!r) throw new RatchetError('run_not_found', `No team run with id ${runId}. See \`ratchet list --team <url>\` for the team's runs.`);
    return r;
  }

  /** Puts a prepared run (trusted where it had to be, on this machine) on the team's queue; the workers take it from there. */
  async function submit(p: PreparedRun, opts: { priority?: number; taskBudgetUsd?: number | null } = {}): Promise<string> {
    const remote = await teamRemoteOf(p.repoRoot);
    await assertOnRemote(p.repoRoot, remote.name, p.headCommit, p.baseBranch);
    const runId = newId();
    const submittedBy = `${userInfo().username}@${hostname()}`;
    const spec = specOf(p, { runId, remote: remote.url, submittedBy, taskBudgetUsd: opts.taskBudgetUsd ?? null });
    const priority = opts.priority ?? 0;
    await db.insertRun({
      id: runId,
      title: p.title,
      remote: remote.url,
      repo_name: p.repoName,
      submitted_by: submittedBy,
      priority,
      steps_total: p.workflow.steps.length,
      task_budget_usd: opts.taskBudgetUsd ?? null,
    });
    await client.enqueue(
      {
        workflowName: TEAM_WORKFLOW,
        queueName: TEAM_QUEUE,
        workflowID: runId,
        appVersion: TEAM_PROTOCOL,
        priority: dbosPriority(priority),
        queuePartitionKey: remote.url,
      },
      spec,
    );
    return runId;
  }

  async function list(limit = 500): Promise<TeamRunItem[]> {
    const rows = await db.listRuns(limit);
    const wfs = rows.length ? await client.listWorkflows({ workflowIDs: rows.map((r) => r.id), loadInput: false, loadOutput: false }) : [];
    const byId = new Map(wfs.map((w) => [w.workflowID, w]));
    return rows.map((r) => itemOf(r, byId.get(r.id)));
  }

  async function item(runId: string): Promise<TeamRunItem> {
    return itemOf(await row(runId), await workflow(runId));
  }

  /** The run's status document as its worker last kept it (null until a worker began it), with the team's status over it. */
  async function status(runId: string): Promise<{ item: TeamRunItem; doc: StatusDocument | null }> {
    const r = await row(runId);
    const it = itemOf(r, await workflow(runId));
    const doc = r.doc ? { ...r.doc, status: it.status, reason: it.reason, reasonCode: it.reasonCode } : null;
    return { item: it, doc };
  }

  /** Stop: DBOS cancels the workflow; the worker running it stops the step where it is (the attempt kept). */
  async function stop(runId: string): Promise<void> {
    const it = await item(runId);
    refuse(runId, it.status, 'stop');
    await client.cancelWorkflow(runId);
  }

  /**
   * The run as the team sees it now, for a steer. No wait for the workflow to let go of the run: DBOS fences an execution
   * that lost its workflow (a Stop's cancel, then a resume), and its worker starts a new execution of a run only once its
   * own last one has ended (team-worker.ts), so Resume and Retry act at once.
   */
  async function now(runId: string): Promise<{ it: TeamRunItem; wf: WorkflowStatus | undefined }> {
    const [r, wf] = await Promise.all([row(runId), workflow(runId)]);
    return { it: itemOf(r, wf), wf };
  }

  /** Resume: a stopped (or paused) run goes back on the queue and on from its last checkpoint. */
  async function resume(runId: string): Promise<void> {
    const { it, wf } = await now(runId);
    refuse(runId, it.status, 'resume');
    if (wf?.status === 'PENDING' || wf?.status === 'ENQUEUED') refuse(runId, it.status === 'queued' ? 'queued' : 'running', 'resume');
    if (wf?.status === 'CANCELLED') await client.resumeWorkflow(runId, { queueName: TEAM_QUEUE });
    else await rewind(runId, it);
  }

  /**
   * Raise budget: the run's task budget, kept with the team's run (its worker applies it before the next step); a run
   * paused for its budget goes back on the queue. Refuses a budget not above what the run has spent.
   */
  async function raiseBudget(runId: string, taskUsd: number): Promise<void> {
    const it = await item(runId);
    refuse(runId, it.status, 'raiseBudget');
    if (!Number.isFinite(taskUsd) || taskUsd <= 0) throw new RatchetError('bad_arguments', `A budget is an amount in US dollars above 0 (got ${taskUsd}).`);
    if (it.costUsd !== null && taskUsd <= it.costUsd)
      throw new RatchetError('bad_arguments', `Team run ${runId} has already spent $${it.costUsd.toFixed(2)}; give it more than that.`);
    await db.updateRun(runId, { task_budget_usd: taskUsd });
    if (canRaiseAndContinue(it.status) && (it.reasonCode === 'task_budget' || it.reasonCode === 'daily_budget')) await resume(runId);
  }

  /** Retry: a failed run goes back on the queue; its failed step runs again from the last checkpoint (its earlier steps stay done). */
  async function retry(runId: string): Promise<void> {
    const { it, wf } = await now(runId);
    refuse(runId, it.status, 'retry');
    if (wf?.status === 'PENDING' || wf?.status === 'ENQUEUED') refuse(runId, it.status === 'queued' ? 'queued' : 'running', 'retry');
    if (wf?.status === 'CANCELLED') await client.resumeWorkflow(runId, { queueName: TEAM_QUEUE });
    else await rewind(runId, it);
  }

  /** DBOS's rewind of the workflow to its last durable step (the one that ended the run), on the team's queue. */
  async function rewind(runId: string, it: TeamRunItem): Promise<void> {
    const steps = (await client.listWorkflowSteps(runId)) ?? [];
    const last = steps.filter((s) => s.name === 'step' || s.name === 'begin').pop();
    await client.rewindWorkflow(runId, {
      startStep: last?.functionID ?? 0,
      queueName: TEAM_QUEUE,
      queuePartitionKey: it.remote,
      applicationVersion: TEAM_PROTOCOL,
    });
  }

  /** Run next / Start later for a queued team run. */
  async function setPriority(runId: string, priority: number): Promise<void> {
    await client.setWorkflowPriority(runId, dbosPriority(priority));
    await db.updateRun(runId, { priority });
  }

  async function overview(): Promise<TeamOverview> {
    const q = await client.retrieveQueue(TEAM_QUEUE);
    const limits: TeamLimits = {
      global: (await q?.getGlobalConcurrency()) ?? DEFAULT_LIMITS.global,
      perWorker: (await q?.getWorkerConcurrency()) ?? DEFAULT_LIMITS.perWorker,
      perRepo: (await q?.getPartitionConcurrency()) ?? DEFAULT_LIMITS.perRepo,
    };
    const rows = await db.listWorkers();
    const pending = await client.listWorkflows({ workflowName: TEAM_WORKFLOW, status: 'PENDING', loadInput: false, loadOutput: false });
    const now = Date.now();
    return {
      limits,
      workers: rows.map((w) => ({
        id: w.id,
        host: w.host,
        pid: w.pid,
        concurrency: w.concurrency,
        startedAt: new Date(w.started_at).toISOString(),
        lastSeen: new Date(w.last_seen).toISOString(),
        state: w.stopped_at ? 'stopped' : now - new Date(w.last_seen).getTime() > WORKER_GONE_MS ? 'gone' : 'alive',
        running: pending.filter((p) => p.executorId === w.id).length,
      })),
      dailyBudgetUsd: await db.getSetting<number>('daily_budget_usd'),
      spentTodayUsd: await db.spentToday(),
    };
  }

  /** The team's numbers for the last `days` days (team-stats.ts), with today's spend against the team's daily budget. */
  async function stats(days: number, now = new Date()): Promise<TeamStats & { spentTodayUsd: number; dailyBudgetUsd: number | null }> {
    const rows = await db.listRuns(5000);
    const wfs = rows.length ? await client.listWorkflows({ workflowIDs: rows.map((r) => r.id), loadInput: false, loadOutput: false }) : [];
    const byId = new Map(wfs.map((w) => [w.workflowID, w]));
    const items = rows.map((r) => ({ ...itemOf(r, byId.get(r.id)), doc: r.doc }));
    const budget = await db.getSetting<number>('daily_budget_usd');
    return { ...teamStats(items, days, now), spentTodayUsd: await db.spentToday(), dailyBudgetUsd: typeof budget === 'number' ? budget : null };
  }

  /**
   * The run's engine events as its workers wrote them, from the `offset`-th batch on, until the workflow ends (or
   * `signal`): the same events a local run's screen and progress lines are made of, each with the worker that had it.
   */
  async function* events(runId: string, signal?: AbortSignal, offset = 0): AsyncGenerator<{ worker: string; event: EngineEvent }> {
    const stream = client.readStream<{ worker: string; events: EngineEvent[] }>(runId, TEAM_EVENTS, { offset });
    for await (const batch of stream) {
      for (const event of batch.events) yield { worker: batch.worker, event };
      if (signal?.aborted) return;
    }
  }

  /** Waits for the run to end, calling `onChange` with each new state of it (polled; a run's steps take seconds to hours). */
  async function follow(
    runId: string,
    onChange: (s: { item: TeamRunItem; doc: StatusDocument | null }) => void,
    signal?: AbortSignal,
  ): Promise<{ item: TeamRunItem; doc: StatusDocument | null }> {
    let last = '';
    for (;;) {
      const s = await status(runId);
      const key = `${s.item.status}|${s.item.updatedAt}`;
      if (key !== last) {
        last = key;
        onChange(s);
      }
      const wf = await workflow(runId);
      const over = wf && ['SUCCESS', 'ERROR', 'CANCELLED', 'MAX_RECOVERY_ATTEMPTS_EXCEEDED'].includes(wf.status);
      if (over && ['succeeded', 'failed', 'cancelled', 'paused', 'waiting_approval', 'interrupted'].includes(s.item.status)) return s;
      if (over && wf?.status === 'CANCELLED') return status(runId);
      if (signal?.aborted) return s;
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  return {
    url,
    db,
    /** The team's schedules (DBOS scheduled workflows, team-schedule.ts). */
    schedules: teamSchedules(client),
    submit,
    list,
    status,
    item,
    stop,
    resume,
    retry,
    setPriority,
    raiseBudget,
    overview,
    stats,
    events,
    follow,
    async close() {
      await client.destroy().catch(() => undefined);
      await db.close().catch(() => undefined);
    },
  };
}
