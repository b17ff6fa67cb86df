import { describe, expect, it } from 'vitest';
import { backoffDelayS } from './backoff';
import { decideAfterFailure, type FailureFacts } from './decide';
import { attemptsSummary } from './attempt-summary';

const backoff = { base_s: 60, max_s: 300, jitter: 0.1 };
const facts = (over: Partial<FailureFacts>): FailureFacts => ({
  attempt: 1, maxRetries: 3, errorClass: 'test_failure', message: '2 tests failed', noChange: false, agentFatal: false,
  retryAfterS: null, backoff, rng: () => 0, ...over,
});

describe('backoff', () => {
  it('doubles from base and caps at max', () => {
    const b = { ...backoff, jitter: 0 };
    expect([1, 2, 3, 4, 5].map((r) => backoffDelayS(b, r))).toEqual([60, 120, 240, 300, 300]);
  });
  it('adds at most `jitter` of the delay', () => {
    expect(backoffDelayS(backoff, 1, () => 0)).toBe(60);
    expect(backoffDelayS(backoff, 1, () => 0.999999)).toBeCloseTo(66, 3);
    expect(backoffDelayS(backoff, 9, () => 1)).toBeCloseTo(330, 3);
  });
});

describe('decideAfterFailure', () => {
  it('retries while retries remain, counting as retry k/n', () => {
    const d = decideAfterFailure(facts({ attempt: 1 }));
    expect(d.action).toBe('retry');
    expect(d.reason).toBe('retry 1/3 after test_failure');
    expect(d.delayS).toBe(60);
    expect(decideAfterFailure(facts({ attempt: 3 })).reason).toBe('retry 3/3 after test_failure');
  });
  it('gives up after max_retries retries', () => {
    const d = decideAfterFailure(facts({ attempt: 4 }));
    expect(d.action).toBe('fatal');
    expect(d.reason).toBe('gave up after 3 retries');
  });
  it('fails early when a retry changed nothing', () => {
    const d = decideAfterFailure(facts({ attempt: 2, noChange: true }));
    expect(d.action).toBe('fatal');
    expect(d.reason).toContain('changed nothing');
  });
  it('fails at once on non-retriable classes and fatal agent errors', () => {
    expect(decideAfterFailure(facts({ errorClass: 'missing_dependency' })).action).toBe('fatal');
    expect(decideAfterFailure(facts({ errorClass: 'api_error', agentFatal: true })).action).toBe('fatal');
  });
  it('waits at least as long as retry-after says', () => {
    expect(decideAfterFailure(facts({ errorClass: 'rate_limit', retryAfterS: 90 })).delayS).toBe(90);
  });
  it('max_retries 0 never retries', () => {
    expect(decideAfterFailure(facts({ maxRetries: 0 })).reason).toContain('max_retries: 0');
  });
});

describe('attemptsSummary', () => {
  it('says how many failing tests each retry fixed', () => {
    const s = attemptsSummary([
      { n: 1, outcome: 'failed', errorClass: 'test_failure', message: null, failedTests: ['a', 'b', 'c', 'd'] },
      { n: 2, outcome: 'failed', errorClass: 'test_failure', message: null, failedTests: ['b', 'c', 'd'] },
      { n: 3, outcome: 'failed', errorClass: 'compilation_error', message: 'TS2322 in a.ts', failedTests: [] },
    ], ['TS2322 in a.ts']);
    expect(s.split('\n')).toEqual([
      'Attempts summary:',
      '1. Initial: 4 tests failed',
      '2. Retry 1: 3 tests failed (fixed 1)',
      '3. Retry 2: compilation_error: TS2322 in a.ts (fixed 3)',
      'Remaining issues:',
      '- TS2322 in a.ts',
    ]);
  });

  it('says when a retry brought no improvement', () => {
    const s = attemptsSummary([
      { n: 1, outcome: 'failed', errorClass: 'test_failure', message: null, failedTests: ['a', 'b'] },
      { n: 2, outcome: 'failed', errorClass: 'test_failure', message: null, failedTests: ['a', 'b'] },
    ]);
    expect(s.split('\n')[2]).toBe('2. Retry 1: 2 tests failed (no improvement)');
  });
});
