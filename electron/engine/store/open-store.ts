// Opens the SQLite store under RATCHET_HOME: WAL, foreign keys, migrations. Only a file SQLite calls corrupt is moved aside
// (never overwritten); a database that is busy or locked by another process is waited for, then reported, never moved.
// A start costs the same with a 5 GB store as an empty one: the full integrity check runs only after an unclean
// shutdown (a process left its open-marker behind) or on request (`ratchet doctor`).
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { RatchetError } from '../errors';
import { processAlive } from '../process/process-alive';
import { migrate } from './migration';
import { MIGRATIONS } from './migrations';

export interface OpenedDb {
  db: Database.Database;
  /** Set when a damaged database was moved aside and a new one created. */
  movedAside: string | null;
  /** 'after-crash' when a process had left the store without closing it, so the integrity check ran at this start. */
  checked: 'none' | 'after-crash';
  /** Marks this process's use of the store as closed cleanly (call when closing the database). */
  release(): void;
}

/** Each process with the store open leaves a marker here; one left by a process that is gone means it did not close cleanly. */
export const openMarkersDir = (home: string) => join(home, 'store-open');

/** Markers of processes on this host that are gone (they stopped without closing the store). */
export function staleMarkers(home: string, alive: (pid: number) => boolean = processAlive): string[] {
  const dir = openMarkersDir(home);
  if (!existsSync(dir)) return [];
  const host = hostname();
  return readdirSync(dir).filter((f) => {
    const m = /^(.*)-(\d+)-[0-9a-f]+$/.exec(f);
    return m !== null && m[1] === host && !alive(Number(m[2]));
  });
}

/** The integrity check (SQLite's quick_check): throws db_corrupt with what it found. */
export function checkIntegrity(db: Database.Database): void {
  const check = db.pragma('quick_check', { simple: true });
  if (check !== 'ok') throw new RatchetError('db_corrupt', `Database integrity check failed: ${String(check)}`);
}

export interface OpenOptions {
  /** How long a statement waits for another process's lock before giving up (SQLite's busy_timeout). */
  busyTimeoutMs?: number;
}

/** The page size of stores created from now on (see openAndMigrate). */
export const STORE_PAGE_SIZE = 2048;

/** Long enough to wait out another process's write or checkpoint; a lock held longer is reported, not guessed about. */
export const BUSY_TIMEOUT_MS = 10_000;

/** SQLite's own verdict that the file is damaged or not a database (extended codes included: SQLITE_CORRUPT_INDEX…). */
export function isCorruption(err: unknown): boolean {
  if (err instanceof RatchetError) return err.code === 'db_corrupt';
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^SQLITE_(CORRUPT|NOTADB)/.test(code);
}

function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(code);
}

function openAndMigrate(file: string, busyTimeoutMs: number, fullCheck: boolean): Database.Database {
  const db = new Database(file);
  try {
    // First, so every statement below (journal_mode included) waits for another process's lock instead of failing.
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
    // A new store gets 2 KB pages (before anything is written: the size is fixed then). A checkpoint rewrites one
    // small row in each of several narrow tables, and every changed page goes whole into the WAL: smaller pages halve
    // that, while large texts cost the same (they span overflow pages either way). Existing stores keep theirs.
    if (db.pragma('page_count', { simple: true }) === 0) db.pragma(`page_size = ${STORE_PAGE_SIZE}`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    // Always, and cheap (the schema's pages only): a file that is not a database, or whose schema is damaged, fails here.
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    if (fullCheck) checkIntegrity(db);
    migrate(db, MIGRATIONS);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

export function openDatabase(home: string, now: () => Date = () => new Date(), opts: OpenOptions = {}): OpenedDb {
  mkdirSync(home, { recursive: true });
  const file = join(home, 'ratchet.db');
  const timeout = opts.busyTimeoutMs ?? BUSY_TIMEOUT_MS;
  const stale = staleMarkers(home);
  const checked = stale.length ? ('after-crash' as const) : ('none' as const);
  const opened = (db: Database.Database, movedAside: string | null): OpenedDb => {
    // The check passed (or the file was moved aside): the crashed processes' markers have done their job.
    for (const f of stale) rmSync(join(openMarkersDir(home), f), { force: true });
    return { db, movedAside, checked, release: markOpen(home) };
  };
  try {
    return opened(openAndMigrate(file, timeout, stale.length > 0), null);
  } catch (err) {
    if (isBusy(err)) {
      throw new RatchetError(
        'db_busy',
        `The database ${file} is locked by another process (waited ${Math.round(timeout / 1000)} s). Nothing was changed; close the other program using it (or wait for it), then try again.`,
        { cause: err },
      );
    }
    // Anything but SQLite saying the file is damaged (a newer schema, permissions, a full disk…) is not a reason to move it.
    if (!isCorruption(err) || !existsSync(file)) throw err;
    const aside = `${file}.corrupt-${now().toISOString().replace(/[:.]/g, '-')}`;
    renameSync(file, aside);
    for (const suffix of ['-wal', '-shm']) {
      if (existsSync(file + suffix)) renameSync(file + suffix, aside + suffix);
    }
    return opened(openAndMigrate(file, timeout, false), aside);
  }
}

/** Leaves this process's marker; the returned function removes it (a clean close). */
function markOpen(home: string): () => void {
  const dir = openMarkersDir(home);
  const marker = join(dir, `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(marker, '');
  } catch {
    // A read-only home still opens; it only loses the after-crash check.
    return () => undefined;
  }
  return () => rmSync(marker, { force: true });
}

/**
 * A second, read-only connection to an open store's file (the stats worker's): no migrations, no markers, the same busy
 * wait as the engine's connection. It reads what the engine's connection has committed.
 */
export function openReadOnly(file: string, busyTimeoutMs = BUSY_TIMEOUT_MS): Database.Database {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  return db;
}
