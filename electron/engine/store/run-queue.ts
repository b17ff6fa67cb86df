// The run queue in the store: runs waiting for a free slot (what to do when their turn comes, priority, who waits for
// them), the runs that hold a slot, and the rate-limit holds that one API key's 429 puts on every run using it.
import { z } from 'zod';
import type { RunStatus } from '../../../shared/domain';
import { RecoveryOptionDoc } from '../../../shared/contract';
import { RatchetError, runNotFound } from '../errors';
import type { Store } from './store';

/** What a queued run does when its turn comes. */
export const QueueAction = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('execute') }),
  z.object({ kind: z.literal('retry') }),
  z.object({
    kind: z.literal('resume'),
    // As the contract's runs.resume takes them (they were typed boolean/number/unknown here, hidden by casts).
    auto: z.enum(['step', 'phase', 'run']).optional(),
    skipStep: z.boolean().optional(),
    choices: z.record(z.string(), RecoveryOptionDoc).optional(),
    runAnyway: z.boolean().optional(),
  }),
  /** A review round of a succeeded run (review/review-round.ts): its pending comments are read when it starts. */
  z.object({ kind: z.literal('review') }),
]);
export type QueueAction = z.infer<typeof QueueAction>;

export interface QueuedRun {
  id: string;
  title: string;
  action: QueueAction;
  priority: number;
  queuedAt: string;
  /** The process that waits for this run (`ratchet run --queue`); null: any scheduler (the app, `serve`) may start it. */
  ownerPid: number | null;
  ownerHost: string | null;
}

export interface ApiHold {
  keyHash: string;
  until: string;
  runId: string | null;
  reason: string;
}

interface QueueRow {
  id: string;
  task_title: string;
  queue_action: string;
  queue_priority: number;
  queued_at: string;
  queue_owner_pid: number | null;
  queue_owner_host: string | null;
}

/** What the queue changes in a run's life: the run machine decides the status each brings (run/run-machine.ts). */
export type QueueEvent =
  | { type: 'queued'; reason: string }
  | { type: 'dequeued'; previous: RunStatus }
  | { type: 'removedFromQueue'; action: QueueAction['kind']; previous: RunStatus };

/** Carries a queue event out on the run's status (run/apply-run-commands.ts applyRunEvent): the store never decides a status. */
export type QueueLife = (runId: string, event: QueueEvent) => void;

