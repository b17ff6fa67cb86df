// Unit tests for the pure event patches: each event changes exactly what it names, and nothing else.
import { describe, expect, it } from 'vitest';
import type { EngineEventDoc } from '../../../shared/contract';
import { makeRuns, RUN_IDS } from '../../dev/fixtures-runs';
import { patchAttemptDetail, patchRunList, patchStatusDoc } from './patches';
import { createFakeBridge } from '../../dev/fake-bridge';
import { makeAttempt } from '../../dev/fixtures-attempts';

const NOW = Date.parse('2026-11-22T12:00:00.000Z');
let id = 1;
const ev = (runId: string, type: string, payload: Record<string, unknown>): EngineEventDoc => ({
  id: id++,
  runId,
  at: new Date(NOW).toISOString(),
  type,
  payload,
});

describe('patchRunList', () => {
  const list = makeRuns(NOW).map((r) => r.summary);

  it('run.status changes the badge, reason, reason code and wake time of that run only', () => {
    const wakeAt = new Date(NOW + 60_000).toISOString();
    const { list: next, reload } = patchRunList(
      list,
      ev(RUN_IDS.running, 'run.status', { status: 'waiting', reason: 'backoff', reasonCode: 'retry_backoff', wakeAt }),
    );
    expect(reload).toBe(false);
    const item = next.find((r) => r.id === RUN_IDS.running)!;
    expect(item).toMatchObject({ status: 'waiting', reason: 'backoff', reasonCode: 'retry_backoff', wakeAt });
    for (const r of next) if (r.id !== RUN_IDS.running) expect(r).toBe(list.find((x) => x.id === r.id));
  });

  it('step.committed counts a step done; api.usage adds cost; an unknown price makes the cost unknown', () => {
    const before = list.find((r) => r.id === RUN_IDS.running)!;
    let next = patchRunList(list, ev(RUN_IDS.running, 'step.committed', { step: 2, commit: 'abc' })).list;
    next = patchRunList(next, ev(RUN_IDS.running, 'api.usage', { attemptId: 1, costUsd: 0.5 })).list;
    const after = next.find((r) => r.id === RUN_IDS.running)!;
    expect(after.stepsDone).toBe(before.stepsDone + 1);
    expect(after.costUsd).toBeCloseTo((before.costUsd ?? 0) + 0.5);
    next = patchRunList(next, ev(RUN_IDS.running, 'api.usage', { attemptId: 1, costUsd: null })).list;
    expect(next.find((r) => r.id === RUN_IDS.running)!.costUsd).toBeNull();
  });

  it('asks for a reload when a run it does not know appears', () => {
    expect(patchRunList(list, ev('r-unknown', 'run.created', { steps: 2 })).reload).toBe(true);
    expect(patchRunList(list, ev('r-unknown', 'run.status', { status: 'running' })).reload).toBe(true);
  });

  it('ignores a payload that does not match the event type', () => {
    const { list: next } = patchRunList(list, ev(RUN_IDS.running, 'run.status', { status: 'exploded' }));
    expect(next).toBe(list);
  });
});

