import { describe, expect, it } from 'vitest';
import { parseWorkflow } from '../workflow/load-workflow';
import type { Workflow } from '../workflow/schema';
import { attemptsSummary, testIdentity } from '../failures/attempt-summary';
import { backoffDelayS } from './backoff';
import { decideAfterFailure, type FailureFacts } from './decide';
import { DEFAULT_LIMITS, resolvePolicy } from './policy';
import type { Overrides } from './retry-entries';

function workflow(yaml: string): Workflow {
  const r = parseWorkflow(`${yaml}\nsteps:\n  - title: one\n`);
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.workflow;
}

const noJitter = workflow('backoff: { base_s: 60, max_s: 300, jitter: 0 }\ngates: { test: "true", build: "true" }');
const facts = (over: Partial<FailureFacts> = {}, w: Workflow = noJitter): FailureFacts => ({
  policy: resolvePolicy(w),
  attempt: 1,
  errorClass: 'test_failure',
  message: '2 tests failed',
  classRetriesUsed: 0,
  agentFatal: false,
  retryAfterS: null,
  failedGates: ['test'],
  active: {},
  sameFailureInARow: 1,
  rng: () => 0,
  ...over,
});

describe('backoff', () => {
  it('doubles from base and caps at max', () => {
    const b = { base_s: 60, max_s: 300, jitter: 0 };
    expect([1, 2, 3, 4, 5].map((r) => backoffDelayS(b, r))).toEqual([60, 120, 240, 300, 300]);
  });
  it('adds at most `jitter` of the delay', () => {
    const b = { base_s: 60, max_s: 300, jitter: 0.1 };
    expect(backoffDelayS(b, 1, () => 0)).toBe(60);
    expect(backoffDelayS(b, 1, () => 0.999999)).toBeCloseTo(66, 3);
    expect(backoffDelayS(b, 9, () => 1)).toBeCloseTo(330, 3);
  });
});

describe('policy', () => {
  it("uses seed 002's limits by default", () => {
    expect(resolvePolicy(workflow('')).limits).toEqual(DEFAULT_LIMITS);
    expect(DEFAULT_LIMITS).toMatchObject({ test_failure: 3, compilation_error: 2, crash: 2, timeout: 1, api_error: 5, git_conflict: 1 });
  });
  it('lets a preset, then max_retries, then limits override', () => {
    const p = resolvePolicy(workflow('preset: aggressive'));
    expect(p.limits.test_failure).toBe(5);
    expect(p.backoff.base_s).toBe(30);
    expect(p.budget.dailyUsd).toBe(100);
    const q = resolvePolicy(workflow('preset: minimal\nmax_retries: 2\nlimits: { compilation_error: 4, timeout: 0 }\nbudget: { daily_usd: 7 }'));
    expect(q.limits).toMatchObject({ test_failure: 2, compilation_error: 4, timeout: 0, crash: 2 });
    expect(q.backoff.base_s).toBe(120);
    expect(q.budget.dailyUsd).toBe(7);
  });
});

