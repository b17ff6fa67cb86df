// Ratchet's own tables in the team's PostgreSQL database, beside DBOS's (schema `dbos`): what the queue and the
// workflows do not say — the status document each run's worker keeps current (the team's runs list, `ratchet status
// --team`), the workers' heartbeats (a worker gone silent has its runs taken over), the team's spend per day (the daily
// budget across every worker) and the API keys' shared 429 holds. The queue, the runs' order and their durable steps are
// DBOS's; nothing here decides which worker runs what.
import pg from 'pg';
import type { RunReasonCode, RunStatus, StatusDocument } from '../../../shared/domain';
import { RatchetError } from '../errors';

/** DBOS's names for Ratchet's team: the application, its queue, the run workflow, its version (workers of another version leave the run alone). */
export const TEAM_APP = 'ratchet';
export const TEAM_QUEUE = 'ratchet-runs';
export const TEAM_WORKFLOW = 'ratchetTeamRun';
/** The DBOS stream of a team run's workflow that carries its engine events (batches of them, as its worker wrote them). */
export const TEAM_EVENTS = 'events';
/** The DBOS event of a team run's workflow that holds the run's status as the workflow last projected it. */
export const TEAM_STATUS_EVENT = 'status';
/** A team run's columns that only its workflow writes (projectRunStatus). */
export const STATUS_COLUMNS = ['status', 'reason', 'reason_code'] as const;
/** Bumped when the run workflow's steps change shape: DBOS only replays a workflow on a worker of the version that started it. */
export const TEAM_PROTOCOL = 'ratchet-team-3';

/** A worker not heard from for this long is gone: a live worker re-enqueues its runs (about a minute in all, as promised). */
export const WORKER_GONE_MS = 30_000;
export const HEARTBEAT_MS = 5_000;

const MIGRATIONS: string[] = [
  `CREATE SCHEMA IF NOT EXISTS ratchet;
   CREATE TABLE ratchet.runs (
     id text PRIMARY KEY,
     title text NOT NULL,
     remote text NOT NULL,
     repo_name text NOT NULL,
     branch text,
     submitted_by text NOT NULL,
     priority integer NOT NULL DEFAULT 0,
     status text NOT NULL,
     reason text,
     reason_code text,
     worker text,
     cost_usd double precision,
     task_budget_usd double precision,
     steps_done integer NOT NULL DEFAULT 0,
     steps_total integer NOT NULL DEFAULT 0,
     doc jsonb,
     created_at timestamptz NOT NULL DEFAULT now(),
     updated_at timestamptz NOT NULL DEFAULT now());
   CREATE INDEX runs_created ON ratchet.runs (created_at DESC);
   CREATE TABLE ratchet.workers (
     id text PRIMARY KEY,
     host text NOT NULL,
     pid integer NOT NULL,
     concurrency integer NOT NULL,
     started_at timestamptz NOT NULL DEFAULT now(),
     last_seen timestamptz NOT NULL DEFAULT now(),
     stopped_at timestamptz,
     taken_over_by text,
     taken_over_at timestamptz);
   CREATE TABLE ratchet.spend (
     day date NOT NULL,
     run_id text NOT NULL,
     usd double precision NOT NULL,
     PRIMARY KEY (day, run_id));
   CREATE TABLE ratchet.api_holds (
     key_id text PRIMARY KEY,
     until timestamptz NOT NULL,
     reason text);
   CREATE TABLE ratchet.settings (
     key text PRIMARY KEY,
     value jsonb NOT NULL);`,
];

export interface TeamRunRow {
  id: string;
  title: string;
  remote: string;
  repo_name: string;
  branch: string | null;
  submitted_by: string;
  priority: number;
  status: string;
  reason: string | null;
  reason_code: string | null;
  worker: string | null;
  cost_usd: number | null;
  task_budget_usd: number | null;
  steps_done: number;
  steps_total: number;
  doc: StatusDocument | null;
  created_at: Date;
  updated_at: Date;
}

export interface TeamWorkerRow {
  id: string;
  host: string;
  pid: number;
  concurrency: number;
  started_at: Date;
  last_seen: Date;
  stopped_at: Date | null;
  taken_over_by: string | null;
}

/** A connection string says what it is: a wrong one is told in words, not as a driver's stack. */
export function checkTeamUrl(url: string | undefined): string {
  if (!url) throw new RatchetError('bad_arguments', 'No team database: pass --team <postgres-url> or set RATCHET_TEAM_URL.');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // A value that is not a URL may still hold a password: it is not printed back.
    throw new RatchetError(
      'bad_arguments',
      `--team takes a PostgreSQL URL like postgres://user:password@host:5432/ratchet (got ${url.includes('@') ? 'a value that is not one' : `"${url}"`}).`,
    );
  }
  if (!['postgres:', 'postgresql:'].includes(parsed.protocol))
    throw new RatchetError('bad_arguments', `--team takes a PostgreSQL URL (postgres://…); "${parsed.protocol}" is not one.`);
  return url;
}

