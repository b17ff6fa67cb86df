// Opens the SQLite store under RATCHET_HOME: WAL, foreign keys, migrations. Only a file SQLite calls corrupt is moved aside
// (never overwritten); a database that is busy or locked by another process is waited for, then reported, never moved.
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { RatchetError } from '../errors';
import { migrate } from './migration';
import { MIGRATIONS } from './migrations';

export interface OpenedDb {
  db: Database.Database;
  /** Set when a damaged database was moved aside and a new one created. */
  movedAside: string | null;
}

export interface OpenOptions {
  /** How long a statement waits for another process's lock before giving up (SQLite's busy_timeout). */
  busyTimeoutMs?: number;
}

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

function openAndMigrate(file: string, busyTimeoutMs: number): Database.Database {
  const db = new Database(file);
  try {
    // First, so every statement below (journal_mode included) waits for another process's lock instead of failing.
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new RatchetError('db_corrupt', `Database integrity check failed: ${String(check)}`);
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
  try {
    return { db: openAndMigrate(file, timeout), movedAside: null };
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
    return { db: openAndMigrate(file, timeout), movedAside: aside };
  }
}