describe('decideAfterFailure (seed 002 decision tree)', () => {
  it('retries test failures up to 3 times (4 attempts), counting retry k/n, with backoff', () => {
    const d1 = decideAfterFailure(facts({ attempt: 1, classRetriesUsed: 0 }));
    expect(d1).toMatchObject({ action: 'retry', reason: 'retry 1 of 3 after a test failure', delayS: 60 });
    expect(decideAfterFailure(facts({ attempt: 3, classRetriesUsed: 2 }))).toMatchObject({
      action: 'retry',
      reason: 'retry 3 of 3 after a test failure',
      delayS: 240,
    });
    expect(decideAfterFailure(facts({ attempt: 4, classRetriesUsed: 3 }))).toMatchObject({ action: 'fatal', reason: 'gave up after 3 test failure retries' });
  });
  it('gives compilation errors 2 retries, crashes 2, timeouts 1 (with the gate timeout doubled), API errors 5', () => {
    expect(decideAfterFailure(facts({ errorClass: 'compilation_error', classRetriesUsed: 1 })).action).toBe('retry');
    expect(decideAfterFailure(facts({ errorClass: 'compilation_error', classRetriesUsed: 2 })).action).toBe('fatal');
    expect(decideAfterFailure(facts({ errorClass: 'crash', classRetriesUsed: 2 })).action).toBe('fatal');
    const t = decideAfterFailure(facts({ errorClass: 'timeout', classRetriesUsed: 0 }));
    expect(t).toMatchObject({ action: 'retry', overrides: { gateTimeoutMultiplier: 2 } });
    expect(decideAfterFailure(facts({ errorClass: 'timeout', classRetriesUsed: 1 })).action).toBe('fatal');
    expect(decideAfterFailure(facts({ errorClass: 'api_error', classRetriesUsed: 4 })).action).toBe('retry');
    expect(decideAfterFailure(facts({ errorClass: 'api_error', classRetriesUsed: 5 })).action).toBe('fatal');
  });
  it('fails at once on missing dependencies, permissions, resource exhaustion, no change and fatal agent errors', () => {
    for (const c of ['missing_dependency', 'permission_error', 'resource_exhaustion'] as const) {
      const d = decideAfterFailure(facts({ errorClass: c }));
      expect(d.action).toBe('fatal');
      expect(d.reason).toContain('not retriable');
    }
    expect(decideAfterFailure(facts({ attempt: 2, errorClass: 'no_change' })).reason).toContain('changed nothing');
    expect(decideAfterFailure(facts({ errorClass: 'api_error', agentFatal: true })).action).toBe('fatal');
  });
  it('escalates unknown failures at once, and git conflicts after their one retry', () => {
    expect(decideAfterFailure(facts({ errorClass: 'unknown' }))).toMatchObject({ action: 'escalate' });
    expect(decideAfterFailure(facts({ errorClass: 'git_conflict', classRetriesUsed: 0 })).action).toBe('retry');
    expect(decideAfterFailure(facts({ errorClass: 'git_conflict', classRetriesUsed: 1 })).action).toBe('escalate');
    // An attempt that left the conflict untouched hands it to the user, not "failed (no change)".
    const untouched = decideAfterFailure(facts({ errorClass: 'no_change', unresolved: 'git_conflict', attempt: 2 }));
    expect(untouched).toMatchObject({ action: 'escalate', reason: expect.stringMatching(/conflict is still there.*needs you/) });
  });
  it('honours allow_retry_on', () => {
    const w = workflow('allow_retry_on: [test_failure]');
    expect(decideAfterFailure(facts({ errorClass: 'compilation_error' }, w))).toMatchObject({
      action: 'fatal',
      reason: expect.stringContaining('allow_retry_on'),
    });
    expect(decideAfterFailure(facts({}, w)).action).toBe('retry');
  });
  it('waits at least retry-after, and parks the run when that is longer than park_after_s', () => {
    expect(decideAfterFailure(facts({ errorClass: 'rate_limit', retryAfterS: 90 }))).toMatchObject({ action: 'retry', delayS: 90 });
    expect(decideAfterFailure(facts({ errorClass: 'rate_limit', retryAfterS: 3600 }))).toMatchObject({ action: 'wait', delayS: 3600 });
  });
  it('by default, a repeated failure changes strategy (a new session, a stronger hint) without cutting the budget', () => {
    const d = decideAfterFailure(facts({ sameFailureInARow: 3, attempt: 3, classRetriesUsed: 2 }));
    expect(d).toMatchObject({ action: 'retry', strategy: { freshSession: true, hint: expect.stringContaining('came back 3 times') } });
    expect(decideAfterFailure(facts({ sameFailureInARow: 2 })).strategy).toBeUndefined();
    expect(decideAfterFailure(facts({ sameFailureInARow: 4, attempt: 4, classRetriesUsed: 3 }))).toMatchObject({
      action: 'fatal',
      reason: 'gave up after 3 test failure retries',
    });
  });
  it('stops or escalates when the same failure comes back, when configured so', () => {
    const stop = workflow('on_repeat: { after: 3, action: stop }');
    expect(decideAfterFailure(facts({ sameFailureInARow: 3 }, stop))).toMatchObject({
      action: 'fatal',
      reason: expect.stringContaining('same failure came back 3'),
    });
    expect(decideAfterFailure(facts({ sameFailureInARow: 2 }, stop)).action).toBe('retry');
    const w = workflow('on_repeat: { after: 2, action: escalate }');
    expect(decideAfterFailure(facts({ sameFailureInARow: 2 }, w)).action).toBe('escalate');
  });
  it('retries API faults by their class whatever the retry list says (no entry needed, exit not counted)', () => {
    const w = workflow('backoff: { base_s: 0, max_s: 0, jitter: 0 }\ngates: { test: "true" }\nretry:\n  - not: gate.test\n  - exit: 5');
    const api = (over: Partial<FailureFacts>) => facts({ errorClass: 'rate_limit', failedGates: [], apiFault: true, ...over }, w);
    expect(decideAfterFailure(api({ attempt: 0, roundAttempts: 1 })).action).toBe('retry');
    expect(decideAfterFailure(api({ attempt: 4, roundAttempts: 7, classRetriesUsed: 2 })).action).toBe('retry');
    expect(decideAfterFailure(api({ attempt: 1, roundAttempts: 6, classRetriesUsed: 5 }))).toMatchObject({
      action: 'fatal',
      reason: 'gave up after 5 rate limit retries',
    });
    // A gate failure still needs an entry.
    expect(decideAfterFailure(facts({ errorClass: 'compilation_error', failedGates: ['build'] }, w))).toMatchObject({
      action: 'fatal',
      reason: 'no retry entry applies to this failure',
    });
  });
});

