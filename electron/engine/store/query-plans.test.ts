// Every statement the store runs on a busy store is checked with EXPLAIN QUERY PLAN: none scans a table that grows with history.
import type Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createService } from '../service/service';
import { createEngine } from '../engine';
import { statusDocument } from '../run/status-document';
import { openDatabase } from './open-store';
import { Store } from './store';
import { writeVariedHistory } from './testing/varied-history';
import { loadEstimateHistory } from '../estimate/estimate-load';
import { loadEstimateRecord } from '../stats/estimate-record';
import { setRunEstimate } from './estimate-queries';

/** The tables that grow with every run; a plain `SCAN` of one of them is a bug. */
const GROWING = [
  'events',
  'attempts',
  'step_runs',
  'api_calls',
  'gate_results',
  'gate_outputs',
  'attempt_prompts',
  'attempt_results',
  'runs',
  'tasks',
  'plans',
  'resumes',
];
/** Ordered scans that stop at a LIMIT (the runs list's page) are fine. */
const ALLOWED = [/^SCAN runs USING INDEX runs_list$/, /^SCAN runs USING INDEX runs_estimated$/];

function recording(db: Database.Database): { db: Database.Database; seen: Map<string, unknown[]> } {
  const seen = new Map<string, unknown[]>();
  const wrap = (sql: string, st: Database.Statement) =>
    new Proxy(st, {
      get(target, prop) {
        const v = Reflect.get(target, prop, target) as unknown;
        if (typeof v !== 'function') return v;
        if (prop === 'run' || prop === 'get' || prop === 'all' || prop === 'iterate') {
          return (...args: unknown[]) => {
            if (!seen.has(sql)) seen.set(sql, args);
            return (v as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        return (v as (...a: unknown[]) => unknown).bind(target);
      },
    });
  const proxy = new Proxy(db, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target) as unknown;
      if (prop === 'prepare') return (sql: string) => wrap(sql, target.prepare(sql));
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { db: proxy, seen };
}

function scans(db: Database.Database, sql: string, args: unknown[]): string[] {
  const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(args as never[])) as Array<{ detail: string }>;
  // The names a growing table goes by in this statement: its own, and its aliases (`FROM attempts a`).
  const names = new Set(GROWING);
  for (const t of GROWING) for (const m of sql.matchAll(new RegExp(`\\b${t}\\s+(?:AS\\s+)?(\\w+)`, 'gi'))) names.add(m[1] as string);
  for (const kw of ['WHERE', 'JOIN', 'ON', 'SET', 'ORDER', 'GROUP', 'LEFT', 'INDEXED', 'VALUES', 'LIMIT']) names.delete(kw);
  return plan
    .map((p) => p.detail)
    .filter((d) => {
      if (ALLOWED.some((a) => a.test(d))) return false;
      const m = /^(SCAN|SEARCH) (\w+)/.exec(d);
      if (!m || !names.has(m[2] as string)) return false;
      // A full scan, or a per-run question answered by walking every row after an id (the whole table from id 0).
      return m[1] === 'SCAN' || (/\(rowid>\?\)/.test(d) && /\brun_id\s*=/.test(sql));
    });
}

describe('query plans', () => {
  it("the store's reads and writes on a busy store use an index (no SCAN of a growing table)", async () => {
    const home = mkdtempSync(join(tmpdir(), 'ratchet-plans-'));
    const { db } = openDatabase(home);
    writeVariedHistory(db, { runs: 60, days: 10, end: new Date() });
    const rec = recording(db);
    const store = new Store(rec.db);
    // What the engine, the service and the CLI ask of the store while runs go on and the app reads.
    store.watchOtherWriters();
    store.pollOtherWriters();
    const runs = store.listRunSummaries({ limit: 20 });
    const older = store.listRunSummaries({ limit: 20, before: { createdAt: runs[19]!.created_at, id: runs[19]!.id } });
    expect(older.length).toBeGreaterThan(0);
    for (const run of runs.slice(0, 5)) {
      const attempts = store.getAttempts(run.id);
      store.getAttempts(run.id, 1);
      store.getSteps(run.id);
      store.eventsSince(run.id, 0);
      store.eventsSince(run.id, 100);
      store.taskSpentUsd(run.id);
      store.hasEventSince('budget.alert', `task:${run.id}`, '1970-01-01T00:00:00.000Z');
      store.hasEventSince('budget.alert', 'daily', new Date().toISOString());
      store.usageBetween(run.id, '2020-01-01T00:00:00.000Z', null);
      store.stepFailuresAcrossRuns(run.id, 1, 'step 1');
      statusDocument(store, store.getRun(run.id)!);
      for (const a of attempts) {
        store.getGateResults(a.id);
        store.getAttemptTexts(a.id);
      }
      store.recordGate(run.id, attempts[0]!.id, {
        gate: 'test',
        command: 'true',
        passed: true,
        exitCode: 0,
        signal: null,
        timedOut: false,
        durationMs: 1,
        output: 'ok',
        outputBytes: 2,
        failures: [],
      });
    }
    store.runsWithStatus(['running', 'waiting', 'planning']);
    store.interruptedLike('/repo/1', 'Task 1');
    store.spentSinceUsd(new Date().toISOString());
    store.closeDeadAttempts(runs[0]!.id);
    // The estimate before a run: this repository's and workflow's last runs, the store's last runs, their attempts.
    const history = loadEstimateHistory(rec.db, '/repo/1', 'ratchet.yml');
    expect(history.store.length).toBeGreaterThan(0);
    setRunEstimate(rec.db, runs[0]!.id, '{}');
    loadEstimateRecord(rec.db);

    const bad = [...rec.seen].flatMap(([sql, args]) => scans(db, sql, args).map((d) => `${d}  ←  ${sql.replace(/\s+/g, ' ').slice(0, 160)}`));
    expect(bad).toEqual([]);
    expect(rec.seen.size).toBeGreaterThan(20);
    db.close();
  });

  it("the service's runs list, interrupted runs, recent repositories and queue use an index too", async () => {
    const home = mkdtempSync(join(tmpdir(), 'ratchet-plans-'));
    const engine = createEngine({ home, env: {} });
    writeVariedHistory(engine.store.db, { runs: 30, days: 5, end: new Date() });
    const rec = recording(engine.store.db);
    const service = createService({ ...engine, store: new Store(rec.db) } as never, { host: 'headless', version: 't', env: {}, watchMs: 3_600_000 });
    await service.handlers['runs.list']({});
    await service.handlers['runs.interrupted']({});
    await service.handlers['stats.summary']({ days: 30 });
    // The sidebar's recent repositories and the queue's state (its active runs' leases): the dashboard bench found both
    // reading every run (P5b, 0.6 s each over a year of history).
    await service.handlers['repos.recent']({});
    await service.handlers['runs.queue']({});
    await service.close();
    const bad = [...rec.seen].flatMap(([sql, args]) => scans(engine.store.db, sql, args).map((d) => `${d}  ←  ${sql.replace(/\s+/g, ' ').slice(0, 160)}`));
    expect(bad).toEqual([]);
    engine.close();
    await engine.releaseSandbox();
  });
});
