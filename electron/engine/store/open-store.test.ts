// Busy is not corrupt: a database another process holds locked is waited for (or reported), never moved aside.
import Database from 'better-sqlite3';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/temp-repo';
import { openDatabase, openMarkersDir } from './open-store';
import { Store } from './store';
import { seedRun } from './testing/seed-run';

const BETTER_SQLITE3 = createRequire(import.meta.url).resolve('better-sqlite3');

/** Another process opens the file in exclusive locking mode and holds a write lock for `ms`; resolves once it holds it. */
async function holdLock(file: string, ms: number): Promise<{ done: Promise<void> }> {
  const script = `
    const Database = require(${JSON.stringify(BETTER_SQLITE3)});
    const db = new Database(process.argv[1]);
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('CREATE TABLE IF NOT EXISTS held_by_test (x)');
    process.stdout.write('locked\\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(process.argv[2]));
    db.exec('COMMIT');
    db.close();`;
  const child = spawn(process.execPath, ['-e', script, file, String(ms)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const done = new Promise<void>((ok) => child.once('exit', () => ok()));
  await new Promise<void>((ok, fail) => {
    child.stdout.once('data', () => ok());
    child.once('exit', (code) => fail(new Error(`the lock holder exited ${code}`)));
  });
  return { done };
}

function seeded(): { home: string; runId: string } {
  const home = tempDir();
  const { db, release } = openDatabase(home);
  const runId = seedRun(new Store(db));
  db.close();
  release();
  return { home, runId };
}

const asideFiles = (home: string) => readdirSync(home).filter((f) => f.includes('.corrupt-'));

describe('opening a database another process holds', () => {
  it('waits out a lock held 6 s at start-up, then opens the same store (nothing moved aside)', async () => {
    const { home, runId } = seeded();
    const holder = await holdLock(join(home, 'ratchet.db'), 6_000);
    const started = Date.now();
    const opened = openDatabase(home);
    expect(Date.now() - started).toBeGreaterThan(4_000);
    expect(opened.movedAside).toBeNull();
    expect(asideFiles(home)).toEqual([]);
    expect(new Store(opened.db).getRun(runId)?.id).toBe(runId);
    opened.db.close();
    await holder.done;
  }, 30_000);

  it('says the database is busy when the lock outlasts the wait, and leaves the file where it is', async () => {
    const { home, runId } = seeded();
    const holder = await holdLock(join(home, 'ratchet.db'), 3_000);
    expect(() => openDatabase(home, undefined, { busyTimeoutMs: 300 })).toThrow(
      expect.objectContaining({ code: 'db_busy', message: expect.stringMatching(/locked by another process/) }),
    );
    expect(asideFiles(home)).toEqual([]);
    await holder.done;
    const opened = openDatabase(home);
    expect(new Store(opened.db).getRun(runId)?.id).toBe(runId);
    opened.db.close();
  }, 30_000);
});

describe('a damaged database', () => {
  it('is still moved aside when SQLite says it is not a database, or corrupt', () => {
    const notADb = tempDir();
    writeFileSync(join(notADb, 'ratchet.db'), 'this is not a database'.repeat(100));
    const a = openDatabase(notADb);
    expect(a.movedAside).toMatch(/ratchet\.db\.corrupt-/);
    expect(readFileSync(a.movedAside as string, 'utf8')).toContain('this is not a database');
    a.db.close();

    // A real database whose pages after the header are overwritten with garbage: SQLITE_CORRUPT or a failed check.
    const { home } = seeded();
    const file = join(home, 'ratchet.db');
    const bytes = readFileSync(file);
    for (let i = 4096; i < bytes.length; i++) bytes[i] = (i * 7919) & 0xff;
    writeFileSync(file, bytes);
    for (const suffix of ['-wal', '-shm']) expect(existsSync(file + suffix)).toBe(false);
    const b = openDatabase(home);
    expect(b.movedAside).toMatch(/ratchet\.db\.corrupt-/);
    expect(asideFiles(home)).toHaveLength(1);
    expect(new Store(b.db).listRuns()).toEqual([]);
    b.db.close();
  });

  it('is not moved aside for other errors (a database from a newer Ratchet)', () => {
    const { home } = seeded();
    const { db } = openDatabase(home);
    db.pragma('user_version = 999');
    db.close();
    expect(() => openDatabase(home)).toThrow(expect.objectContaining({ code: 'db_from_future' }));
    expect(asideFiles(home)).toEqual([]);
  });
});

describe('the integrity check runs after a crash, not at every start', () => {
  /** The pid of a process that has exited. */
  function deadPid(): number {
    const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    return Number(r.stdout);
  }

  it('a clean close leaves no marker, and the next start skips the full check', () => {
    const { home } = seeded();
    const a = openDatabase(home);
    expect(readdirSync(openMarkersDir(home))).toHaveLength(1);
    a.db.close();
    a.release();
    expect(readdirSync(openMarkersDir(home))).toEqual([]);
    const b = openDatabase(home);
    expect(b.checked).toBe('none');
    b.db.close();
    b.release();
  });

  it('a marker left by a process that is gone makes the next start check the whole file, and a damaged one is moved aside', () => {
    const { home, runId } = seeded();
    writeFileSync(join(openMarkersDir(home), `${hostname()}-${deadPid()}-abcd`), '');
    const ok = openDatabase(home);
    expect(ok.checked).toBe('after-crash');
    expect(new Store(ok.db).getRun(runId)?.id).toBe(runId);
    ok.db.close();
    ok.release();
    expect(readdirSync(openMarkersDir(home))).toEqual([]);

    // A data page damaged (the schema intact): a normal start does not read it; the start after a crash finds it.
    const file = join(home, 'ratchet.db');
    const db = new Database(file);
    const pages = db.pragma('page_count', { simple: true }) as number;
    const events = (db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'events'").get() as { rootpage: number }).rootpage;
    const size = db.pragma('page_size', { simple: true }) as number;
    db.close();
    expect(pages).toBeGreaterThan(events);
    const bytes = readFileSync(file);
    for (let i = (events - 1) * size + 8; i < events * size; i++) bytes[i] = (i * 7919) & 0xff;
    writeFileSync(file, bytes);
    const quiet = openDatabase(home);
    expect(quiet.movedAside).toBeNull();
    quiet.db.close();
    quiet.release();
    writeFileSync(join(openMarkersDir(home), `${hostname()}-${deadPid()}-beef`), '');
    const checked = openDatabase(home);
    expect(checked.checked).toBe('after-crash');
    expect(checked.movedAside).toMatch(/ratchet\.db\.corrupt-/);
    checked.db.close();
    checked.release();
  });
});
