// Migrations 8–10 on a store written by the old (schema 7) code: every row and every text is still there, in the new layout.
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadStats, loadStatsFromRows } from '../stats/stats-load';
import { migrate } from './migration';
import { MIGRATIONS } from './migrations';
import { openDatabase } from './open-store';
import { Store } from './store';
import { fillV7 } from './testing/store-v7';

const end = new Date('2026-11-21T12:00:00Z');
const TABLES = ['repos', 'tasks', 'plans', 'runs', 'step_runs', 'attempts', 'gate_results', 'api_calls', 'events', 'resumes', 'workflow_trust'];

/** Every row of every table, in the old layout (texts joined back in; the new bookkeeping columns left out). */
function dump(db: Database.Database, layout: 'old' | 'new'): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const t of TABLES) {
    let sql = `SELECT * FROM ${t} ORDER BY rowid`;
    if (layout === 'new' && t === 'attempts') {
      sql = `SELECT a.*, p.prompt, COALESCE(r.transcript_json, '[]') AS transcript_json, r.diff
               FROM attempts a LEFT JOIN attempt_prompts p ON p.attempt_id = a.id LEFT JOIN attempt_results r ON r.attempt_id = a.id ORDER BY a.id`;
    }
    if (layout === 'new' && t === 'gate_results') sql = 'SELECT g.*, o.output FROM gate_results g JOIN gate_outputs o ON o.gate_result_id = g.id ORDER BY g.id';
    if (layout === 'new' && t === 'runs') sql = 'SELECT * FROM runs ORDER BY rowid';
    out[t] = (db.prepare(sql).all() as Array<Record<string, unknown>>).map((r) => {
      const { day: _day, tries: _tries, ...rest } = r;
      return Object.fromEntries(Object.entries(rest).sort(([a], [b]) => a.localeCompare(b)));
    });
  }
  return out;
}

describe('the layout migration (8: texts apart, 9: stats summary, 10: indexes)', () => {
  it('moves a store written by the old code without losing a row or a text', () => {
    const home = mkdtempSync(join(tmpdir(), 'ratchet-layout-'));
    const old = new Database(join(home, 'ratchet.db'));
    old.pragma('journal_mode = WAL');
    migrate(
      old,
      MIGRATIONS.filter((m) => m.version <= 7),
    );
    fillV7(old, 60, end);
    const before = dump(old, 'old');
    expect((before.attempts as unknown[]).length).toBeGreaterThan(100);
    old.close();

    const { db } = openDatabase(home);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)?.version);
    const after = dump(db, 'new');
    // Every old column of every row, as it was (later migrations may add columns; those are not compared).
    const pick = (row: unknown, like: unknown) => Object.fromEntries(Object.keys(like as object).map((k) => [k, (row as Record<string, unknown>)[k]]));
    for (const t of TABLES) {
      expect((after[t] as unknown[]).length, t).toBe((before[t] as unknown[]).length);
      expect(
        (after[t] as unknown[]).map((r, i) => pick(r, (before[t] as unknown[])[i])),
        t,
      ).toEqual(before[t]);
    }
    // The wide columns are gone from the rows lists and stats read.
    const cols = (t: string) => (db.prepare(`PRAGMA table_info(${t})`).all() as Array<{ name: string }>).map((c) => c.name);
    expect(cols('attempts')).not.toContain('transcript_json');
    expect(cols('attempts')).not.toContain('prompt');
    expect(cols('gate_results')).not.toContain('output');
    // The Store reads the moved texts back as they were.
    const store = new Store(db);
    const a = (before.attempts as Array<{ id: number; prompt: string; transcript_json: string; diff: string | null }>).find(
      (x) => x.transcript_json.length > 10_000,
    )!;
    expect(store.getAttemptTexts(a.id)).toEqual({ prompt: a.prompt, transcript_json: a.transcript_json, diff: a.diff });
    // The summary the migration built gives the same dashboard as the raw rows.
    for (const days of [7, 30]) expect(loadStats(db, days, end, null)).toEqual(loadStatsFromRows(db, days, end, null));
    expect(loadStats(db, 30, end, null).runs).toBeGreaterThan(0);
    db.close();
  });
});