describe('patchStatusDoc', () => {
  const doc = makeRuns(NOW).find((r) => r.doc.id === RUN_IDS.waiting)!.doc;

  it('attempt.started adds a running attempt to its step and marks the step running', () => {
    const next = patchStatusDoc(doc, ev(doc.id, 'attempt.started', { step: 2, n: 3, model: 'claude-opus-5-5', agent: 'anthropic' }), null);
    const step = next.steps.find((s) => s.index === 2)!;
    expect(step.status).toBe('running');
    expect(step.attempts.map((a) => [a.n, a.outcome])).toEqual([
      [1, 'failed'],
      [2, 'failed'],
      [3, 'running'],
    ]);
    expect(next.steps[0]).toBe(doc.steps[0]);
  });

  it('decision lands on the attempt it names; usage on the attempt resolved from its row id', () => {
    let next = patchStatusDoc(doc, ev(doc.id, 'decision', { attemptId: 9, step: 2, n: 1, action: 'fatal', reason: 'enough', delayS: 0, overrides: {} }), null);
    expect(next.steps[1]!.attempts[0]!.decision).toEqual({ action: 'fatal', reason: 'enough', delayS: 0, overrides: {} });
    expect(next.steps[1]!.attempts[1]).toBe(doc.steps[1]!.attempts[1]);
    next = patchStatusDoc(
      next,
      ev(doc.id, 'api.usage', { attemptId: 10, inputTokens: 100, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.25 }),
      { step: 2, n: 2 },
    );
    expect(next.steps[1]!.attempts[1]!.inputTokens).toBe(doc.steps[1]!.attempts[1]!.inputTokens + 100);
    expect(next.costUsd).toBeCloseTo(doc.costUsd! + 0.25);
  });

  it('step.committed marks the step succeeded with its commit; run.status sets status, reason and reason code', () => {
    let next = patchStatusDoc(doc, ev(doc.id, 'step.committed', { step: 2, commit: 'feedbeef' }), null);
    expect(next.steps[1]).toMatchObject({ status: 'succeeded', commit: 'feedbeef' });
    next = patchStatusDoc(next, ev(doc.id, 'run.status', { status: 'paused', reason: 'Budget atteint', reasonCode: 'task_budget', wakeAt: null }), null);
    expect(next).toMatchObject({ status: 'paused', reason: 'Budget atteint', reasonCode: 'task_budget' });
    next = patchStatusDoc(next, ev(doc.id, 'run.status', { status: 'succeeded', reason: null, wakeAt: null }), null);
    expect(next).toMatchObject({ status: 'succeeded', reason: null, reasonCode: null });
  });
});

describe('patchAttemptDetail', () => {
  it('gate.finished updates that gate, keeping its output until the next fetch', () => {
    const fake = createFakeBridge({ now: NOW });
    const detail = makeAttempt(fake.runs.get(RUN_IDS.health)!.doc, 2, 1, NOW, () => '')!;
    const next = patchAttemptDetail(
      detail,
      ev(RUN_IDS.health, 'gate.finished', { attemptId: 1, gate: 'test', passed: true, exitCode: 0, timedOut: false, durationMs: 10, failures: 0 }),
      null,
    );
    expect(next.gates).toHaveLength(1);
    expect(next.gates[0]).toMatchObject({ gate: 'test', passed: true, exitCode: 0, output: detail.gates[0]!.output });
  });
});

describe('the resumes list follows the engine live (issue 13 item 9)', () => {
  it('api.usage after a retry adds to that retry\'s "$… after", not only to the run total', () => {
    const base = makeRuns(NOW).find((r) => r.doc.id === RUN_IDS.running)!.doc;
    const retryAt = new Date(NOW - 60_000).toISOString();
    const doc = {
      ...base,
      resumes: [
        {
          kind: 'retry' as const,
          at: retryAt,
          resumedFrom: { step: 2, status: 'failed' },
          turnBudget: null,
          inputTokens: 0,
          outputTokens: 0,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          costUsd: 0,
        },
      ],
    };
    const step = doc.steps.find((s) => s.attempts.length > 0)!;
    const n = step.attempts.at(-1)!.n;
    const next = patchStatusDoc(doc, ev(doc.id, 'api.usage', { attemptId: 1, inputTokens: 1000, outputTokens: 200, costUsd: 0.0123 }), { step: step.index, n });
    expect(next.resumes[0]!.costUsd).toBeCloseTo(0.0123);
    expect(next.resumes[0]!.inputTokens).toBe(1000);
    // Usage from before the retry (an event older than it) is not counted after it.
    const older = { ...ev(doc.id, 'api.usage', { attemptId: 1, costUsd: 0.5 }), at: new Date(NOW - 120_000).toISOString() };
    expect(patchStatusDoc(next, older, { step: step.index, n }).resumes[0]!.costUsd).toBeCloseTo(0.0123);
  });
});
