// Opens the SQLite store under RATCHET_HOME: WAL, foreign keys, migrations; a corrupt file is moved aside, never overwritten.
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

function openAndMigrate(file: string): Database.Database {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new RatchetError('db_corrupt', `Database integrity check failed: ${String(check)}`);
    migrate(db, MIGRATIONS);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

export function openDatabase(home: string, now: () => Date = () => new Date()): OpenedDb {
  mkdirSync(home, { recursive: true });
  const file = join(home, 'ratchet.db');
  try {
    return { db: openAndMigrate(file), movedAside: null };
  } catch (err) {
    // A database from a newer Ratchet is not damaged: refuse rather than move it aside.
    if (err instanceof RatchetError && err.code === 'db_from_future') throw err;
    if (!existsSync(file)) throw err;
    const aside = `${file}.corrupt-${now().toISOString().replace(/[:.]/g, '-')}`;
    renameSync(file, aside);
    for (const suffix of ['-wal', '-shm']) {
      if (existsSync(file + suffix)) renameSync(file + suffix, aside + suffix);
    }
    return { db: openAndMigrate(file), movedAside: aside };
  }
}
