// The run lease inside the engine: execute holds it and gives it back; a second execute anywhere is refused; an
// owner whose lease another process took over (after it ran out) stops at once and no longer writes the run's status.
import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../scripted/server';
import { createEngine } from './engine';
import { openDatabase } from './store/open-store';
import { Store } from './store/store';
import { create, fixtureProject, queue, say, turn } from './testing/fixture-project';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const SLOW_GATE = `
gates:
  test: { run: "sleep 20", timeout: 60 }
steps:
  - title: Slow step
`;

describe('the run lease in the engine', () => {
  it('a second execute of a running run is refused with the holder named, and the lease is given back at the end', async () => {
    const p = fixtureProject(SLOW_GATE);
    server = await startScriptedServer({ script: { rules: queue(turn(create('a.txt', 'x\n')), say('done')) } });
    const env = { ...process.env, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url };
    const engine = createEngine({ home: p.home, env });
    const runId = await engine.createRun(await engine.prepareRun({ repo: p.repo, workflowFile: p.workflowFile }));
    const controller = new AbortController();
    const gateStarted = new Promise<void>((ok) => engine.onEvent((e) => e.type === 'gate.started' && ok()));
    const first = engine.execute(runId, controller.signal);
    await gateStarted;
    // Another engine (another connection, as another process would have) and this one alike are refused.
    const other = createEngine({ home: p.home, env });
    await expect(other.execute(runId, new AbortController().signal)).rejects.toMatchObject({
      code: 'run_busy',
      message: expect.stringContaining(`busy in process ${process.pid} on host ${hostname()}`),
    });
    await expect(other.resume(runId, { signal: new AbortController().signal })).rejects.toMatchObject({ code: 'run_busy' });
    // The resume dialog and `ratchet resume` say so before showing any plan.
    await expect(other.inspectResume(runId)).rejects.toMatchObject({ code: 'run_busy' });
    await expect(engine.execute(runId, new AbortController().signal)).rejects.toMatchObject({ code: 'run_busy' });
    expect(other.store.getRun(runId)?.status).toBe('running');
    controller.abort();
    expect((await first).status).toBe('paused');
    expect(other.store.getRun(runId)).toMatchObject({ owner_pid: null, owner_token: null, lease_until: null });
    other.close();
    engine.close();
  }, 30_000);

  it('an owner that lost its lease stops at once, and its late status writes do not land', async () => {
    const p = fixtureProject(SLOW_GATE);
    server = await startScriptedServer({ script: { rules: queue(turn(create('a.txt', 'x\n')), say('done')) } });
    const engine = createEngine({ home: p.home, env: { ...process.env, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url }, heartbeatMs: 50 });
    const runId = await engine.createRun(await engine.prepareRun({ repo: p.repo, workflowFile: p.workflowFile }));
    const gateStarted = new Promise<void>((ok) => engine.onEvent((e) => e.type === 'gate.started' && ok()));
    const started = Date.now();
    const run = engine.execute(runId, new AbortController().signal);
    await gateStarted;
    // As if this process had stalled past its lease: another process finds it ran out and takes the run.
    const rival = new Store(openDatabase(p.home).db);
    rival.db.prepare("UPDATE runs SET lease_until = '2000-01-01T00:00:00.000Z' WHERE id = ?").run(runId);
    expect(rival.acquireLease(runId, { pid: process.pid, host: hostname(), token: 'rival' }, 60_000, () => true)).toMatchObject({
      ok: true,
      took: { kind: 'expired' },
    });
    rival.setRunStatus(runId, 'running', 'taken over');
    await run;
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(rival.getRun(runId)).toMatchObject({ status: 'running', reason: 'taken over', owner_token: 'rival' });
    rival.db.close();
    engine.close();
  }, 30_000);
});
