// Schedules as a host lists and changes them (`ratchet schedule …`, Settings › Schedules): a new one is checked at once
// (cron, time zone, repository, workflow and its trust), so bad input is a clear error before anything is kept.
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { checkCron } from '../../../shared/cron-text';
import { ScheduleDoc, ScheduleInput } from '../../../shared/contract/schedules';
import type { Engine } from '../engine';
import { RatchetError } from '../errors';
import { inspectRepo } from '../git/repo-git';
import { ScheduleStore, type ScheduleRow } from '../store/schedule-queries';
import { tickProblem } from './schedule-ticker';

export interface ScheduleBook {
  add(input: ScheduleInput): Promise<ScheduleDoc>;
  list(): ScheduleDoc[];
  remove(id: string): void;
  setPaused(id: string, paused: boolean): ScheduleDoc;
}

export function scheduleBook(engine: Engine, now: () => Date = () => new Date()): ScheduleBook {
  const store = new ScheduleStore(engine.store);
  function doc(r: ScheduleRow): ScheduleDoc {
    const c = checkCron(r.cron, r.tz, now(), 1);
    return ScheduleDoc.parse({
      id: r.id,
      repo: r.repo,
      cron: r.cron,
      tz: r.tz,
      workflowFile: r.workflow_file,
      task: r.task,
      budgetUsd: r.budget_usd,
      missed: r.missed,
      paused: r.paused === 1,
      // An expression or zone that no longer reads (a runtime without that zone) is a problem too.
      problem: r.problem ?? (c.ok ? null : c.message),
      lastTickAt: r.last_tick_at,
      lastRunId: r.last_run_id,
      nextAt: r.paused === 0 && c.ok ? (c.next[0]?.toISOString() ?? null) : null,
      createdAt: r.created_at,
    });
  }
  function row(id: string): ScheduleRow {
    const r = store.get(id);
    if (!r) throw new RatchetError('schedule_not_found', `No schedule ${id}: \`ratchet schedule list\` shows them.`);
    return r;
  }
  return {
    async add(raw) {
      const input = ScheduleInput.parse(raw);
      const check = checkCron(input.cron, input.tz, now());
      if (!check.ok) throw new RatchetError('bad_arguments', check.message);
      const repo = await inspectRepo(input.repo);
      const workflowFile = input.workflowFile ? resolve(input.workflowFile) : null;
      const draft: ScheduleRow = {
        id: '',
        repo: repo.root,
        cron: input.cron,
        tz: input.tz,
        workflow_file: workflowFile,
        task: input.task,
        budget_usd: input.budgetUsd,
        missed: input.missed,
        paused: 0,
        problem: null,
        last_tick_at: null,
        last_run_id: null,
        created_at: now().toISOString(),
      };
      // What a tick would do, checked now (nothing is created): the workflow, its trust, its gates.
      try {
        await engine.prepareRun({
          repo: repo.root,
          ...(workflowFile ? { workflowFile, repoWorkflow: true } : {}),
          ...(input.task ? { title: input.task } : {}),
        });
      } catch (e) {
        throw new RatchetError(e instanceof RatchetError ? e.code : 'bad_arguments', tickProblem(e, draft));
      }
      const id = `sch-${randomBytes(4).toString('hex')}`;
      store.add({ ...draft, id });
      return doc(row(id));
    },
    list: () => store.list().map(doc),
    remove(id) {
      row(id);
      store.remove(id);
    },
    setPaused(id, paused) {
      row(id);
      store.setPaused(id, paused);
      return doc(row(id));
    },
  };
}
