// Local schedules fire in every kind of process that hosts runs on a home: the app, `ratchet serve`, `ratchet mcp` and
// `ratchet worker`. Real processes on one RATCHET_HOME: a worker alone fires a local schedule; `ratchet serve` and
// `ratchet worker` together fire an every-two-seconds schedule exactly once per tick (the store's compare-and-set on
// the schedule row). A seconds-granular cron and a 100 ms look (RATCHET_SCHEDULE_TICK_MS) keep it to seconds.
// `ratchet worker` needs the team database (RATCHET_TEST_PG_URL): skipped with the reason elsewhere.
import { spawn, type ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../scripted/server';
import { createEngine, type Engine } from '../engine/engine';
import { scheduleBook } from '../engine/schedule/schedule-book';
import { fixtureProject, say } from '../engine/testing/fixture-project';
import { SANDBOX_AVAILABLE, TEST_SANDBOX_MODE } from '../engine/testing/sandbox-mode';
import { BIN, NODE, NO_POSTGRES_REASON, startWorker, teamDatabase, type WorkerProcess } from '../engine/testing/team-fixtures';
import { until } from '../engine/testing/service-calls';
import { cleanupsAfterEach, NOTHING_WORKFLOW } from './testing/schedule-fixture';

const NO_SANDBOX = SANDBOX_AVAILABLE ? [] : ['--no-sandbox'];

const cleanups = cleanupsAfterEach();

/** A home with one trusted repository and a schedule on it; the scripted API the runs call. */
async function scheduled(cron: string): Promise<{ home: string; scheduleId: string; env: NodeJS.ProcessEnv; engine: Engine; api: ScriptedServer }> {
  const api = await startScriptedServer({ script: () => say('Nothing to do.') });
  cleanups.push(() => api.close());
  const p = fixtureProject(NOTHING_WORKFLOW);
  const env = { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: api.url, RATCHET_HOME: p.home, RATCHET_SCHEDULE_TICK_MS: '100' };
  const engine = createEngine({ home: p.home, env: { ...process.env, ...env }, sandbox: TEST_SANDBOX_MODE });
  cleanups.push(() => engine.close());
  await engine.prepareRun({ repo: p.repo, workflowFile: p.workflowFile, repoWorkflow: true, trust: true });
  const s = await scheduleBook(engine).add({ repo: p.repo, cron, workflowFile: p.workflowFile, task: 'Scheduled' });
  return { home: p.home, scheduleId: s.id, env, engine, api };
}

/** The tick each scheduled run was started for, from its log line (`Started by schedule … for its tick at …`). */
function ticksOf(engine: Engine, scheduleId: string): string[] {
  const rows = engine.store.db.prepare('SELECT id FROM runs WHERE schedule_id = ? ORDER BY created_at').all(scheduleId) as { id: string }[];
  return rows.map((r) => {
    const line = engine.store
      .eventsSince(r.id)
      .map((e) => String((e.payload as { message?: unknown }).message ?? ''))
      .find((m) => m.startsWith(`Started by schedule ${scheduleId}`));
    return /for its tick at (\S+)\.$/.exec(line ?? '')?.[1] ?? `(no tick line for ${r.id})`;
  });
}

function stopWorker(w: WorkerProcess): Promise<unknown> {
  if (w.child.exitCode === null) w.child.kill('SIGTERM');
  return w.exited;
}

function startServe(env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string; exited: Promise<unknown> } {
  let out = '';
  const child = spawn(NODE, [BIN, 'serve', '--port', '0', ...NO_SANDBOX], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (out += String(d)));
  child.stderr?.on('data', (d) => (out += String(d)));
  const exited = new Promise((done) => child.on('exit', done));
  return { child, output: () => out, exited };
}

describe.skipIf(NO_POSTGRES_REASON)(`local schedules in \`ratchet worker\` and beside it (${NO_POSTGRES_REASON ?? 'PostgreSQL'})`, () => {
  it('a `ratchet worker` fires the local schedules of its home, as the app and `ratchet serve` do', async () => {
    const db = await teamDatabase({ migrated: true });
    cleanups.push(() => db.drop());
    const h = await scheduled('*/2 * * * * *');
    const w = startWorker(db.url, h.env, NO_SANDBOX);
    cleanups.push(() => stopWorker(w));
    await until(() => ticksOf(h.engine, h.scheduleId).length >= 2, { ms: 90_000, describe: () => `two scheduled runs; worker said:\n${w.output()}` });
    const ticks = ticksOf(h.engine, h.scheduleId);
    expect(new Set(ticks).size).toBe(ticks.length);
  }, 120_000);

  it('with `ratchet serve` and `ratchet worker` on one home, an every-two-seconds schedule fires exactly once per tick', async () => {
    const db = await teamDatabase({ migrated: true });
    cleanups.push(() => db.drop());
    const h = await scheduled('*/2 * * * * *');
    const serve = startServe(h.env);
    cleanups.push(() => {
      if (serve.child.exitCode === null) serve.child.kill('SIGTERM');
      return serve.exited;
    });
    const w = startWorker(db.url, h.env, NO_SANDBOX);
    cleanups.push(() => stopWorker(w));
    await until(() => /Ratchet is at/.test(serve.output()) && /taking runs from the team queue/.test(w.output()), {
      ms: 90_000,
      describe: () => `both processes up:\n${serve.output()}\n${w.output()}`,
    });
    // Ticks from when both run: the first one after both said they are up.
    const from = Date.now();
    const TICKS = 5;
    await until(() => ticksOf(h.engine, h.scheduleId).filter((t) => Date.parse(t) > from).length >= TICKS, {
      ms: 40_000,
      describe: () => `${TICKS} ticks with both running: ${ticksOf(h.engine, h.scheduleId).join(', ')}`,
    });
    scheduleBook(h.engine).setPaused(h.scheduleId, true);
    const ticks = ticksOf(h.engine, h.scheduleId).filter((t) => Date.parse(t) > from);
    // Once per tick: no tick started two runs, and no tick between the first and the last was left out.
    expect(new Set(ticks).size).toBe(ticks.length);
    const span = (Date.parse(ticks.at(-1)!) - Date.parse(ticks[0]!)) / 2000 + 1;
    expect(ticks.length).toBe(span);
  }, 150_000);
});