export class RunQueue {
  constructor(
    private readonly store: Store,
    private readonly life: QueueLife,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private get db() {
    return this.store.db;
  }

  /** Puts the run in the queue: its status becomes `queued` and what it was is kept, to go back to when it starts or leaves. */
  enqueue(runId: string, action: QueueAction, opts: { priority?: number; owner?: { pid: number; host: string } | null; reason: string }): void {
    this.store.tx(() => {
      const run = this.store.getRun(runId);
      if (!run) throw runNotFound(runId);
      if (run.status === 'queued') throw new RatchetError('run_busy', `Run ${runId} is already queued.`);
      this.db
        .prepare(
          `UPDATE runs SET queue_action = ?, queue_prev_status = ?, queue_priority = ?, queued_at = ?, queue_owner_pid = ?, queue_owner_host = ?
           WHERE id = ?`,
        )
        .run(JSON.stringify(action), run.status, opts.priority ?? 0, this.now().toISOString(), opts.owner?.pid ?? null, opts.owner?.host ?? null, runId);
      this.life(runId, { type: 'queued', reason: opts.reason });
    });
  }

  /** Queued runs in the order they start: highest priority first, then first come. */
  list(): QueuedRun[] {
    const rows = this.db
      .prepare(
        `SELECT runs.id, tasks.title AS task_title, queue_action, queue_priority, queued_at, queue_owner_pid, queue_owner_host
         FROM runs JOIN tasks ON tasks.id = runs.task_id WHERE runs.status = 'queued'
         ORDER BY queue_priority DESC, queued_at, runs.id`,
      )
      .all() as QueueRow[];
    return rows.map((r) => ({
      id: r.id,
      title: r.task_title,
      action: QueueAction.parse(JSON.parse(r.queue_action)),
      priority: r.queue_priority,
      queuedAt: r.queued_at,
      ownerPid: r.queue_owner_pid,
      ownerHost: r.queue_owner_host,
    }));
  }

  /**
   * Takes a queued run out of the queue to start it (atomic: of two schedulers, one wins). The run goes back to the
   * status it had, so execute/retry/resume see it as before; null when it was no longer queued.
   */
  claim(runId: string): QueueAction | null {
    return this.store.tx(() => {
      const row = this.db.prepare("SELECT queue_action, queue_prev_status FROM runs WHERE id = ? AND status = 'queued'").get(runId) as
        { queue_action: string; queue_prev_status: RunStatus } | undefined;
      if (!row) return null;
      this.clear(runId);
      this.life(runId, { type: 'dequeued', previous: row.queue_prev_status });
      return QueueAction.parse(JSON.parse(row.queue_action));
    });
  }

  /** Takes the run out of the queue without starting it: a run that never started is cancelled, any other goes back to how it was. */
  cancel(runId: string): void {
    this.store.tx(() => {
      const row = this.db.prepare("SELECT queue_action, queue_prev_status FROM runs WHERE id = ? AND status = 'queued'").get(runId) as
        { queue_action: string; queue_prev_status: RunStatus } | undefined;
      if (!row) throw new RatchetError('bad_arguments', `Run ${runId} is not queued.`);
      this.clear(runId);
      const action = QueueAction.parse(JSON.parse(row.queue_action));
      this.life(runId, { type: 'removedFromQueue', action: action.kind, previous: row.queue_prev_status });
    });
  }

  setPriority(runId: string, priority: number): void {
    const changed = this.db.prepare("UPDATE runs SET queue_priority = ? WHERE id = ? AND status = 'queued'").run(priority, runId).changes;
    if (changed !== 1) throw new RatchetError('bad_arguments', `Run ${runId} is not queued; only a queued run has a priority.`);
  }

  /** Position (1-based) of a queued run among those ahead of it, or null when it is not queued. */
  position(runId: string): number | null {
    const i = this.list().findIndex((q) => q.id === runId);
    return i < 0 ? null : i + 1;
  }

  /** Runs that hold a slot anywhere: a process holds their lease now. */
  leasedRunIds(): string[] {
    const rows = this.db.prepare('SELECT id FROM runs WHERE owner_token IS NOT NULL AND lease_until > ?').all(this.now().toISOString()) as Array<{
      id: string;
    }>;
    return rows.map((r) => r.id);
  }

  /** Records that the API key `keyHash` is rate-limited until `until` (keeps the later of two holds). */
  hold(h: ApiHold): void {
    this.db
      .prepare(
        `INSERT INTO api_holds (key_hash, until, run_id, reason) VALUES (?, ?, ?, ?)
         ON CONFLICT (key_hash) DO UPDATE SET until = excluded.until, run_id = excluded.run_id, reason = excluded.reason
         WHERE excluded.until > api_holds.until`,
      )
      .run(h.keyHash, h.until, h.runId, h.reason);
  }

  /** The hold on `keyHash` still in force, if any. */
  activeHold(keyHash: string): ApiHold | null {
    const row = this.db
      .prepare('SELECT key_hash, until, run_id, reason FROM api_holds WHERE key_hash = ? AND until > ?')
      .get(keyHash, this.now().toISOString()) as { key_hash: string; until: string; run_id: string | null; reason: string } | undefined;
    return row ? { keyHash: row.key_hash, until: row.until, runId: row.run_id, reason: row.reason } : null;
  }

  /** Every hold still in force (for the app's banner). */
  activeHolds(): ApiHold[] {
    const rows = this.db
      .prepare('SELECT key_hash, until, run_id, reason FROM api_holds WHERE until > ? ORDER BY until')
      .all(this.now().toISOString()) as Array<{
      key_hash: string;
      until: string;
      run_id: string | null;
      reason: string;
    }>;
    return rows.map((r) => ({ keyHash: r.key_hash, until: r.until, runId: r.run_id, reason: r.reason }));
  }

  private clear(runId: string): void {
    this.db
      .prepare('UPDATE runs SET queue_action = NULL, queue_prev_status = NULL, queued_at = NULL, queue_owner_pid = NULL, queue_owner_host = NULL WHERE id = ?')
      .run(runId);
  }
}
