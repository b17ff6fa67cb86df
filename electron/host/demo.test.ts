// The demo's promise: by itself it runs a task that fails a test and succeeds on the retry, then one that fails for good; Retry then fixes it; every start is a fresh repository.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { StatusDocument } from '../../shared/domain';
import { until as poll } from '../../shared/testing/until';
import { createEngine, type Engine } from '../engine/engine';
import { createService, type Service } from '../engine/service/service';
import { TEST_SANDBOX_MODE } from '../engine/testing/sandbox-mode';
import { startDemo, startDemoRuns, type Demo } from './demo';

const open: Array<{ demo: Demo; engine: Engine; service: Service }> = [];
/** The first test's demo, kept for the second to start another beside (both closed after the file). */
let booted: { demo: Demo; engine: Engine; service: Service } | undefined;
afterAll(async () => {
  for (const o of open.splice(0)) {
    await o.service.close();
    o.engine.close();
    await o.engine.releaseSandbox();
    await o.demo.server.close();
  }
});

async function boot() {
  const demo = await startDemo(process.env);
  const engine = createEngine({ home: join(demo.work, 'home'), env: demo.env, sandbox: TEST_SANDBOX_MODE });
  const service = createService(engine, { host: 'headless', version: '0', demo: true, env: demo.env });
  open.push({ demo, engine, service });
  return { demo, engine, service };
}

/** Resolves with the run's status document once it reaches `status` (after `fresh` attempts of step `step + 1`, when given); rejects when it ends otherwise. */
function until(engine: Engine, runId: string, status: string, fresh = 0, step = 0, timeoutMs = 90_000): Promise<StatusDocument> {
  return poll(
    () => {
      const doc = engine.status(runId);
      if ((doc.steps[step]?.attempts.length ?? 0) < fresh) return undefined;
      if (doc.status === status) return doc;
      if (['failed', 'succeeded', 'paused'].includes(doc.status)) throw new Error(`run ${runId} is ${doc.status}, not ${status}: ${doc.reason ?? ''}`);
      return undefined;
    },
    { ms: timeoutMs, everyMs: 100, describe: () => `run ${runId} to be ${status} (it is ${engine.status(runId).status})` },
  );
}

describe('the demo (npm run demo -- --app)', () => {
  it('starts a run that fails a test and succeeds on attempt 2, then one that fails for good until the user retries it', async () => {
    const { demo, engine, service } = (booted = await boot());
    const runs = await startDemoRuns(service, demo);
    const first = await until(engine, runs.first, 'succeeded');
    expect(first.steps.map((s) => s.attempts.map((a) => a.errorClass))).toEqual([[null], ['test_failure', null], [null]]);

    // The diffs: the retry's own change (against attempt 1), the step's change, and the run's cumulative change.
    const diff = (against: 'previous' | 'step' | 'run') => service.handlers['runs.attemptDiff']({ runId: runs.first, step: 2, n: 2, against });
    const own = await diff('previous');
    expect(own).toMatchObject({ against: 'previous', fromAttempt: 1 });
    expect(own.diff).toContain('-export const mul = (a, b) => a * a;');
    expect(own.diff).toContain('+export const mul = (a, b) => a * b;');
    expect(own.diff).not.toContain('test/mul.test.mjs');
    const ofStep = await diff('step');
    expect(ofStep.diff).toContain('test/mul.test.mjs');
    expect(ofStep.diff).not.toContain('src/add.mjs');
    expect((await diff('run')).diff).toContain('src/add.mjs');

    const secondId = await runs.second;
    const second = await until(engine, secondId, 'failed');
    expect(second.steps.map((s) => s.attempts.map((a) => a.errorClass))).toEqual([[null], ['test_failure', 'test_failure']]);
    expect(second.reason).toContain('gave up after 1 test failure retry');
    expect(second.steps[1]!.commit).toBeNull();

    // What the app invites: Retry (after revising the plan, or not) gives the step a new chance, and it passes.
    const notices: unknown[] = [];
    service.subscribe((event, payload) => {
      if (event === 'app.onNotice') notices.push(payload);
    });
    await service.handlers['runs.retry']({ runId: secondId });
    expect(notices).toEqual([]);
    const retried = await until(engine, secondId, 'succeeded', 3, 1);
    expect(retried.steps[1]!.attempts.map((a) => [a.round, a.errorClass])).toEqual([
      [0, 'test_failure'],
      [0, 'test_failure'],
      [1, null],
    ]);
    const log = execFileSync('git', ['log', '--format=%s', retried.branch], { cwd: demo.repo, encoding: 'utf8' });
    expect(log).toContain('step 2: Refuse a zero divisor');
  }, 120_000);

  it('can be started again and again: each start is a fresh repository and home', async () => {
    // A second start beside a first one that has run (the first test's, whose first run already succeeded there): its own
    // repository and home, and its runs go on as the first's did. Its home holds only its own runs.
    const a = booted ?? (await boot());
    const b = await boot();
    expect(a.demo.repo).not.toBe(b.demo.repo);
    expect(a.demo.work).not.toBe(b.demo.work);
    const rb = await startDemoRuns(b.service, b.demo);
    expect(b.engine.store.listRuns().map((r) => r.id)).toEqual([rb.first]);
    await until(b.engine, rb.first, 'succeeded');
    expect(b.engine.store.listRuns().length).toBeGreaterThanOrEqual(1);
  }, 120_000);
});
