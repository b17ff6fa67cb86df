// Schedules' rows: add, list, pause, remove, the problem a tick met, and the atomic claim of a tick (one UPDATE that
// only one process can win, as a run's lease is taken), so a tick fires once however many processes run.
import type { Store } from './store';

export interface ScheduleRow {
  id: string;
  repo: string;
  cron: string;
  tz: string | null;
  workflow_file: string | null;
  task: string | null;
  budget_usd: number | null;
  missed: 'run-once' | 'skip';
  paused: number;
  problem: string | null;
  last_tick_at: string | null;
  last_run_id: string | null;
  created_at: string;
}

export type NewSchedule = Omit<ScheduleRow, 'paused' | 'problem' | 'last_tick_at' | 'last_run_id'>;

export class ScheduleStore {
  constructor(private readonly store: Store) {}

  private get db() {
    return this.store.db;
  }

  add(s: NewSchedule): void {
    this.db
      .prepare(
        'INSERT INTO schedules (id, repo, cron, tz, workflow_file, task, budget_usd, missed, created_at) VALUES (@id, @repo, @cron, @tz, @workflow_file, @task, @budget_usd, @missed, @created_at)',
      )
      .run(s);
  }

  list(): ScheduleRow[] {
    return this.db.prepare('SELECT * FROM schedules ORDER BY created_at, id').all() as ScheduleRow[];
  }

  get(id: string): ScheduleRow | null {
    return (this.db.prepare('SELECT * FROM schedules WHERE id = ?').get(id) as ScheduleRow | undefined) ?? null;
  }

  remove(id: string): boolean {
    return this.db.prepare('DELETE FROM schedules WHERE id = ?').run(id).changes === 1;
  }

  setPaused(id: string, paused: boolean): boolean {
    return this.db.prepare('UPDATE schedules SET paused = ? WHERE id = ?').run(paused ? 1 : 0, id).changes === 1;
  }

  setProblem(id: string, problem: string | null): void {
    this.db.prepare('UPDATE schedules SET problem = ? WHERE id = ?').run(problem, id);
  }

  /**
   * Claims `tick` (an ISO time) for this process: true for exactly one claimant of a tick, false for every other and for
   * a tick at or before the last one claimed. SQLite runs one write at a time, so the compare and the set are one step.
   */
  claimTick(id: string, tick: string): boolean {
    return (
      this.db.prepare('UPDATE schedules SET last_tick_at = ? WHERE id = ? AND paused = 0 AND (last_tick_at IS NULL OR last_tick_at < ?)').run(tick, id, tick)
        .changes === 1
    );
  }

  /** The run a tick started: kept with the run (runs.schedule_id), the schedule (its last run) and in the run's log. */
  recordRun(id: string, runId: string, tick: string): void {
    this.store.tx(() => {
      this.db.prepare('UPDATE runs SET schedule_id = ? WHERE id = ?').run(id, runId);
      this.db.prepare('UPDATE schedules SET last_run_id = ?, problem = NULL WHERE id = ?').run(runId, id);
      this.store.event(runId, 'log', { level: 'info', message: `Started by schedule ${id} for its tick at ${tick}.` });
    });
  }

  /** The schedule that started a run, as the status document says it (its cron and zone null once it is removed); null: none. */
  originOf(runId: string): { id: string; cron: string | null; tz: string | null } | null {
    const r = this.db
      .prepare('SELECT r.schedule_id AS id, s.cron, s.tz FROM runs r LEFT JOIN schedules s ON s.id = r.schedule_id WHERE r.id = ?')
      .get(runId) as { id: string | null; cron: string | null; tz: string | null } | undefined;
    return r?.id ? { id: r.id, cron: r.cron, tz: r.tz } : null;
  }

  /** The schedule that started a run, or null. */
  scheduleOf(runId: string): string | null {
    return (this.db.prepare('SELECT schedule_id FROM runs WHERE id = ?').get(runId) as { schedule_id: string | null } | undefined)?.schedule_id ?? null;
  }
}
