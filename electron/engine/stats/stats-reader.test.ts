// The dashboard's heavy calls (issue 33, item 5): the weekly report, the improvement suggestions and the what-if replay
// read a period's raw rows; the host's service has them answered by the stats worker on its own read-only connection,
// so the host's connection (and event loop) reads none of those rows, and the answers are the ones computed inline.
import { describe, expect, it } from 'vitest';
import { createEngine } from '../engine';
import { createService } from '../service/service';
import { writeVariedHistory } from '../store/testing/varied-history';
import { tempDir } from '../testing/temp-repo';
import { runStatsCall, type StatsContext } from './stats-calls';
import { createStatsReader, statsWorkerEntry } from './stats-reader';
import { openDatabase } from '../store/open-store';

const end = new Date();
const ctx: StatsContext = { nowIso: end.toISOString(), dailyUsd: 1, preset: 'conservative' };

describe('the stats worker', () => {
  it("answers the service's report, suggestions and what-if without one raw-row read on the host's connection", async () => {
    const engine = createEngine({ home: tempDir(), env: {}, now: () => end });
    writeVariedHistory(engine.store.db, { runs: 40, days: 20, end, seed: 7 });
    const service = createService(engine, { host: 'headless', version: 'test', env: {}, watchMs: 3_600_000 });
    const host: string[] = [];
    const prepare = engine.store.db.prepare.bind(engine.store.db);
    engine.store.db.prepare = ((sql: string) => {
      host.push(sql);
      return prepare(sql);
    }) as typeof engine.store.db.prepare;
    try {
      const [report, improvements, whatIf] = [
        await service.handlers['stats.report']({ days: 30 }),
        await service.handlers['stats.improvements']({ days: 30 }),
        await service.handlers['stats.whatIf']({ days: 30, preset: 'aggressive' }),
      ];
      engine.store.db.prepare = prepare;
      const raw = host.filter((sql) => /\b(FROM|JOIN)\s+(attempts|step_runs|api_calls)\b/i.test(sql));
      expect(raw).toEqual([]);
      // The same answers as inline (the whole-period settings of the service: the default preset and no daily budget).
      const settings = engine.settings();
      const inline = { ...ctx, dailyUsd: settings.budget.dailyUsd, preset: settings.preset };
      expect(report.markdown).toBe(runStatsCall(engine.store.db, { kind: 'report', days: 30, ctx: inline }).markdown);
      expect(improvements).toEqual(runStatsCall(engine.store.db, { kind: 'improvements', days: 30, ctx: inline }));
      expect(improvements.items.length).toBeGreaterThan(0);
      expect(whatIf).toEqual(runStatsCall(engine.store.db, { kind: 'whatIf', days: 30, choice: { preset: 'aggressive' }, ctx: inline }));
      expect(whatIf.actual.succeeded + whatIf.actual.failed).toBeGreaterThan(0);
    } finally {
      engine.store.db.prepare = prepare;
      await service.close();
      engine.close();
      await engine.releaseSandbox();
    }
  });

  it('runs the call inline where no worker can run: an in-memory store, or no worker file beside the module', async () => {
    expect(statsWorkerEntry('file:///nowhere/stats-reader.mjs')).toBeNull();
    expect(statsWorkerEntry()).not.toBeNull();
    const { db } = openDatabase(tempDir());
    writeVariedHistory(db, { runs: 30, days: 10, end, seed: 3 });
    const inline = createStatsReader(db, { worker: false });
    const call = { kind: 'improvements', days: 7, ctx } as const;
    expect(await inline.call(call)).toEqual(runStatsCall(db, call));
    expect(inline.offThread()).toBe(false);
    await inline.close();
    db.close();
  });
});
