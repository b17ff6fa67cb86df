import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../engine/engine';
import { createService } from '../engine/service/service';
import { loadStatsFromRows } from '../engine/stats/stats-load';
import { writeVariedHistory } from '../engine/store/testing/varied-history';
import { tempDir } from '../engine/testing/temp-repo';
import { MIGRATIONS } from '../engine/store/migrations';
import { cli } from './testing/run-cli';

async function busyHome(): Promise<string> {
  const home = tempDir();
  const engine = createEngine({ home, env: {} });
  writeVariedHistory(engine.store.db, { runs: 80, days: 35, end: new Date() });
  engine.close();
  await engine.releaseSandbox();
  return home;
}

describe('ratchet stats', () => {
  it('prints the numbers the app dashboard gets (--json), for any --days', async () => {
    const home = await busyHome();
    const s7 = await cli(['stats', '--json'], { RATCHET_HOME: home });
    const s30 = await cli(['stats', '--days', '30', '--json'], { RATCHET_HOME: home });
    expect(s7.code).toBe(0);
    const engine = createEngine({ home, env: {} });
    const service = createService(engine, { host: 'headless', version: 't', env: {}, watchMs: 3_600_000 });
    // The same numbers; the CLI's suggestions also carry the improvement suggestions (the app asks stats.improvements for them).
    const numbers = (doc: { suggestions: string[] }) => ({ ...doc, suggestions: [] });
    expect(numbers(JSON.parse(s7.out))).toEqual(numbers(await service.handlers['stats.summary']({ days: 7 })));
    expect(numbers(JSON.parse(s30.out))).toEqual(numbers(await service.handlers['stats.summary']({ days: 30 })));
    // The numbers are the rows' (the suggestions add the improvement suggestions, which the rows' reference does not make).
    // (How the estimates held is not the period's, and the pull requests' rounds are not the attempts' rows: the rows' reference leaves them out.)
    expect({ ...JSON.parse(s30.out), suggestions: [], estimates: undefined, pullRequests: undefined }).toEqual({
      ...loadStatsFromRows(engine.store.db, 30, new Date(), null),
      suggestions: [],
    });
    expect(JSON.parse(s30.out).runs).toBeGreaterThan(JSON.parse(s7.out).runs);
    await service.close();
    engine.close();
    await engine.releaseSandbox();
    const text = await cli(['stats', '--days', '12'], { RATCHET_HOME: home });
    expect(text.out).toContain('# Retry statistics — last 12 days');
    expect(text.out).toContain('| 1 retry |');
  });

  it('the text report lists every suggestion --json lists: never "Nothing stands out" beside suggestions (issue 20 item 5)', async () => {
    const home = await busyHome();
    for (const days of ['7', '30']) {
      const json = JSON.parse((await cli(['stats', '--days', days, '--json'], { RATCHET_HOME: home })).out) as { suggestions: string[] };
      const text = (await cli(['stats', '--days', days], { RATCHET_HOME: home })).out;
      expect(json.suggestions.length).toBeGreaterThan(0);
      for (const s of json.suggestions) expect(text).toContain(`- ${s}`);
      expect(text).not.toContain('Nothing stands out');
    }
  });

  it('--json lists the same suggestions as the report and the app (its improvement suggestions included): one source (issue 29 item 9)', async () => {
    const home = await busyHome();
    const engine = createEngine({ home, env: {} });
    const service = createService(engine, { host: 'headless', version: 't', env: {}, watchMs: 3_600_000 });
    try {
      for (const days of [7, 30] as const) {
        const json = JSON.parse((await cli(['stats', '--days', String(days), '--json'], { RATCHET_HOME: home })).out) as { suggestions: string[] };
        const text = (await cli(['stats', '--days', String(days)], { RATCHET_HOME: home })).out;
        const section = text.split('## Improvement suggestions')[1]!.split('\n## ')[0]!;
        const reported = section
          .split('\n')
          .filter((l) => l.startsWith('- '))
          .map((l) => l.slice(2));
        expect(json.suggestions).toEqual(reported);
        const app = (await service.handlers['stats.improvements']({ days })).items;
        expect(app.length).toBeGreaterThan(0);
        for (const item of app) expect(json.suggestions.some((x) => x.startsWith(item.finding))).toBe(true);
        // The app's summary (kept to the per-day tables, so the dashboard paints at once) lists its own suggestions, all in the CLI's list.
        for (const own of (await service.handlers['stats.summary']({ days })).suggestions) expect(json.suggestions).toContain(own);
      }
    } finally {
      await service.close();
      engine.close();
      await engine.releaseSandbox();
    }
  });

  it('refuses a bad --days and answers --help', async () => {
    const home = tempDir();
    const bad = await cli(['stats', '--days', '0'], { RATCHET_HOME: home });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--days takes a whole number of days');
    const help = await cli(['stats', '--help'], { RATCHET_HOME: home });
    expect(help.code).toBe(0);
    expect(help.out).toContain('ratchet stats [--days N] [--json]');
  });
});

describe('ratchet doctor', () => {
  it('reports a healthy store: integrity, schema, sizes, nothing to do', async () => {
    const home = await busyHome();
    const r = await cli(['doctor', '--json'], { RATCHET_HOME: home });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out);
    expect(doc).toMatchObject({
      exists: true,
      ok: true,
      schemaVersion: MIGRATIONS.at(-1)?.version,
      newestSchema: MIGRATIONS.at(-1)?.version,
      integrity: { ok: true, problems: [] },
      advice: ['Nothing to do: the store is healthy.'],
    });
    expect(doc.sizes.fileBytes).toBeGreaterThan(0);
    expect(doc.sizes.tables.map((t: { name: string }) => t.name)).toContain('attempt_results');
    const text = await cli(['doctor'], { RATCHET_HOME: home });
    expect(text.out).toMatch(/integrity ok/);
  });

  it('finds a damaged page a normal start does not read, says what to do, exits 1', async () => {
    const home = await busyHome();
    const file = join(home, 'ratchet.db');
    const db = new Database(file);
    db.pragma('wal_checkpoint(TRUNCATE)');
    const root = (db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'attempts'").get() as { rootpage: number }).rootpage;
    const size = db.pragma('page_size', { simple: true }) as number;
    db.close();
    const bytes = readFileSync(file);
    for (let i = (root - 1) * size + 100; i < root * size; i++) bytes[i] = (i * 31) & 0xff;
    writeFileSync(file, bytes);
    const r = await cli(['doctor', '--json'], { RATCHET_HOME: home });
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.out);
    expect(doc.integrity.ok).toBe(false);
    expect(doc.advice.join('\n')).toMatch(/ratchet recover <repo>/);
  });
});