/** The URL with its password hidden, for messages and the app. */
export function redactTeamUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(a team database URL)';
  }
}

export class TeamDb {
  private constructor(readonly pool: pg.Pool) {}

  /**
   * Connects and brings Ratchet's tables up to date (each migration once, under a lock: several workers start together).
   * `underLock`: what else must be made once under that lock (DBOS's own tables: its migrations fail when two processes
   * run them at once).
   */
  static async open(url: string, opts: { max?: number; underLock?: () => Promise<void> } = {}): Promise<TeamDb> {
    const pool = new pg.Pool({ connectionString: checkTeamUrl(url), max: opts.max ?? 4, connectionTimeoutMillis: 10_000 });
    // An idle connection the server drops must not crash the process.
    pool.on('error', () => undefined);
    const db = new TeamDb(pool);
    try {
      await db.migrate(opts.underLock);
    } catch (e) {
      await pool.end().catch(() => undefined);
      throw new RatchetError(
        'team_unreachable',
        `Cannot use the team database at ${redactTeamUrl(url)}: ${(e as Error).message}. Check the URL, that PostgreSQL runs there and that this user may create tables.`,
        {
          cause: e,
        },
      );
    }
    return db;
  }

  private async migrate(underLock?: () => Promise<void>): Promise<void> {
    const client = await this.pool.connect();
    try {
      // A session lock taken by polling, never waited for inside a statement: DBOS's migrations build indexes
      // CONCURRENTLY, which wait for every open snapshot — a process blocked on the lock would be one, and never end.
      for (let tries = 0; ; tries++) {
        const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(727100) AS ok');
        if (rows[0]?.ok) break;
        if (tries > 600) throw new Error('another process has been migrating the team database for two minutes');
        await new Promise((r) => setTimeout(r, 200));
      }
      try {
        await client.query('BEGIN');
        await client.query('CREATE SCHEMA IF NOT EXISTS ratchet_meta');
        await client.query('CREATE TABLE IF NOT EXISTS ratchet_meta.version (n integer NOT NULL)');
        const { rows } = await client.query<{ n: number }>('SELECT n FROM ratchet_meta.version');
        const at = rows[0]?.n ?? 0;
        for (let i = at; i < MIGRATIONS.length; i++) await client.query(MIGRATIONS[i] as string);
        if (!rows.length) await client.query('INSERT INTO ratchet_meta.version (n) VALUES ($1)', [MIGRATIONS.length]);
        else await client.query('UPDATE ratchet_meta.version SET n = $1', [MIGRATIONS.length]);
        await client.query('COMMIT');
        await underLock?.();
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw e;
      } finally {
        await client.query('SELECT pg_advisory_unlock(727100)').catch(() => undefined);
      }
    } finally {
      client.release();
    }
  }

  async insertRun(
    r: Pick<TeamRunRow, 'id' | 'title' | 'remote' | 'repo_name' | 'submitted_by' | 'priority' | 'steps_total' | 'task_budget_usd'>,
  ): Promise<void> {
    await this.pool.query(
      `INSERT INTO ratchet.runs (id, title, remote, repo_name, submitted_by, priority, status, steps_total, task_budget_usd)
       VALUES ($1, $2, $3, $4, $5, $6, 'queued', $7, $8)`,
      [r.id, r.title, r.remote, r.repo_name, r.submitted_by, r.priority, r.steps_total, r.task_budget_usd],
    );
  }

  /**
   * What a worker knows of the run now: its status document and the columns the list reads, but its status, which only
   * the run's workflow writes (projectRunStatus). Refuses a status column, whatever the caller's types said.
   */
  async updateRun(
    id: string,
    patch: Partial<Pick<TeamRunRow, 'worker' | 'cost_usd' | 'branch' | 'steps_done' | 'steps_total' | 'doc' | 'priority' | 'task_budget_usd'>>,
  ): Promise<void> {
    const keys = Object.keys(patch) as Array<keyof typeof patch>;
    const owned = keys.filter((k) => (STATUS_COLUMNS as readonly string[]).includes(k));
    if (owned.length) throw new Error(`Bug: a team run's ${owned.join(', ')} is written by its workflow alone (team/team-workflow.ts), not by updateRun.`);
    if (!keys.length) return;
    const sets = keys.map((k, i) => `${k} = $${i + 2}`);
    await this.pool.query(`UPDATE ratchet.runs SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`, [
      id,
      ...keys.map((k) => (k === 'doc' ? JSON.stringify(patch[k]) : patch[k])),
    ]);
  }