describe('retry entries (seed 004)', () => {
  const w = workflow(`
gates: { test: "true", build: "true" }
limits: { test_failure: 10 }
backoff: { base_s: 0, max_s: 0, jitter: 0 }
retry:
  - not: gate.test
  - attempt: 3
    agent: { model: claude-sonnet-thinking }
  - attempt: 5
    agent: { model: claude-opus-5-5 }
    session: new
  - exit: 8
`);

  it("reproduces seed 004's attempt/agent table, sticky, later entries replacing earlier ones", () => {
    let active: Overrides = {};
    const models: Record<number, string> = { 1: 'claude-sonnet (from the step)' };
    for (let attempt = 1; attempt <= 7; attempt++) {
      const d = decideAfterFailure(facts({ attempt, classRetriesUsed: attempt - 1, active }, w));
      if (attempt === 7) {
        expect(d).toMatchObject({ action: 'fatal', reason: expect.stringContaining('exit: 8') });
        break;
      }
      expect(d.action).toBe('retry');
      active = d.overrides;
      models[attempt + 1] = active.agent?.model ?? 'claude-sonnet (from the step)';
    }
    expect(models).toEqual({
      1: 'claude-sonnet (from the step)',
      2: 'claude-sonnet (from the step)',
      3: 'claude-sonnet-thinking',
      4: 'claude-sonnet-thinking',
      5: 'claude-opus-5-5',
      6: 'claude-opus-5-5',
      7: 'claude-opus-5-5',
    });
  });

  it("runs seed 004's table as the seed writes it, with no limits set: exit 8 decides how far gate failures go (issue 20 item 8)", () => {
    const seed = workflow(`
gates: { test: "true" }
backoff: { base_s: 0, max_s: 0, jitter: 0 }
retry:
  - not: gate.test
  - attempt: 3
    agent: { model: claude-sonnet-thinking }
  - attempt: 5
    agent: { model: claude-opus-5-5 }
    session: new
  - exit: 8
`);
    let active: Overrides = {};
    const actions: string[] = [];
    for (let attempt = 1; attempt <= 7; attempt++) {
      const d = decideAfterFailure(facts({ attempt, classRetriesUsed: attempt - 1, active }, seed));
      actions.push(d.action);
      active = d.overrides;
    }
    expect(actions).toEqual(['retry', 'retry', 'retry', 'retry', 'retry', 'retry', 'fatal']);
  });

  it("runs seed 004's sticky table written exactly as in the seed (attempt 3, attempt 5, exit 8; no `not:` entry): attempts 1-2 retry with the step's agent (issue 29 item 9)", () => {
    const asWritten = workflow(`
gates: { test: "true" }
backoff: { base_s: 0, max_s: 0, jitter: 0 }
retry:
  - attempt: 3
    agent: { model: claude-sonnet-thinking }
  - attempt: 5
    agent: { model: claude-opus-5-5 }
  - exit: 8
`);
    let active: Overrides = {};
    const actions: string[] = [];
    const models: string[] = ['step'];
    for (let attempt = 1; attempt <= 7; attempt++) {
      const d = decideAfterFailure(facts({ attempt, classRetriesUsed: attempt - 1, active }, asWritten));
      actions.push(d.action);
      if (d.action !== 'retry') break;
      active = d.overrides;
      models.push(active.agent?.model ?? 'step');
    }
    expect(actions).toEqual(['retry', 'retry', 'retry', 'retry', 'retry', 'retry', 'fatal']);
    expect(models).toEqual(['step', 'step', 'claude-sonnet-thinking', 'claude-sonnet-thinking', 'claude-opus-5-5', 'claude-opus-5-5', 'claude-opus-5-5']);
  });

  it('a retry list whose only entry is `exit: N` retries every gate failure with the automatic retry context until attempt N', () => {
    const only = workflow('gates: { test: "true" }\nbackoff: { base_s: 0, max_s: 0, jitter: 0 }\nretry:\n  - exit: 3\n');
    expect(decideAfterFailure(facts({ attempt: 1 }, only))).toMatchObject({ action: 'retry', overrides: {} });
    expect(decideAfterFailure(facts({ attempt: 2, classRetriesUsed: 1 }, only))).toMatchObject({ action: 'fatal', reason: expect.stringContaining('exit: 3') });
  });

  it('counts "retry k of n" within what `exit` allows: `exit: 3` gives one retry, so it says "retry 1 of 1"; seed 004\'s `exit: 8` says "of 6" (issue 29 item 9)', () => {
    const only = workflow('gates: { test: "true" }\nbackoff: { base_s: 0, max_s: 0, jitter: 0 }\nretry:\n  - exit: 3\n');
    expect(decideAfterFailure(facts({ attempt: 1 }, only)).reason).toMatch(/^retry 1 of 1 after a test failure/);
    const seed = workflow('gates: { test: "true" }\nbackoff: { base_s: 0, max_s: 0, jitter: 0 }\nretry:\n  - not: gate.test\n  - exit: 8\n');
    const reasons = [1, 2, 3, 4, 5, 6].map((attempt) => decideAfterFailure(facts({ attempt, classRetriesUsed: attempt - 1 }, seed)).reason.slice(0, 12));
    expect(reasons).toEqual(['retry 1 of 6', 'retry 2 of 6', 'retry 3 of 6', 'retry 4 of 6', 'retry 5 of 6', 'retry 6 of 6']);
    // A class limit below the exit's stays the bound: max_retries 2 with exit 8 says "of 2".
    const capped = workflow('gates: { test: "true" }\nmax_retries: 2\nbackoff: { base_s: 0, max_s: 0, jitter: 0 }\nretry:\n  - exit: 8\n');
    expect(decideAfterFailure(facts({ attempt: 1 }, capped)).reason).toMatch(/^retry 1 of 2 /);
  });

  it('forces a new session when the agent changes, and says it is escalating', () => {
    const d = decideAfterFailure(facts({ attempt: 2, classRetriesUsed: 1 }, w));
    expect(d.overrides).toMatchObject({ agent: { model: 'claude-sonnet-thinking' }, session: 'new' });
    expect(d.reason).toContain('escalating to claude-sonnet-thinking');
  });

  it('is fatal when no entry applies and nothing is sticky (only the build gate failed)', () => {
    const d = decideAfterFailure(facts({ attempt: 1, failedGates: ['build'] }, w));
    expect(d).toMatchObject({ action: 'fatal', reason: 'no retry entry applies to this failure' });
  });

  it('applies validate entries from the validators the caller ran', () => {
    const v = workflow('gates: { test: "true" }\nretry:\n  - validate: "./assess.sh"\n    prompt: "Fix {error}"\n  - exit: 3\n');
    expect(decideAfterFailure(facts({ validated: new Map([[0, false]]) }, v)).action).toBe('fatal');
    const d = decideAfterFailure(facts({ validated: new Map([[0, true]]) }, v));
    expect(d).toMatchObject({ action: 'retry', overrides: { prompt: 'Fix {error}' } });
  });
});

