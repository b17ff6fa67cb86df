// Start-up costs the same with a year of history as with none (issue 33, item 6: benchmark P12): what createEngine and
// the interrupted-runs sweep read from the store does not grow with the runs it holds. Counted as rows the statements
// return, so the test says what grew (a query over every run) rather than a time on a busy machine.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createEngine } from './engine';
import { writeVariedHistory } from './store/testing/varied-history';
import { tempDir } from './testing/temp-repo';

/** Rows returned by every statement run while `fn` runs (all, get, iterate). */
function rowsRead(fn: () => void): { rows: number; sql: string[] } {
  const probe = new Database(':memory:');
  const Statement = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<'all' | 'get' | 'iterate', (...a: unknown[]) => unknown> & {
    source: string;
  };
  probe.close();
  const saved = { all: Statement.all, get: Statement.get, iterate: Statement.iterate };
  let rows = 0;
  const sql: string[] = [];
  Statement.all = function (this: { source: string }, ...a: unknown[]) {
    const r = saved.all.apply(this, a) as unknown[];
    rows += r.length;
    if (r.length > 1) sql.push(`${r.length}: ${this.source.replace(/\s+/g, ' ').slice(0, 120)}`);
    return r;
  };
  Statement.get = function (this: unknown, ...a: unknown[]) {
    const r = saved.get.apply(this, a);
    if (r !== undefined) rows++;
    return r;
  };
  Statement.iterate = function* (this: unknown, ...a: unknown[]) {
    for (const r of saved.iterate.apply(this, a) as Iterable<unknown>) {
      rows++;
      yield r;
    }
  };
  try {
    fn();
  } finally {
    Object.assign(Statement, saved);
  }
  return { rows, sql };
}

async function startUp(home: string): Promise<{ rows: number; sql: string[] }> {
  let engine: ReturnType<typeof createEngine> | undefined;
  const read = rowsRead(() => {
    engine = createEngine({ home, env: {} });
    engine.detectInterrupted();
    engine.close();
  });
  await engine?.releaseSandbox();
  return read;
}

describe('start-up', () => {
  it('reads as many rows from a store with 100 finished runs as from an empty one', async () => {
    const empty = tempDir();
    const big = tempDir();
    const end = new Date();
    {
      const engine = createEngine({ home: big, env: {} });
      writeVariedHistory(engine.store.db, { runs: 100, days: 30, end, seed: 5 });
      engine.close();
      await engine.releaseSandbox();
    }
    await startUp(empty);
    const a = await startUp(empty);
    const b = await startUp(big);
    expect(b.sql).toEqual(a.sql);
    expect(b.rows).toBe(a.rows);
  });
});
