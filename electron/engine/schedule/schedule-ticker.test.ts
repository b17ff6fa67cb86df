import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../engine';
import { fixtureProject } from '../testing/fixture-project';
import { TEST_SANDBOX_MODE } from '../testing/sandbox-mode';
import { scheduleBook } from './schedule-book';
import { createScheduleTicker } from './schedule-ticker';

const T0 = Date.parse('2026-03-02T09:00:10.000Z');

/** A repository whose named workflow file is trusted, and a clock the test moves. */
async function setup() {
  const p = fixtureProject();
  let now = new Date(T0);
  const clock = () => now;
  const engine = () => createEngine({ home: p.home, env: { ...process.env, ANTHROPIC_API_KEY: 'k' }, sandbox: TEST_SANDBOX_MODE, now: clock });
  const a = engine();
  await a.prepareRun({ repo: p.repo, workflowFile: p.workflowFile, repoWorkflow: true, trust: true });
  return { p, a, engine, clock, at: (ms: number) => (now = new Date(T0 + ms)) };
}

describe('schedules fire on their ticks', () => {
  it('an every-minute schedule fires exactly once per tick with two hosts on one home, each run saying which schedule started it', async () => {
    const { p, a, engine, clock, at } = await setup();
    const b = engine();
    const sch = await scheduleBook(a, clock).add({ repo: p.repo, cron: '* * * * *', workflowFile: p.workflowFile, task: 'Nightly' });
    const executed: string[] = [];
    const ta = createScheduleTicker(a, { now: clock, execute: (id) => executed.push(id) });
    const tb = createScheduleTicker(b, { now: clock, execute: (id) => executed.push(id) });
    const runs: string[] = [];
    for (let minute = 1; minute <= 3; minute++) {
      at(minute * 60_000 - 10_000 + 2_000); // two seconds past each minute's tick
      const [x, y] = await Promise.all([ta.tick(), tb.tick()]);
      expect([...x, ...y]).toHaveLength(1);
      runs.push(...x, ...y);
      // A second look at the same tick starts nothing more.
      expect([...(await ta.tick()), ...(await tb.tick())]).toEqual([]);
    }
    expect(executed).toEqual(runs);
    expect(new Set(runs).size).toBe(3);
    const rows = a.store.db.prepare('SELECT id, schedule_id FROM runs ORDER BY created_at').all() as { id: string; schedule_id: string }[];
    expect(rows.map((r) => r.schedule_id)).toEqual([sch.id, sch.id, sch.id]);
    const log = a.store.eventsSince(runs[0]!).find((e) => e.type === 'log');
    expect(log?.payload.message).toContain(`Started by schedule ${sch.id}`);
    expect(scheduleBook(a, clock).list()[0]).toMatchObject({ lastRunId: runs[2], problem: null });
    a.close();
    b.close();
  });

  it('ticks missed while nothing ran fire once at the next start, or not at all for a schedule that skips them', async () => {
    const { p, a, clock, at } = await setup();
    const book = scheduleBook(a, clock);
    await book.add({ repo: p.repo, cron: '*/5 * * * *', workflowFile: p.workflowFile, missed: 'run-once' });
    await book.add({ repo: p.repo, cron: '*/5 * * * *', workflowFile: p.workflowFile, missed: 'skip' });
    at(3 * 3600_000 + 120_000); // three hours later: 36 ticks missed, the last two minutes ago
    const t = createScheduleTicker(a, { now: clock, execute: () => undefined });
    const fired = await t.tick();
    expect(fired).toHaveLength(1);
    const once = book.list().find((s) => s.missed === 'run-once');
    const skipped = book.list().find((s) => s.missed === 'skip');
    expect(once!.lastRunId).toBe(fired[0]);
    expect(skipped).toMatchObject({ lastRunId: null, lastTickAt: once!.lastTickAt });
    expect(await t.tick()).toEqual([]);
    a.close();
  });

  it('a tick that cannot start (workflow no longer trusted, budget spent, repository gone) keeps the schedule, marked with what to do', async () => {
    const { p, a, clock, at } = await setup();
    const book = scheduleBook(a, clock);
    const sch = await book.add({ repo: p.repo, cron: '* * * * *', workflowFile: p.workflowFile });
    const t = createScheduleTicker(a, { now: clock, execute: () => undefined });
    await a.revokeTrust(p.repo);
    at(60_000);
    expect(await t.tick()).toEqual([]);
    expect(book.list()[0]!.problem).toContain(`ratchet trust ${JSON.stringify(p.repo)} --workflow ${JSON.stringify(p.workflowFile)}`);

    await a.prepareRun({ repo: p.repo, workflowFile: p.workflowFile, repoWorkflow: true, trust: true });
    a.applySettings({ ...a.settings(), budget: { ...a.settings().budget, dailyUsd: 1 } });
    a.store.db.pragma('foreign_keys = OFF');
    a.store.db
      .prepare(
        'INSERT INTO api_calls (attempt_id, model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_usd, at) VALUES (0, ?, 0, 0, 0, 0, 2, ?)',
      )
      .run('m', clock().toISOString());
    at(120_000);
    expect(await t.tick()).toEqual([]);
    expect(book.list()[0]!.problem).toMatch(/Today's budget \(\$1\.00\) is already spent/);

    rmSync(p.repo, { recursive: true, force: true });
    a.applySettings({ ...a.settings(), budget: { ...a.settings().budget, dailyUsd: null } });
    at(180_000);
    expect(await t.tick()).toEqual([]);
    expect(book.list()[0]).toMatchObject({ id: sch.id, problem: expect.stringContaining(`The repository ${p.repo} is gone`) });
    a.close();
  });

  it('refuses a bad schedule at once: an invalid cron expression, an unknown time zone, a folder that is not a repository', async () => {
    const { p, a, clock } = await setup();
    const book = scheduleBook(a, clock);
    await expect(book.add({ repo: p.repo, cron: '61 * * * *', workflowFile: p.workflowFile })).rejects.toThrow(/Invalid cron expression "61 \* \* \* \*"/);
    await expect(book.add({ repo: p.repo, cron: '0 3 * * *', tz: 'Mars/Olympus', workflowFile: p.workflowFile })).rejects.toThrow(
      /Unknown time zone "Mars\/Olympus"/,
    );
    await expect(book.add({ repo: p.home, cron: '0 3 * * *' })).rejects.toThrow(/not a (folder|git repository)/);
    expect(book.list()).toEqual([]);
    a.close();
  });
});
