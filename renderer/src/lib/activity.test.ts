// The Activity log: every engine event as a line a person reads — no raw JSON, no class codes, no option names.
import { describe, expect, it } from 'vitest';
import type { EngineEventDoc } from '../../../shared/contract';
import { describeEvent } from './activity';

let id = 0;
const ev = (type: string, payload: Record<string, unknown>): EngineEventDoc => ({ id: ++id, runId: 'r1', type, at: '2026-11-22T12:00:00.000Z', payload });

const EVENTS: EngineEventDoc[] = [
  ev('run.created', { repo: '/home/dev/space-game', branch: 'ratchet/add-health-1a2b3c', worktree: '/w', baseCommit: 'abc', steps: 3 }),
  ev('workflow.trusted', { file: '/home/dev/space-game/ratchet.yml', sha256: 'ffff' }),
  ev('run.status', { status: 'paused', reason: 'Paused after step 1, as you asked to go one step at a time.\nmore', wakeAt: null }),
  ev('run.status', { status: 'cancelled', reason: 'Stopped by you during step 2.', wakeAt: null }),
  ev('run.retry', { fromStep: 2, fromStatus: 'failed', turnBudget: 40, auto: 'run', notes: [] }),
  ev('run.resume', { fromStep: 2, fromStatus: 'interrupted', turnBudget: null, auto: 'step', notes: [] }),
  ev('step.started', { step: 2, title: 'Take damage' }),
  ev('step.status', { step: 2, status: 'pending' }),
  ev('step.committed', { step: 1, commit: 'b7d20f4c9a' }),
  ev('step.adopted', { step: 1, commit: 'b7d20f4c9a' }),
  ev('step.demoted', { step: 1 }),
  ev('step.repeated_failures', { step: 2, attempts: [{ runId: 'r0', n: 1, errorClass: 'test_failure', message: 'x', at: '2026-11-22T11:00:00Z' }] }),
  ev('attempt.started', { attemptId: 7, step: 2, n: 2, model: 'claude-sonnet-5-5', agent: 'anthropic', round: 0 }),
  ev('attempt.finished', { attemptId: 7, outcome: 'failed', errorClass: 'test_failure', summary: 'Test failure: 1 test failed' }),
  ev('gate.started', { attemptId: 7, gate: 'test', command: 'npm test' }),
  ev('gate.finished', { attemptId: 7, gate: 'test', passed: false, exitCode: 1, timedOut: false, durationMs: 2083, failures: 1 }),
  ev('gate.finished', { attemptId: 7, gate: 'lint', passed: true, exitCode: 0, timedOut: false, durationMs: 500, failures: 0 }),
  ev('gate.finished', { attemptId: 7, gate: 'test', passed: false, exitCode: null, timedOut: false, durationMs: 2000, failures: 0 }),
  ev('decision', { attemptId: 7, step: 2, n: 2, action: 'retry', reason: 'retry 2 of 3 after a test failure', delayS: 2.083, overrides: {} }),
  ev('budget.alert', { kind: 'task', spentUsd: 0.81, limitUsd: 1 }),
  ev('budget.raised', { taskUsd: 3, before: 1.5 }),
  ev('plan.revised', { revision: 2, steps: 1, kept: [1], reset: [] }),
  ev('rescue.committed', { step: 2, commit: 'c0ffee1234' }),
  ev('rescue.stashed', { stash: 'stash@{0}' }),
  ev('git.config_reverted', { step: 2, files: ['.git/config'] }),
  ev('log', { level: 'info', message: 'plan approved' }),
  ev('notify.sent', { event: 'run.failed', target: 'ntfy', url: 'https://example.com', tries: 1 }),
  ev('notify.failed', { event: 'run.failed', target: 'webhook', url: 'https://example.com', tries: 3, reason: 'HTTP 500' }),
  ev('something.new', { a: 1, b: { c: 2 } }),
];

describe('describeEvent', () => {
  it('writes every event kind as a sentence (issue 13 item 8)', () => {
    for (const e of EVENTS) {
      const line = describeEvent(e);
      expect(line, e.type).not.toMatch(/[{}[\]]|\w+_\w+|auto-progress|\n/);
      expect(line.charAt(0), e.type).toBe(line.charAt(0).toUpperCase());
    }
  });

  it('says what happened, with readable classes, counts and times', () => {
    const line = (type: string, n = 0) => describeEvent(EVENTS.filter((e) => e.type === type)[n]!);
    expect(line('run.status')).toBe('Paused after step 1, as you asked to go one step at a time.');
    expect(line('run.status', 1)).toBe('Stopped by you during step 2.');
    expect(line('attempt.finished')).toBe('Attempt failed: Test failure: 1 test failed');
    expect(line('gate.finished')).toBe('Gate test failed (exit 1, 1 failing test) after 2 s');
    expect(line('gate.finished', 2)).toBe('Gate test was stopped after 2 s');
    expect(line('decision')).toBe('Step 2, attempt 2: retry 2 of 3 after a test failure, in 2 s');
    expect(line('run.created')).toBe('Run created: 3 steps on branch ratchet/add-health-1a2b3c');
    expect(line('step.repeated_failures')).toBe('Step 2 has failed 1 time in earlier runs');
    expect(line('something.new')).toBe('Something new');
  });

  it("says a test-first step's test attempt wrote a test that fails as it should (not a failure), and names its violations", () => {
    const red = ev('attempt.finished', {
      attemptId: 8,
      outcome: 'red',
      errorClass: null,
      summary: '1 test fails (adds) before the implementation, as it should; test files: test/add.test.mjs',
    });
    expect(describeEvent(red)).toBe('Test written first: 1 test fails (adds) before the implementation, as it should; test files: test/add.test.mjs');
    const violation = ev('attempt.finished', { attemptId: 9, outcome: 'error', errorClass: 'tdd_violation', summary: null });
    expect(describeEvent(violation)).toBe('Attempt ended with an error: TDD violation');
  });

  it("says what made the worktree ready: what came from the checkout, setup and its time, the base commit's check", () => {
    const lines = [
      ev('worktree.prepared', {
        copied: ['.env'],
        reused: [{ path: 'node_modules/', because: 'package-lock.json is the same', method: 'cp --reflink=auto', durationMs: 3200 }],
        durationMs: 3300,
      }),
      ev('setup.started', { reason: 'inputs', changed: ['package-lock.json'], commands: ['npm ci'] }),
      ev('setup.finished', { outcome: 'ok', durationMs: 12_400, note: 'package-lock.json changed', message: null }),
      ev('setup.finished', { outcome: 'failed', durationMs: 1000, note: null, message: 'Setup failed: `npm ci` exited with code 1 after 1.0 s.\nmore' }),
      ev('baseline.gate', { gate: 'test', passed: false, exitCode: 127, durationMs: 300, errorClass: 'missing_dependency', failingTests: [] }),
      ev('baseline.finished', { ready: true, problem: null, failingTests: ['test: a', 'test: b'], durationMs: 5000 }),
    ].map(describeEvent);
    expect(lines).toEqual([
      'From your checkout: .env, node_modules/ (3 s)',
      'Setup running again (package-lock.json changed): npm ci',
      'Setup done after 12 s',
      'Setup failed: `npm ci` exited with code 1 after 1.0 s.',
      'On the base commit, gate test failed (missing dependency) after 300 ms',
      'The project is ready to test; 2 tests already failing',
    ]);
  });
});
