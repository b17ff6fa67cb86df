// A user's Stop and "Start again" through the service: the run ends `cancelled` ("Stopped by you"), its step no longer
// running; runs.restart starts a new run with the same task, plan and workflow.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { processesWith } from '../testing/processes';
import { callValue, until } from '../testing/service-calls';
import { serviceHarness } from '../testing/service-harness';
import { makeRepo } from '../testing/temp-repo';
import { parseWorkflow } from '../workflow/load-workflow';

const harness = serviceHarness();

const call = callValue;

/** The latched gate's processes (their command line names the latch folder) are gone: a stop leaves nothing running. */
async function gateGone(latches: string): Promise<void> {
  await until(() => processesWith(latches).length === 0, {
    ms: 10_000,
    describe: () => `the stopped gate's processes to end; still running:\n${processesWith(latches).join('\n')}`,
  });
}

async function setup() {
  const { engine, service } = await harness.start({ service: { queuePollMs: 100 } });
  // The gate waits for a latch file, so the test decides when it ends.
  const latches = mkdtempSync(join(tmpdir(), 'ratchet-latch-'));
  const repo = makeRepo();
  const runId = await call<{ runId: string }>(service, 'runs.start', {
    repo,
    title: 'Latched',
    description: 'Make the latch pass.',
    steps: [{ title: 'One', gates: ['wait'] }],
    gates: { wait: `while [ ! -f ${latches}/go ]; do sleep 0.05; done; echo ok` },
  }).then((r) => r.runId);
  const release = () => writeFileSync(join(latches, 'go'), '');
  return { engine, service, runId, release, repo, latches };
}

describe('a user stop', () => {
  it('ends the run cancelled, "Stopped by you", with its step no longer running; Start again runs the same task anew', async () => {
    const { engine: e, service: s, runId, release, latches } = await setup();
    await until(() => e.store.eventsSince(runId).some((ev) => ev.type === 'gate.started'));
    await call(s, 'runs.stop', { runId });
    await gateGone(latches);
    const doc = e.status(runId);
    expect(doc.status).toBe('cancelled');
    expect(doc.reason).toMatch(/^Stopped by you during step 1\./);
    expect(doc.steps[0]!.status).not.toBe('running');
    expect(doc.steps[0]!.attempts.map((a) => a.outcome)).toEqual(['interrupted']);

    // No completed step: Retry cannot work, Start again can — a new run with the same task, plan and workflow.
    const again = await call<{ runId: string }>(s, 'runs.restart', { runId });
    expect(again.runId).not.toBe(runId);
    release();
    await until(() => e.store.getRun(again.runId)?.status === 'succeeded');
    const fresh = e.status(again.runId);
    expect(e.store.getRun(again.runId)?.task_title).toBe('Latched');
    expect(fresh.steps.map((x) => x.title)).toEqual(['One']);
    expect(e.store.getTaskDescription(again.runId)).toBe('Make the latch pass.');
    expect(e.store.getWorkflow(again.runId).gates).toEqual(e.store.getWorkflow(runId).gates);
    // The stopped run is left as it was.
    expect(e.status(runId).status).toBe('cancelled');
  }, 90_000);

  it('a shutdown of the host is not a user stop: the run is paused to resume, not cancelled', async () => {
    const { engine: e, service: s, runId, latches } = await setup();
    await until(() => e.store.eventsSince(runId).some((ev) => ev.type === 'gate.started'));
    await s.close();
    // A gate stopped in its first milliseconds ran on in its sandbox, parentless (terminateGroup, process/kill-group.ts).
    await gateGone(latches);
    expect(e.status(runId).status).toBe('paused');
    expect(e.status(runId).steps[0]!.status).not.toBe('running');
  }, 90_000);
});

describe('a run starting', () => {
  it('is not taken for an interrupted run while its sandbox is being set up (a new run flashed "Interrupted")', async () => {
    const server = await harness.server();
    const e = harness.engine({ ...process.env, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url });
    const parsed = parseWorkflow('gates: { ok: "true" }\nsteps:\n  - title: One\n    allow_empty: true\n');
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const runId = await e.createRun(await e.prepareRun({ repo: makeRepo(), workflow: parsed.workflow }));
    const done = e.execute(runId, new AbortController().signal);
    // What the app's Home screen (runs.interrupted) or the host's watcher may do at any moment.
    expect(e.detectInterrupted()).toEqual([]);
    const doc = await done;
    expect(e.store.eventsSince(runId).some((ev) => ev.type === 'run.status' && (ev.payload as { status: string }).status === 'interrupted')).toBe(false);
    expect(doc.status).not.toBe('interrupted');
  }, 60_000);
});