describe('attemptsSummary', () => {
  it('says how many failing tests each retry fixed', () => {
    const s = attemptsSummary(
      [
        { n: 1, outcome: 'failed', errorClass: 'test_failure', message: null, failedTests: ['a', 'b', 'c', 'd'] },
        { n: 2, outcome: 'failed', errorClass: 'test_failure', message: null, failedTests: ['b', 'c', 'd'] },
        { n: 3, outcome: 'failed', errorClass: 'compilation_error', message: 'TS2322 in a.ts', failedTests: [] },
      ],
      ['TS2322 in a.ts'],
    );
    expect(s.split('\n')).toEqual([
      'Attempts summary:',
      '1. Initial: 4 tests failed',
      '2. Retry 1: 3 tests failed (fixed 1)',
      // No test ran: nothing is claimed fixed.
      '3. Retry 2: Compilation error: TS2322 in a.ts',
      // The remaining issue is the error just stated: not listed again. Next steps are the run's (runEndReason), with its id.
    ]);
  });

  it('compares failing tests by identity: the same test failing again is never "fixed", each issue is listed once', () => {
    const ids = (...names: string[]) => names.map((name) => testIdentity({ name, file: 'test/add.test.mjs:3:1' }));
    const s = attemptsSummary(
      [
        { n: 1, outcome: 'failed', errorClass: 'test_failure', message: null, failedTests: ids('adds (3 ms)') },
        { n: 2, outcome: 'failed', errorClass: 'test_failure', message: null, failedTests: ids('adds (5 ms)', 'adds (5 ms)') },
        { n: 3, outcome: 'failed', errorClass: 'test_failure', message: null, failedTests: ids('adds # time=1.5ms') },
        { n: 4, outcome: 'failed', errorClass: 'test_failure', message: null, failedTests: ids('adds', 'subtracts') },
      ],
      ['adds: expected 3, got 4', 'adds: expected 3, got 4'],
    );
    expect(s).not.toContain('fixed');
    expect(s.split('\n').slice(1, 5)).toEqual([
      '1. Initial: 1 test failed',
      '2. Retry 1: 1 test failed (no improvement)',
      '3. Retry 2: 1 test failed (no improvement)',
      '4. Retry 3: 2 tests failed (1 new)',
    ]);
    expect(s.match(/- adds: expected 3, got 4/g)).toHaveLength(1);
    expect(s).not.toContain('<run-id>');
  });

  it('counts compiler errors as errors, not as failing tests', () => {
    const s = attemptsSummary([
      {
        n: 1,
        outcome: 'failed',
        errorClass: 'compilation_error',
        message: null,
        failedTests: [testIdentity({ name: 'TS2322', file: 'src/a.ts:3', kind: 'compile' })],
      },
      { n: 2, outcome: 'failed', errorClass: 'test_failure', message: null, failedTests: [testIdentity({ name: 'adds', file: 'test/a.test.ts' })] },
    ]);
    expect(s.split('\n').slice(1, 3)).toEqual(['1. Initial: 1 error', '2. Retry 1: 1 test failed (fixed 1, 1 new)']);
  });

  it('says when a retry brought no improvement', () => {
    const s = attemptsSummary([
      { n: 1, outcome: 'failed', errorClass: 'test_failure', message: null, failedTests: ['a', 'b'] },
      { n: 2, outcome: 'failed', errorClass: 'test_failure', message: null, failedTests: ['a', 'b'] },
    ]);
    expect(s.split('\n')[2]).toBe('2. Retry 1: 2 tests failed (no improvement)');
  });
});
