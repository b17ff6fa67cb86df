// Team schedules: DBOS scheduled workflows (DBOS 5's schedules, kept in the team database). `ratchet schedule add
// --team` makes one whose context is a team run's description without its run id and commit; every worker registers
// TEAM_SCHEDULE_WORKFLOW, and DBOS fires each tick once across all workers (the tick's workflow id is the schedule's
// name and the tick's time). That workflow starts one ordinary team run on the team's queue, from the remote's base
// branch as it is at the tick; its worker checks trust at that commit as for any team run (team-spec.ts checkSpec).
import { randomBytes } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import type { DBOSClient, WorkflowSchedule } from '@dbos-inc/dbos-sdk';
import { DBOS } from '@dbos-inc/dbos-sdk';
import { z } from 'zod';
import { checkCron } from '../../../shared/cron-text';
import { ScheduleDoc } from '../../../shared/contract/schedules';
import { RatchetError } from '../errors';
import type { PreparedRun } from '../lifecycle/run-options';
import { newId } from '../store/store-rows';
import { TEAM_APP, TEAM_QUEUE, type TeamDb } from '../store/team-db';
import { assertOnRemote, remoteHead, teamRemoteOf } from './team-git';
import { dbosPriority, specOf, TeamRunSpec } from './team-spec';

export const TEAM_SCHEDULE_WORKFLOW = 'ratchet-team-schedule';

/** What a team schedule keeps (its DBOS context): a team run's description but its run id and commit, and when it was made. */
export const TeamScheduleContext = TeamRunSpec.omit({ runId: true, baseCommit: true }).extend({ createdAt: z.string() });
export type TeamScheduleContext = z.infer<typeof TeamScheduleContext>;

/** Registers the scheduled workflow on a worker (before DBOS.launch): one team run per tick, answered as its id. */
export function registerTeamSchedule(d: { db: Pick<TeamDb, 'insertRun'>; teamWorkflow: (spec: TeamRunSpec) => Promise<unknown> }): void {
  DBOS.registerWorkflow(
    async (tick: Date, context: unknown): Promise<string> => {
      const base = TeamScheduleContext.parse(context);
      // Durable steps: a workflow recovered on another worker starts the same run, from the same commit.
      const baseCommit = await DBOS.runStep(() => remoteHead(base.remote, base.baseBranch), { name: 'head' });
      const runId = await DBOS.runStep(async () => newId(), { name: 'id' });
      const { createdAt: _made, ...rest } = base;
      const spec: TeamRunSpec = { ...rest, runId, baseCommit };
      await DBOS.runStep(
        () =>
          d.db.insertRun({
            id: runId,
            title: spec.title,
            remote: spec.remote,
            repo_name: spec.repoName,
            submitted_by: `${spec.submittedBy} (schedule, tick at ${new Date(tick).toISOString()})`,
            priority: 0,
            steps_total: (spec.workflow as { steps?: unknown[] }).steps?.length ?? 0,
            task_budget_usd: spec.taskBudgetUsd,
          }),
        { name: 'insert' },
      );
      await DBOS.startWorkflow(d.teamWorkflow, {
        workflowID: runId,
        queueName: TEAM_QUEUE,
        enqueueOptions: { priority: dbosPriority(0), queuePartitionKey: spec.remote },
      })(spec);
      return runId;
    },
    { name: TEAM_SCHEDULE_WORKFLOW },
  );
}

/** A team schedule as `ratchet schedule list --team` and the contract's ScheduleDoc say it. */
export function teamScheduleDoc(s: WorkflowSchedule, now = new Date()): ScheduleDoc {
  const c = TeamScheduleContext.safeParse(s.context);
  const check = checkCron(s.schedule, s.cronTimezone, now, 1);
  return ScheduleDoc.parse({
    id: s.scheduleName,
    repo: c.data?.remote ?? '(unreadable)',
    cron: s.schedule,
    tz: s.cronTimezone ?? null,
    workflowFile: c.data?.trusted?.file ?? null,
    task: c.data?.title ?? null,
    budgetUsd: c.data?.taskBudgetUsd ?? null,
    missed: 'skip',
    paused: s.status === 'PAUSED',
    problem: c.success ? (check.ok ? null : check.message) : 'This schedule was made by a version of Ratchet these workers do not read.',
    lastTickAt: s.lastFiredAt,
    lastRunId: null,
    nextAt: s.status !== 'PAUSED' && check.ok ? (check.next[0]?.toISOString() ?? null) : null,
    createdAt: c.data?.createdAt ?? new Date(0).toISOString(),
  });
}

/** The team's schedules through DBOS's client: add (checked here: cron, zone, the commit on the remote), list, pause, resume, remove. */
export function teamSchedules(client: DBOSClient) {
  async function get(id: string): Promise<WorkflowSchedule> {
    const s = await client.getSchedule(id);
    if (!s || s.workflowName !== TEAM_SCHEDULE_WORKFLOW)
      throw new RatchetError('schedule_not_found', `No team schedule ${id}: \`ratchet schedule list --team …\` shows them.`);
    return s;
  }
  return {
    async add(p: PreparedRun, o: { cron: string; tz: string | null; taskBudgetUsd: number | null }): Promise<ScheduleDoc> {
      const check = checkCron(o.cron, o.tz, new Date());
      if (!check.ok) throw new RatchetError('bad_arguments', check.message);
      if (!p.baseBranch)
        throw new RatchetError('bad_arguments', `${p.repoRoot} is on no branch: a team schedule starts each run from a branch of the remote. Check one out.`);
      const remote = await teamRemoteOf(p.repoRoot);
      await assertOnRemote(p.repoRoot, remote.name, p.headCommit, p.baseBranch);
      const {
        runId: _id,
        baseCommit: _commit,
        ...base
      } = specOf(p, {
        runId: 'schedule',
        remote: remote.url,
        submittedBy: `${userInfo().username}@${hostname()}`,
        taskBudgetUsd: o.taskBudgetUsd,
      });
      const context: TeamScheduleContext = { ...base, createdAt: new Date().toISOString() };
      const id = `sch-${randomBytes(4).toString('hex')}`;
      await client.createSchedule({
        scheduleName: id,
        workflowName: TEAM_SCHEDULE_WORKFLOW,
        schedule: o.cron.trim(),
        context,
        options: { automaticBackfill: false, ...(o.tz ? { cronTimezone: o.tz } : {}) },
        applicationName: TEAM_APP,
      });
      return teamScheduleDoc(await get(id));
    },
    async list(): Promise<ScheduleDoc[]> {
      return (await client.listSchedules({ workflowName: TEAM_SCHEDULE_WORKFLOW, applicationName: TEAM_APP })).map((s) => teamScheduleDoc(s));
    },
    async setPaused(id: string, paused: boolean): Promise<ScheduleDoc> {
      await get(id);
      await (paused ? client.pauseSchedule(id) : client.resumeSchedule(id));
      return teamScheduleDoc(await get(id));
    },
    async remove(id: string): Promise<void> {
      await get(id);
      await client.deleteSchedule(id);
    },
  };
}
