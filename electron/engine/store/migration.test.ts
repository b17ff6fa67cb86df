import Database from 'better-sqlite3';
import { mkdtempSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate, type Migration } from './migration';
import { MIGRATIONS } from './migrations';
import { openDatabase } from './open-store';

const tmp = () => mkdtempSync(join(tmpdir(), 'ratchet-store-'));

describe('migrations', () => {
  it('applies every migration once and records user_version', () => {
    const db = new Database(join(tmp(), 'a.db'));
    expect(migrate(db, MIGRATIONS)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(migrate(db, MIGRATIONS)).toEqual([]);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)?.version);
    db.close();
  });

  it('refuses a database from the future', () => {
    const db = new Database(join(tmp(), 'b.db'));
    db.pragma('user_version = 999');
    expect(() => migrate(db, MIGRATIONS)).toThrow(/newer than this Ratchet knows/);
    db.close();
  });

  it('refuses migrations out of order', () => {
    const db = new Database(':memory:');
    const ms: Migration[] = [
      { version: 2, name: 'b', up: () => undefined },
      { version: 1, name: 'a', up: () => undefined },
    ];
    expect(() => migrate(db, ms)).toThrow(/does not come after/);
  });

  it('rolls back a failing migration entirely', () => {
    const db = new Database(':memory:');
    const ms: Migration[] = [
      { version: 1, name: 'ok', up: (d) => d.exec('CREATE TABLE a (x)') },
      {
        version: 2,
        name: 'bad',
        up: (d) => {
          d.exec('CREATE TABLE b (x)');
          throw new Error('boom');
        },
      },
    ];
    expect(() => migrate(db, ms)).toThrow('boom');
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'b'").get()).toBeUndefined();
  });

  it('opens in WAL mode and moves a corrupt file aside', () => {
    const home = tmp();
    const first = openDatabase(home);
    expect(first.db.pragma('journal_mode', { simple: true })).toBe('wal');
    first.db.close();
    const broken = tmp();
    writeFileSync(join(broken, 'ratchet.db'), 'this is not a database'.repeat(100));
    const opened = openDatabase(broken);
    expect(opened.movedAside).toMatch(/ratchet\.db\.corrupt-/);
    expect(readdirSync(broken).some((f) => f.startsWith('ratchet.db.corrupt-'))).toBe(true);
    opened.db.close();
  });
});

describe('a migration merged after a higher-numbered one', () => {
  it('is applied to a database already past its number that lacks it (8–10 after 14), and only once', () => {
    const db = new Database(join(tmp(), 'late.db'));
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version <= 7 || m.version > 10),
    );
    const past = db.pragma('user_version', { simple: true }) as number;
    expect(past).toBeGreaterThan(10);
    // 16 redefines 9's triggers: run before 9 made its tables, it runs again after them.
    expect(migrate(db, MIGRATIONS)).toEqual([8, 9, 10, 16]);
    const triggers = (
      db
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name IN ('stats_attempt_insert', 'stats_call_insert', 'stats_call_moved', 'stats_class_added')",
        )
        .all() as Array<{ name: string }>
    )
      .map((t) => t.name)
      .sort();
    expect(triggers).toEqual(['stats_call_moved', 'stats_class_added']);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name IN ('attempt_prompts', 'stats_daily', 'events_run') ORDER BY name").all()).toHaveLength(3);
    expect(db.pragma('user_version', { simple: true })).toBe(past);
    expect(migrate(db, MIGRATIONS)).toEqual([]);
    db.close();
  });
});
