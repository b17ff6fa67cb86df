// `ratchet run --queue`: the run waits as `queued` while the slots (Settings' concurrency) are taken anywhere, then runs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../scripted/server';
import { createEngine } from '../engine/engine';
import { byStep } from '../engine/testing/recovery-fixtures';
import { fixtureProject } from '../engine/testing/fixture-project';
import { TEST_SANDBOX_MODE } from '../engine/testing/sandbox-mode';
import { cli } from './testing/run-cli';
import { RunQueue } from '../engine/store/run-queue';
import { applyRunEvent } from '../engine/run/apply-run-commands';
import { until } from '../../shared/testing/until';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ONE_STEP = `
gates:
  ok: "true"
steps:
  - title: One
    gates: [ok]
`;

describe('ratchet run --queue', () => {
  it('waits as queued while another process holds the only slot, then runs to the end', async () => {
    const p = fixtureProject(ONE_STEP);
    server = await startScriptedServer({ script: byStep });
    const env = { RATCHET_HOME: p.home, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url };
    mkdirSync(p.home, { recursive: true });
    writeFileSync(join(p.home, 'settings.json'), JSON.stringify({ concurrency: 1 }));
    // Another run holds the slot: its lease is held by a live process (this one, as another CLI would).
    const engine = createEngine({ sandbox: TEST_SANDBOX_MODE, home: p.home, env: { ...process.env, ...env } });
    const blocker = await engine.createRun(await engine.prepareRun({ repo: p.repo, workflowFile: p.workflowFile, title: 'blocker' }));
    expect(engine.store.acquireLease(blocker, { pid: process.pid, host: hostname(), token: 'blocker' }, 600_000, () => true)).toMatchObject({ ok: true });

    let err = '';
    const run = cli(['run', p.repo, '--workflow', p.workflowFile, '--task', 'queued one', '--yes', '--json', '--queue'], env, undefined, (e) => (err = e));
    const id = await until(() => engine.store.listRuns().find((r) => r.task_title === 'queued one' && r.status === 'queued')?.id, {
      ms: 20_000,
      describe: 'the run to show as queued',
    });
    await until(() => err.includes('Queued: next in line'), { ms: 20_000, describe: 'the CLI to say it waits' });
    // A run put ahead of it is seen by a later poll of the CLI (it says so): that poll, with the slot still held,
    // did not start the run.
    const ahead = await engine.createRun(await engine.prepareRun({ repo: p.repo, workflowFile: p.workflowFile, title: 'ahead' }));
    const queue = new RunQueue(engine.store, applyRunEvent(engine.store));
    queue.enqueue(ahead, { kind: 'execute' }, { priority: 10, owner: { pid: process.pid, host: hostname() }, reason: 'ahead' });
    await until(() => err.includes('Queued: 1 run ahead'), { ms: 20_000, describe: 'the CLI to see the run ahead of it' });
    expect(engine.store.getRun(id)?.status).toBe('queued');
    queue.cancel(ahead);
    engine.store.releaseLease(blocker, 'blocker');
    const r = await run;
    expect(r.err).toContain('Queued: next in line; waiting for a free slot (1 at a time');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ id, status: 'succeeded' });
    engine.close();
    await engine.releaseSandbox();
  }, 60_000);

  it('refuses --priority without --queue, and a priority that is not a whole number', async () => {
    const p = fixtureProject(ONE_STEP);
    const env = { RATCHET_HOME: p.home, ANTHROPIC_API_KEY: 'k' };
    expect(await cli(['run', p.repo, '--workflow', p.workflowFile, '--priority', '3', '--yes'], env)).toMatchObject({
      code: 2,
      err: expect.stringContaining('--priority only applies with --queue'),
    });
    expect(await cli(['run', p.repo, '--workflow', p.workflowFile, '--queue', '--priority', 'high', '--yes'], env)).toMatchObject({
      code: 2,
      err: expect.stringContaining('--priority takes a whole number'),
    });
  });
});
