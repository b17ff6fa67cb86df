import { describe, expect, it } from 'vitest';
import { methods, METHOD_NAMES } from '../../../shared/contract';
import type { StatusDocument } from '../../../shared/domain';
import { money } from '../../../shared/money';
import { until } from '../../../shared/testing/until';
import { createService } from './service';
import { makeRepo, tempDir } from '../testing/temp-repo';
import { callResult } from '../testing/service-calls';
import { serviceHarness } from '../testing/service-harness';

const harness = serviceHarness();
const setup = () => harness.start();
const call = callResult;

describe('service (the contract over the engine)', () => {
  it('has a handler for every method of the contract', async () => {
    const { service } = await setup();
    expect(Object.keys(service.handlers).sort()).toEqual([...METHOD_NAMES].sort());
    expect(Object.keys(methods)).toEqual(METHOD_NAMES);
  });

  it('starts a run written in the app, streams its events, and answers runs, attempts and stats', async () => {
    const { service, events } = await setup();
    const repo = makeRepo();
    const started = await call(service, 'runs.start', {
      repo,
      title: 'App task',
      steps: [{ title: 'One' }, { title: 'Two', gates: ['ok'] }],
      gates: { ok: 'true' },
      preset: 'minimal',
    });
    expect(started.ok).toBe(true);
    const runId = (started as { ok: true; value: { runId: string } }).value.runId;
    await until(() =>
      events.some(
        (e) =>
          e.name === 'runs.onEvent' &&
          (e.payload as { type: string; payload: { status?: string } }).type === 'run.status' &&
          (e.payload as { payload: { status?: string } }).payload.status === 'succeeded',
      ),
    );
    expect(events.find((e) => e.name === 'app.onNotice')?.payload).toMatchObject({ code: 'run.succeeded', title: 'Run succeeded: App task', runId });
    const list = await call(service, 'runs.list', {});
    expect(list).toMatchObject({ ok: true, value: [{ id: runId, title: 'App task', status: 'succeeded', stepsDone: 2, stepsTotal: 2 }] });
    const attempt = await call(service, 'runs.attempt', { runId, step: 2, n: 1 });
    expect(attempt).toMatchObject({ ok: true, value: { outcome: 'passed', gates: [{ gate: 'ok', passed: true }] } });
    const stats = await call(service, 'stats.summary', { days: 7 });
    expect(stats).toMatchObject({ ok: true, value: { runs: 1, succeeded: 1, successRate: 1, retryBreakdown: { r0: 2 } } });
    const report = await call(service, 'stats.report', {});
    expect((report as { ok: true; value: { markdown: string } }).value.markdown).toContain('**Success rate:** 100.0 %');
    const events2 = await call(service, 'runs.events', { runId, afterId: 0 });
    expect((events2 as { ok: true; value: unknown[] }).value.length).toBeGreaterThan(5);
  });

  it("streams a running gate's output as gate.output events, sends a long log as its head, and pages lines and events", async () => {
    const { service, events } = await setup();
    const started = await call(service, 'runs.start', {
      repo: makeRepo(),
      title: 'Long log',
      steps: [{ title: 'One', gates: ['long'] }],
      gates: { long: 'seq 1 3000; sleep 0.6; echo end' },
      preset: 'minimal',
    });
    const runId = (started as { ok: true; value: { runId: string } }).value.runId;
    const types = () => events.filter((e) => e.name === 'runs.onEvent').map((e) => e.payload as { type: string; payload: Record<string, unknown> });
    await until(() => types().some((e) => e.type === 'run.status' && e.payload.status === 'succeeded'));
    const all = types();
    const chunks = all.filter((e) => e.type === 'gate.output');
    // Output arrived while the gate ran (before its result), and the chunks add up to it.
    expect(all.findIndex((e) => e.type === 'gate.output')).toBeLessThan(all.findIndex((e) => e.type === 'gate.finished'));
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    expect(chunks.map((c) => c.payload.text).join('')).toBe(`${Array.from({ length: 3000 }, (_, i) => i + 1).join('\n')}\nend\n`);

    const head = await call(service, 'runs.attempt', { runId, step: 1, n: 1, outputHeadLines: 100 });
    const gate = (head as { ok: true; value: { gates: Array<{ output: string; lineCount?: number; partial?: boolean }> } }).value.gates[0]!;
    expect(gate).toMatchObject({ partial: true, lineCount: 3002 });
    expect(gate.output.split('\n')).toHaveLength(100);
    const whole = await call(service, 'runs.attempt', { runId, step: 1, n: 1 });
    expect((whole as { ok: true; value: { gates: Array<{ output: string; partial?: boolean }> } }).value.gates[0]!.partial).toBeUndefined();
    expect(await call(service, 'runs.gateLog', { runId, step: 1, n: 1, gate: 'long', from: 2998, count: 10 })).toEqual({
      ok: true,
      value: { from: 2998, lines: ['2999', '3000', 'end', ''], total: 3002 },
    });
    expect(await call(service, 'runs.gateLog', { runId, step: 1, n: 1, gate: 'nope', from: 0, count: 10 })).toMatchObject({
      ok: false,
      error: { code: 'gate_not_found' },
    });

    const firstPage = await call(service, 'runs.events', { runId, afterId: 0, limit: 3 });
    const page = (firstPage as { ok: true; value: Array<{ id: number }> }).value;
    expect(page).toHaveLength(3);
    const rest = await call(service, 'runs.events', { runId, afterId: page[2]!.id });
    const everything = await call(service, 'runs.events', { runId, afterId: 0 });
    expect([...page, ...(rest as { ok: true; value: unknown[] }).value]).toEqual((everything as { ok: true; value: unknown[] }).value);
  });

  it('refuses bad input and unknown methods with a code and a sentence', async () => {
    const { service } = await setup();
    expect(await call(service, 'runs.get', { runId: '' })).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    expect(await call(service, 'nope', {})).toMatchObject({ ok: false, error: { code: 'unknown_method' } });
    expect(await call(service, 'runs.get', { runId: 'missing' })).toMatchObject({
      ok: false,
      error: { code: 'run_not_found', message: expect.stringContaining('No run with id missing') },
    });
    const badGate = await call(service, 'runs.start', { repo: makeRepo(), title: 't', steps: [{ title: 'x', gates: ['lint'] }] });
    expect(badGate).toMatchObject({ ok: false, error: { code: 'unknown_gate' } });
    expect(await call(service, 'runs.start', { repo: tempDir(), title: 't', steps: [{ title: 'x' }] })).toMatchObject({
      ok: false,
      error: { code: 'not_git_repo' },
    });
    // A success means a check ran: steps no gate checks start only after "Run without checks" (issue 29 item 1).
    const unchecked = await call(service, 'runs.start', { repo: makeRepo(), title: 't', steps: [{ title: 'x' }] });
    expect(unchecked).toMatchObject({ ok: false, error: { code: 'no_gates', message: expect.stringContaining('Nothing checks this work') } });
    const confirmed = await call(service, 'runs.start', { repo: makeRepo(), title: 't', steps: [{ title: 'x' }], noGates: true });
    expect(confirmed.ok).toBe(true);
    const runId = (confirmed as { ok: true; value: { runId: string } }).value.runId;
    const listed = (await call(service, 'runs.list', {})) as { ok: true; value: Array<{ id: string; checked?: boolean }> };
    expect(listed.value.find((r) => r.id === runId)?.checked).toBe(false);
  });

  it('keeps settings, edits prices, and keeps a key saved in the headless host in memory only', async () => {
    const { service, engine } = await setup();
    const set = await call(service, 'settings.set', {
      defaultModel: 'claude-opus-5-5',
      budget: { dailyUsd: 12 },
      pricing: { 'my-model': { input: 1, output: 2, cache_write: 1.25, cache_read: 0.1 } },
    });
    expect(set).toMatchObject({
      ok: true,
      value: { defaultModel: 'claude-opus-5-5', budget: { dailyUsd: 12, alertAt: 0.8 }, apiKeySet: true, apiKeySource: 'environment' },
    });
    expect(engine.pricing.models['my-model']).toEqual({ input: 1, output: 2, cache_write: 1.25, cache_read: 0.1 });
    // The key check has its own test (service-api-key.test.ts): here the API accepts it without being asked.
    const again = createService(engine, { host: 'headless', version: '0', env: {}, checkApiKey: async () => undefined });
    expect(await call(again, 'settings.get', {})).toMatchObject({ ok: true, value: { defaultModel: 'claude-opus-5-5', apiKeySet: false } });
    expect(await call(again, 'settings.setApiKey', { key: 'sk-x' })).toMatchObject({
      ok: true,
      value: { apiKeySet: true, apiKeySource: 'session', apiKeyWarning: expect.stringContaining('ANTHROPIC_API_KEY') },
    });
    await again.close();
  });

  it('puts new worktrees in the folder Settings names', async () => {
    const { service } = await setup();
    const folder = tempDir();
    await call(service, 'settings.set', { worktreeFolder: folder });
    const started = await call(service, 'runs.start', { repo: makeRepo(), title: 'Where', steps: [{ title: 'One' }], gates: { ok: 'true' } });
    const runId = (started as { ok: true; value: { runId: string } }).value.runId;
    const doc = await call(service, 'runs.get', { runId });
    expect((doc as { ok: true; value: { worktree: string } }).value.worktree.startsWith(folder)).toBe(true);
  });

  it('pauses a run at the budget that applies to it (not Settings), says it with enough digits, raises one alert, and raises and continues', async () => {
    const { service, engine, events } = await setup();
    // Settings say $1.50 a task; this task's own budget is far smaller, and is the one that applies.
    await call(service, 'settings.set', { budget: { taskUsd: 1.5, alertAt: 0.8 } });
    const started = await call(service, 'runs.start', {
      repo: makeRepo(),
      title: 'Tiny budget',
      steps: [{ title: 'One' }, { title: 'Two' }],
      gates: { ok: 'true' },
      budgetUsd: 0.00002,
    });
    const runId = (started as { ok: true; value: { runId: string } }).value.runId;
    const get = async () => ((await call(service, 'runs.get', { runId })) as { ok: true; value: StatusDocument }).value;
    await until(() => engine.store.getRun(runId)?.status === 'paused');
    const doc = await get();
    expect(doc.policy?.budget.taskUsd).toBe(0.00002);
    const spent = doc.costUsd ?? 0;
    // A budget is a cap: never more than 10 % past it; here no call fits, so none is made.
    expect(spent).toBeLessThanOrEqual(0.00002 * 1.1);
    expect(doc.reason?.startsWith(`task budget of $0.000020 reached (${money(spent)} spent`)).toBe(true);
    expect(doc.reason).toContain(`ratchet resume ${runId} --budget`);
    // One budget alert in the app: the engine's event is shown by the app (renderer), the service adds no second notice of its own.
    engine.store.event(runId, 'budget.alert', { key: `task:${runId}`, kind: 'task', spentUsd: 0.0059, limitUsd: 0.004 });
    await until(() => events.some((e) => e.name === 'runs.onEvent' && (e.payload as { type: string }).type === 'budget.alert'), {
      ms: 5000,
      describe: 'the budget alert event',
    });
    expect(
      events.filter(
        (e) => e.name === 'app.onNotice' && /budget/i.test(JSON.stringify(e.payload)) && !/needs you/i.test((e.payload as { title: string }).title),
      ),
    ).toEqual([]);
    // Raise budget and continue: one raise, then the run resumes where it paused and finishes.
    expect(await call(service, 'runs.raiseBudget', { runId, taskUsd: 5 })).toMatchObject({ ok: true, value: { taskUsd: 5 } });
    expect((await get()).policy?.budget).toMatchObject({ taskUsd: 5 });
    const resumed = await call(service, 'runs.resume', { runId });
    expect(resumed, JSON.stringify(resumed)).toMatchObject({ ok: true });
    await until(() => engine.store.getRun(runId)?.status === 'succeeded');
    expect((await get()).steps.map((s) => s.status)).toEqual(['succeeded', 'succeeded']);
  });

  it('applies the budget typed in New task to a run of the repository’s workflow file, over the file’s own', async () => {
    const { service, engine } = await setup();
    const repo = makeRepo({ 'ratchet.yml': 'gates: { ok: "true" }\nbudget: { task_usd: 9 }\nsteps:\n  - title: One\n' });
    const started = await call(service, 'runs.start', { repo, title: 'Typed budget', workflowFile: `${repo}/ratchet.yml`, trust: true, budgetUsd: 0.25 });
    expect(started.ok).toBe(true);
    const runId = (started as { ok: true; value: { runId: string } }).value.runId;
    expect(engine.status(runId).policy?.budget.taskUsd).toBe(0.25);
    await until(() => ['succeeded', 'failed', 'paused'].includes(engine.store.getRun(runId)?.status ?? ''));
  });

  it('keeps the retry preset chosen in New task for a run of the repository’s workflow file, over the file’s own (issue 20 item 6)', async () => {
    const { service, engine } = await setup();
    const repo = makeRepo({ 'ratchet.yml': 'gates: { ok: "true" }\npreset: conservative\nsteps:\n  - title: One\n' });
    const started = await call(service, 'runs.start', { repo, title: 'Chosen preset', workflowFile: `${repo}/ratchet.yml`, trust: true, preset: 'aggressive' });
    expect(started.ok).toBe(true);
    const runId = (started as { ok: true; value: { runId: string } }).value.runId;
    expect(engine.store.getWorkflow(runId).preset).toBe('aggressive');
    // The preset decides the retry limits the run uses (aggressive allows more test-failure retries than conservative).
    expect(engine.status(runId).policy?.sources.max_retries).toBe('preset');
    await until(() => ['succeeded', 'failed', 'paused'].includes(engine.store.getRun(runId)?.status ?? ''));
  });
});
