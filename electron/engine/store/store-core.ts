// The store's core: cached statements, BEGIN IMMEDIATE transactions that append their events, the event log and other writers' events.
import type Database from 'better-sqlite3';
import type { EngineEventType, EventPayloadIn } from '../../../shared/engine-events';
import type { EngineEvent } from './store-rows';

export class StoreCore {
  private listeners = new Set<(e: EngineEvent) => void>();
  private pending: EngineEvent[] = [];

  constructor(
    readonly db: Database.Database,
    protected readonly now: () => Date = () => new Date(),
  ) {
    // BEGIN IMMEDIATE: the write lock is taken first, waiting out another writer (busy_timeout), instead of failing
    // with SQLITE_BUSY when a deferred transaction that has read tries to write after another process committed.
    this.runTx = db.transaction((fn: () => unknown) => fn()).immediate;
  }

  private statements = new Map<string, Database.Statement>();
  // One transaction wrapper for all: building a new one per call costs more than the rows a checkpoint writes.
  private readonly runTx: (fn: () => unknown) => unknown;
  /** Watching other writers: what was seen of the event log, and the connection's data_version then. */
  private watch: { dataVersion: number; seenUpTo: number; own: Set<number> } | null = null;

  /** Prepared statements are cached: a checkpoint should cost little more than the rows it writes. */
  protected stmt(sql: string): Database.Statement {
    let st = this.statements.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.statements.set(sql, st);
    }
    return st;
  }

  onEvent(fn: (e: EngineEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  protected iso(): string {
    return this.now().toISOString();
  }

  /** Runs fn in one transaction; events it appended are delivered only after the commit. */
  tx<T>(fn: () => T): T {
    const outer = !this.db.inTransaction;
    try {
      const value = this.runTx(fn) as T;
      if (outer) this.flush();
      return value;
    } catch (err) {
      if (outer) this.pending = [];
      throw err;
    }
  }

  private flush(): void {
    const events = this.pending;
    this.pending = [];
    for (const e of events) this.deliver(e);
  }

  private deliver(e: EngineEvent): void {
    this.watch?.own.add(e.id);
    for (const fn of this.listeners) fn(e);
  }

  /** From now on, pollOtherWriters() delivers events that other connections (the CLI, another app) commit. */
  watchOtherWriters(): void {
    if (this.watch) return;
    const max = (this.stmt('SELECT MAX(id) AS m FROM events').get() as { m: number | null }).m ?? 0;
    this.watch = { dataVersion: this.db.pragma('data_version', { simple: true }) as number, seenUpTo: max, own: new Set() };
  }

  /**
   * Delivers, to this store's listeners, the events other connections committed since the last call (none when nobody
   * else wrote: PRAGMA data_version only changes for other connections' commits). Returns how many.
   */
  pollOtherWriters(): number {
    const w = this.watch;
    if (!w) return 0;
    const version = this.db.pragma('data_version', { simple: true }) as number;
    if (version === w.dataVersion) {
      // Nobody else committed: every event after seenUpTo is one of ours, already delivered.
      for (const id of w.own) if (id > w.seenUpTo) w.seenUpTo = id;
      w.own.clear();
      return 0;
    }
    w.dataVersion = version;
    const rows = this.stmt('SELECT * FROM events WHERE id > ? ORDER BY id').all(w.seenUpTo) as Array<{
      id: number;
      run_id: string;
      at: string;
      type: string;
      payload_json: string;
    }>;
    const theirs = rows.filter((r) => !w.own.has(r.id));
    if (rows.length) w.seenUpTo = (rows.at(-1) as { id: number }).id;
    w.own.clear();
    for (const r of theirs) {
      const e: EngineEvent = { id: r.id, runId: r.run_id, at: r.at, type: r.type, payload: JSON.parse(r.payload_json) as Record<string, unknown> };
      for (const fn of this.listeners) fn(e);
    }
    return theirs.length;
  }

  protected nextEventId(): number {
    return ((this.stmt('SELECT MAX(id) AS m FROM events').get() as { m: number | null }).m ?? 0) + 1;
  }

  /** Appends to the event log (inside the caller's transaction when there is one); payloads are typed by shared/engine-events. */
  event<T extends EngineEventType>(runId: string, type: T, payload: EventPayloadIn<T>): void {
    const at = this.iso();
    const info = this.stmt('INSERT INTO events (run_id, at, type, payload_json) VALUES (?, ?, ?, ?)').run(runId, at, type, JSON.stringify(payload));
    const e: EngineEvent = { id: Number(info.lastInsertRowid), runId, at, type, payload: payload as Record<string, unknown> };
    if (this.db.inTransaction) this.pending.push(e);
    else this.deliver(e);
  }

  /** `limit`: at most that many (the oldest first), for callers that page; all of them by default. Read along events_run. */
  eventsSince(runId: string, afterId = 0, limit = -1): EngineEvent[] {
    const rows = this.stmt('SELECT * FROM events WHERE run_id = ? AND id > ? ORDER BY id LIMIT ?').all(runId, afterId, limit) as Array<{
      id: number;
      run_id: string;
      at: string;
      type: string;
      payload_json: string;
    }>;
    return rows.map((r) => ({ id: r.id, runId: r.run_id, at: r.at, type: r.type, payload: JSON.parse(r.payload_json) as Record<string, unknown> }));
  }
}
