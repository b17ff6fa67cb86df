// Two processes writing one store at once: every write transaction is BEGIN IMMEDIATE, so none fails with SQLITE_BUSY.
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/temp-repo';
import { openDatabase } from './open-store';
import { Store } from './store';
import { seedRun } from './testing/seed-run';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = resolve(HERE, '../../..');
const WORKER = join(HERE, 'testing', 'revise-loop.ts');
const REVISIONS = 400;

function worker(home: string, runId: string, startAt: number): Promise<{ ok: number; busy: number; other: string[] }> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER, home, runId, String(REVISIONS), String(startAt)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (err += String(d)));
    child.once('exit', (code) => {
      try {
        ok(JSON.parse(out));
      } catch {
        fail(new Error(`worker exited ${code}: ${err}`));
      }
    });
  });
}

describe('two processes revising plans in a loop', () => {
  it(`both get all ${REVISIONS} revisions in, with no SQLITE_BUSY`, async () => {
    const home = tempDir();
    const { db } = openDatabase(home);
    const runId = seedRun(new Store(db));
    db.close();
    // Started at one moment (after both have loaded), so the loops overlap.
    const startAt = Date.now() + 4_000;
    const [a, b] = await Promise.all([worker(home, runId, startAt), worker(home, runId, startAt)]);
    console.log(`concurrent plan revisions: A ${JSON.stringify(a)}, B ${JSON.stringify(b)}`);
    expect(a.other).toEqual([]);
    expect(b.other).toEqual([]);
    expect(a.busy + b.busy).toBe(0);
    expect(a.ok + b.ok).toBe(2 * REVISIONS);
    const check = new Store(openDatabase(home).db);
    expect(check.getPlan(runId)?.revision).toBe(1 + 2 * REVISIONS);
    check.db.close();
  }, 120_000);
});
