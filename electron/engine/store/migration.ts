// The migration runner: versions only go up, each migration runs in one transaction, a database from the future is refused.
import type Database from 'better-sqlite3';
import { RatchetError } from '../errors';

export interface Migration {
  version: number;
  name: string;
  up(db: Database.Database): void;
  /**
   * Whether the database has this migration's changes. Given for migrations merged after a higher-numbered one (numbers
   * are reserved per branch): a database already past this version but without it still gets it.
   */
  present?(db: Database.Database): boolean;
}

const hasObject = (db: Database.Database, type: 'table' | 'index', name: string) =>
  db.prepare('SELECT 1 FROM sqlite_master WHERE type = ? AND name = ?').get(type, name) !== undefined;

/** present() for a migration that creates `name`. */
export const creates = (type: 'table' | 'index', name: string) => (db: Database.Database) => hasObject(db, type, name);

export function checkMigrationOrder(migrations: readonly Migration[]): void {
  let last = 0;
  for (const m of migrations) {
    if (m.version <= last) {
      throw new RatchetError('migration_order', `Migration ${m.version}-${m.name} does not come after version ${last}.`);
    }
    last = m.version;
  }
}

/** Brings the database up to the newest migration. Returns the versions applied. */
export function migrate(db: Database.Database, migrations: readonly Migration[]): number[] {
  checkMigrationOrder(migrations);
  const newest = migrations.at(-1)?.version ?? 0;
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > newest) {
    throw new RatchetError(
      'db_from_future',
      `The database is at schema version ${current}, newer than this Ratchet knows (${newest}). Update Ratchet, or point RATCHET_HOME elsewhere.`,
    );
  }
  const applied: number[] = [];
  for (const m of migrations) {
    if (m.version <= current) {
      // Merged late (a lower number than one already applied): applied now if the database lacks it.
      if (m.present && !m.present(db)) {
        const ran = db
          .transaction(() => {
            if (m.present?.(db)) return false;
            m.up(db);
            return true;
          })
          .immediate();
        if (ran) applied.push(m.version);
      }
      continue;
    }
    // IMMEDIATE, and the version read again under the write lock: two processes starting on a new database at once
    // apply each migration once (the second waits, then sees it done).
    const ran = db
      .transaction(() => {
        if ((db.pragma('user_version', { simple: true }) as number) >= m.version) return false;
        m.up(db);
        db.pragma(`user_version = ${m.version}`);
        return true;
      })
      .immediate();
    if (ran) applied.push(m.version);
  }
  return applied;
}