  /**
   * The run's status as its workflow's run machine last decided it: the one write of a team run's status, reason and
   * reason code (STYLE.md: a run's status has one owner), made only from the workflow's body (team/team-workflow.ts).
   */
  async projectRunStatus(id: string, s: { status: RunStatus; reason: string | null; reason_code: RunReasonCode | null; worker: string }): Promise<void> {
    await this.pool.query('UPDATE ratchet.runs SET status = $2, reason = $3, reason_code = $4, worker = $5, updated_at = now() WHERE id = $1', [
      id,
      s.status,
      s.reason,
      s.reason_code,
      s.worker,
    ]);
  }

  async getRun(id: string): Promise<TeamRunRow | null> {
    const { rows } = await this.pool.query<TeamRunRow>('SELECT * FROM ratchet.runs WHERE id = $1', [id]);
    return rows[0] ?? null;
  }

  async listRuns(limit = 500): Promise<TeamRunRow[]> {
    const { rows } = await this.pool.query<TeamRunRow>('SELECT * FROM ratchet.runs ORDER BY created_at DESC LIMIT $1', [limit]);
    return rows;
  }

  async registerWorker(w: { id: string; host: string; pid: number; concurrency: number }): Promise<void> {
    await this.pool.query('INSERT INTO ratchet.workers (id, host, pid, concurrency) VALUES ($1, $2, $3, $4)', [w.id, w.host, w.pid, w.concurrency]);
  }

  async heartbeat(id: string): Promise<void> {
    await this.pool.query('UPDATE ratchet.workers SET last_seen = now() WHERE id = $1', [id]);
  }

  async stopWorker(id: string): Promise<void> {
    await this.pool.query('UPDATE ratchet.workers SET stopped_at = now() WHERE id = $1', [id]);
  }

  /**
   * Claims the workers gone silent for `goneMs`, or shut down (their runs handed on), not yet taken over, for `by`: each is claimed by one live
   * worker only, which then has DBOS re-enqueue its pending runs.
   */
  async claimGoneWorkers(by: string, goneMs = WORKER_GONE_MS): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `UPDATE ratchet.workers SET taken_over_by = $1, taken_over_at = now()
        WHERE id <> $1 AND taken_over_by IS NULL AND (stopped_at IS NOT NULL OR last_seen < now() - ($2 || ' milliseconds')::interval)
        RETURNING id`,
      [by, String(goneMs)],
    );
    return rows.map((r) => r.id);
  }

  async listWorkers(): Promise<TeamWorkerRow[]> {
    const { rows } = await this.pool.query<TeamWorkerRow>(
      `SELECT * FROM ratchet.workers WHERE stopped_at IS NULL OR stopped_at > now() - interval '1 day' ORDER BY started_at`,
    );
    return rows;
  }

  /** Adds what a run spent (a delta, in US dollars) to today's (UTC) team spend. */
  async addSpend(runId: string, usd: number): Promise<void> {
    if (!(usd > 0)) return;
    await this.pool.query(
      `INSERT INTO ratchet.spend (day, run_id, usd) VALUES ((now() AT TIME ZONE 'UTC')::date, $1, $2)
       ON CONFLICT (day, run_id) DO UPDATE SET usd = ratchet.spend.usd + EXCLUDED.usd`,
      [runId, usd],
    );
  }

  async spentToday(): Promise<number> {
    const { rows } = await this.pool.query<{ usd: number | null }>(`SELECT sum(usd) AS usd FROM ratchet.spend WHERE day = (now() AT TIME ZONE 'UTC')::date`);
    return Number(rows[0]?.usd ?? 0);
  }

  async getSetting<T>(key: string): Promise<T | null> {
    const { rows } = await this.pool.query<{ value: T }>('SELECT value FROM ratchet.settings WHERE key = $1', [key]);
    return rows[0]?.value ?? null;
  }

  async setSetting(key: string, value: unknown): Promise<void> {
    await this.pool.query('INSERT INTO ratchet.settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value', [
      key,
      JSON.stringify(value),
    ]);
  }

  /** The API key's shared 429 hold (by a hash of the key, never the key): until when every worker waits, or null. */
  async apiHold(keyId: string): Promise<{ until: Date; reason: string | null } | null> {
    const { rows } = await this.pool.query<{ until: Date; reason: string | null }>(
      'SELECT until, reason FROM ratchet.api_holds WHERE key_id = $1 AND until > now()',
      [keyId],
    );
    return rows[0] ?? null;
  }

  async holdApi(keyId: string, until: Date, reason: string): Promise<void> {
    await this.pool.query(
      `INSERT INTO ratchet.api_holds (key_id, until, reason) VALUES ($1, $2, $3)
       ON CONFLICT (key_id) DO UPDATE SET until = GREATEST(ratchet.api_holds.until, EXCLUDED.until), reason = EXCLUDED.reason`,
      [keyId, until, reason],
    );
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
