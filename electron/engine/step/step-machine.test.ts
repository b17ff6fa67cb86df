// Pure tests of the step machine: events in, state and commands out — no git, no store, no server.
import { describe, expect, it } from 'vitest';
import { gateFailure, stepMachine } from '../testing/step-fixtures';
import type { Failure } from './attempt-gates';
import { initialState } from './step-machine';
import { restoreState, type StoredAttempt } from './step-restore';
import type { AttemptArtifacts, StepCommand, StepEvent, StepState } from './step-state';

const NOW = new Date('2026-01-01T00:00:00.000Z');

function setup(yaml = '', stepYaml = '') {
  return stepMachine({ yaml, stepYaml });
}

const testFailure = (output = 'not ok 1 - adds'): Failure =>
  gateFailure({ output, failures: [{ name: 'adds', message: null, expected: '3', actual: '4', file: 'test/add.test.mjs', line: 3 }] });

const art = (n: number, tree = `tree${n}`): AttemptArtifacts => ({ attemptId: 100 + n, sessionId: `s${n}`, tree, treeRef: `refs/x/${n}`, diff: `diff ${n}` });

/** Drives the machine: returns every command, and the state after the events. */
function drive(machine: ReturnType<typeof setup>['machine'], s: StepState, events: StepEvent[]) {
  const commands: StepCommand[] = [];
  for (const e of events) {
    const t = machine.next(s, e, NOW);
    s = t.state;
    commands.push(...t.commands);
  }
  return { s, commands };
}

const spent = (taskSpent: number) => ({ taskUsd: 1, dailyUsd: null, alertAt: 0.8, taskSpent, daySpent: 0, alerted: { task: taskSpent > 0.9, daily: false } });
const ok: StepEvent = { type: 'budgetChecked', facts: spent(0), dayNext: '2026-01-02T00:00:00.000Z' };
const prompts = (cs: StepCommand[]) => cs.flatMap((c) => (c.kind === 'runAgent' ? [c.prompt] : []));

describe('step machine', () => {
  it('runs an attempt, its gates and the commit, then finishes done', () => {
    const { machine } = setup();
    const { s, commands } = drive(machine, initialState(1, 'base'), [
      { type: 'start' },
      ok,
      { type: 'agentFinished', timedOut: false, ...art(1) },
      { type: 'gatesFinished', failure: null, flaky: false, notes: [] },
      { type: 'committed', sha: 'c1' },
    ]);
    expect(commands.map((c) => c.kind)).toEqual(['checkBudget', 'runAgent', 'runGates', 'commit', 'finish']);
    expect(s.outcome).toEqual({ kind: 'done', commit: 'c1' });
  });

  it('applies the budgets before each attempt: one alert past alert_at, a pause at the task budget', () => {
    const { machine } = setup();
    const at = (n: number): StepEvent => ({ type: 'budgetChecked', facts: spent(n), dayNext: '2026-01-02T00:00:00.000Z' });
    const { s, commands } = drive(machine, initialState(1, 'base'), [
      { type: 'start' },
      at(0.85),
      { type: 'agentFinished', timedOut: false, ...art(1) },
      { type: 'gatesFinished', failure: testFailure(), flaky: false, notes: [] },
      at(1.2),
    ]);
    expect(commands.filter((c) => c.kind === 'budgetAlert')).toEqual([{ kind: 'budgetAlert', budget: 'task', spentUsd: 0.85, limitUsd: 1 }]);
    expect(commands.filter((c) => c.kind === 'runAgent')).toHaveLength(1);
    expect(s.outcome).toMatchObject({ kind: 'budget', budget: 'task', wakeAt: null, reason: expect.stringContaining('task budget of $1.00 reached') });
  });

  it('gives a test failure 3 retries by default, changing strategy when it repeats, and counts "attempt k of n"', () => {
    const { machine } = setup();
    const events: StepEvent[] = [{ type: 'start' }];
    for (let i = 1; i <= 4; i++)
      events.push(ok, { type: 'agentFinished', timedOut: false, ...art(i) }, { type: 'gatesFinished', failure: testFailure(), flaky: false, notes: [] });
    const { s, commands } = drive(machine, initialState(1, 'base'), events);
    expect(commands.filter((c) => c.kind === 'runAgent')).toHaveLength(4);
    expect(
      prompts(commands)
        .slice(1)
        .map((p) => /attempt (\d+) of (\d+)/.exec(p)?.slice(1)),
    ).toEqual([
      ['2', '4'],
      ['3', '4'],
      ['4', '4'],
    ]);
    const agents = commands.filter((c): c is Extract<StepCommand, { kind: 'runAgent' }> => c.kind === 'runAgent');
    expect(agents.map((a) => a.session)).toEqual(['new', 'continue', 'continue', 'new']);
    expect(agents[3]!.prompt).toContain('came back 3 times');
    expect(s.outcome).toMatchObject({ kind: 'fatal', reason: expect.stringContaining('gave up after 3 test failure retries') });
  });

  it('a retry round starts the accounting afresh and tells the agent the last real failure', () => {
    const { machine } = setup();
    const rows: StoredAttempt[] = [1, 2, 3, 4].map((n) => ({
      n,
      round: 0,
      outcome: 'failed',
      errorClass: 'test_failure',
      message: '1 test failed',
      failures: testFailure().failures,
      fingerprint: 'fp',
      overrides: {},
    }));
    const s0 = restoreState(machine, { index: 1, stepStart: 'base', round: 1, rows, lastFailure: testFailure('the real output'), lastDiff: 'd', now: NOW });
    expect(s0.acct.attempts).toBe(0);
    expect(s0.history).toHaveLength(4);
    expect(s0.nextN).toBe(5);
    const { commands } = drive(machine, s0, [{ type: 'start' }, ok]);
    const run = commands.find((c) => c.kind === 'runAgent');
    expect(run).toMatchObject({ n: 5, round: 1, session: 'new' });
    expect(prompts(commands)[0]).toContain('the real output');
    expect(prompts(commands)[0]).toContain('attempt 1 of 4');
    const done = drive(machine, s0, [
      { type: 'start' },
      ok,
      { type: 'agentFinished', timedOut: false, ...art(5) },
      { type: 'gatesFinished', failure: null, flaky: false, notes: [] },
      { type: 'committed', sha: 'c5' },
    ]);
    expect(done.commands).toContainEqual({
      kind: 'log',
      level: 'info',
      message: 'step 1: succeeded on attempt 1/4 since the retry/resume (attempt 5 of the step)',
    });
  });

  it('a parked run waking in the same round keeps its accounting', () => {
    const { machine } = setup();
    const rows: StoredAttempt[] = [1, 2, 3, 4, 5].map((n) => ({
      n,
      round: 2,
      outcome: 'error',
      errorClass: 'rate_limit',
      message: '429',
      failures: [],
      fingerprint: null,
      overrides: {},
    }));
    const s0 = restoreState(machine, { index: 1, stepStart: 'base', round: 2, rows, lastFailure: null, lastDiff: null, now: NOW });
    expect(s0.acct.classRetries.rate_limit).toBe(5);
    const { s } = drive(machine, s0, [
      { type: 'start' },
      ok,
      { type: 'apiError', errorClass: 'rate_limit', message: '429', retriable: true, retryAfterS: 1, ...art(6) },
    ]);
    expect(s.outcome).toMatchObject({ kind: 'fatal', reason: expect.stringContaining('gave up after 5 rate limit retries') });
  });

  it('retries an API fault by its class even when no retry entry applies', () => {
    const { machine } = setup('retry:\n  - not: gate.test\n  - exit: 3');
    const { commands } = drive(machine, initialState(1, 'base'), [
      { type: 'start' },
      ok,
      { type: 'apiError', errorClass: 'api_error', message: 'overloaded', retriable: true, retryAfterS: null, ...art(1) },
      ok,
      { type: 'apiError', errorClass: 'api_error', message: 'overloaded', retriable: true, retryAfterS: null, ...art(2) },
      ok,
      { type: 'apiError', errorClass: 'api_error', message: 'overloaded', retriable: true, retryAfterS: null, ...art(3) },
      ok,
    ]);
    // exit: 3 counts gate failures only: three API faults still get their retries.
    expect(commands.filter((c) => c.kind === 'runAgent')).toHaveLength(4);
  });

  it('an API fault after a test failure does not hide it: the next prompt still has the failing test', () => {
    const { machine } = setup();
    const { commands } = drive(machine, initialState(1, 'base'), [
      { type: 'start' },
      ok,
      { type: 'agentFinished', timedOut: false, ...art(1) },
      { type: 'gatesFinished', failure: testFailure('not ok 1 - adds (the real one)'), flaky: false, notes: [] },
      ok,
      { type: 'apiError', errorClass: 'rate_limit', message: '429 Too Many Requests', retriable: true, retryAfterS: null, ...art(2) },
      ok,
    ]);
    const third = prompts(commands)[2]!;
    expect(third).toContain('not ok 1 - adds (the real one)');
    expect(third).toContain('cut short (rate_limit: 429 Too Many Requests)');
  });

  it('re-runs the gates with the doubled timeout when the agent changed nothing after a gate timeout', () => {
    const { machine } = setup();
    const timedOut: Failure = { ...testFailure(), errorClass: 'timeout', message: 'gate timed out', failures: [] };
    const { commands } = drive(machine, initialState(1, 'base'), [
      { type: 'start' },
      ok,
      { type: 'agentFinished', timedOut: false, ...art(1, 'same') },
      { type: 'gatesFinished', failure: timedOut, flaky: false, notes: [] },
      ok,
      { type: 'agentFinished', timedOut: false, ...art(2, 'same') },
    ]);
    expect(commands.filter((c) => c.kind === 'runGates').at(-1)).toMatchObject({ timeoutMultiplier: 2 });
  });

  it('a git conflict is rebased once, the agent told the files, then escalated with the files listed', () => {
    const { machine } = setup();
    const conflict: Failure = {
      ...testFailure('CONFLICT (content): Merge conflict in src/a.ts'),
      errorClass: 'git_conflict',
      message: 'merge conflict',
      failures: [],
    };
    const { s, commands } = drive(machine, initialState(1, 'base'), [
      { type: 'start' },
      ok,
      { type: 'agentFinished', timedOut: false, ...art(1) },
      { type: 'gatesFinished', failure: conflict, flaky: false, notes: [] },
      { type: 'rebased', moved: true, ok: false, base: 'main', onto: 'tip', files: ['src/a.ts'], newStart: null },
      ok,
      { type: 'agentFinished', timedOut: false, ...art(2) },
      { type: 'gatesFinished', failure: conflict, flaky: false, notes: [] },
    ]);
    expect(commands.filter((c) => c.kind === 'rebase')).toHaveLength(1);
    expect(prompts(commands)[1]).toMatch(/rebasing this run's branch onto it conflicted in: src\/a\.ts/);
    expect(s.outcome).toMatchObject({ kind: 'escalate', reason: expect.stringContaining('conflicting files: src/a.ts') });
  });

  it('a commit refused for conflicted files is a git conflict, and a successful rebase moves the step start', () => {
    const { machine } = setup();
    const { s, commands } = drive(machine, initialState(1, 'base'), [
      { type: 'start' },
      ok,
      { type: 'agentFinished', timedOut: false, ...art(1) },
      { type: 'gatesFinished', failure: null, flaky: false, notes: [] },
      { type: 'commitConflicted', files: ['b.txt'], message: 'could not commit' },
      { type: 'rebased', moved: true, ok: true, base: 'main', onto: 'tip', files: [], newStart: 'rebased-head' },
    ]);
    expect(commands.find((c) => c.kind === 'finishAttempt')).toMatchObject({ finish: { outcome: 'error', errorClass: 'git_conflict' } });
    expect(s.stepStart).toBe('rebased-head');
    expect(s.notes.join('\n')).toContain('b.txt');
  });

  it('a stop during the gates finishes the attempt as interrupted; a stop while waiting does not touch it', () => {
    const { machine } = setup('backoff: { base_s: 5, max_s: 5, jitter: 0 }');
    const a = drive(machine, initialState(1, 'base'), [{ type: 'start' }, ok, { type: 'agentFinished', timedOut: false, ...art(1) }, { type: 'stopped' }]);
    expect(a.commands.at(-2)).toMatchObject({ kind: 'finishAttempt', attemptId: 101, finish: { outcome: 'interrupted', treeRef: 'refs/x/1' } });
    expect(a.s.outcome).toEqual({ kind: 'stopped', reason: 'stopped during step 1' });
    const b = drive(machine, initialState(1, 'base'), [
      { type: 'start' },
      ok,
      { type: 'agentFinished', timedOut: false, ...art(1) },
      { type: 'gatesFinished', failure: testFailure(), flaky: false, notes: [] },
      { type: 'stopped' },
    ]);
    expect(b.commands.find((c) => c.kind === 'sleep')).toMatchObject({ delayS: 5, wakeAt: '2026-01-01T00:00:05.000Z' });
    expect(b.commands.filter((c) => c.kind === 'finishAttempt')).toHaveLength(1);
    expect(b.s.outcome).toEqual({ kind: 'stopped', reason: 'stopped while waiting to retry step 1' });
  });

  it('its state survives JSON: the machine continues from a serialised copy', () => {
    const { machine } = setup();
    const mid = drive(machine, initialState(1, 'base'), [
      { type: 'start' },
      ok,
      { type: 'agentFinished', timedOut: false, ...art(1) },
      { type: 'gatesFinished', failure: testFailure(), flaky: false, notes: [] },
    ]);
    const copy = JSON.parse(JSON.stringify(mid.s)) as StepState;
    const a = drive(machine, mid.s, [ok]);
    const b = drive(machine, copy, [ok]);
    expect(b.commands).toEqual(a.commands);
  });
});

describe('step machine: what it tells the notification targets', () => {
  it('asks to notify a success after a retry (k/n), never a first-attempt success', () => {
    const { machine } = setup('flaky_check: false');
    const { commands } = drive(machine, initialState(1, 'base'), [
      { type: 'start' },
      ok,
      { type: 'agentFinished', timedOut: false, ...art(1) },
      { type: 'gatesFinished', failure: testFailure(), flaky: false, notes: [] },
      ok,
      { type: 'agentFinished', timedOut: false, ...art(2) },
      { type: 'gatesFinished', failure: null, flaky: false, notes: [] },
      { type: 'committed', sha: 'c2' },
    ]);
    expect(commands.filter((c) => c.kind === 'notify')).toEqual([{ kind: 'notify', event: 'step.succeeded_after_retry', attempts: 2, maxAttempts: 4 }]);
  });

  it('gives a step that gave up its attempts, the most it could have had, and why (for "failed at step N after k attempts")', () => {
    const { machine } = setup('max_retries: 1\nflaky_check: false');
    const { s } = drive(machine, initialState(1, 'base'), [
      { type: 'start' },
      ok,
      { type: 'agentFinished', timedOut: false, ...art(1) },
      { type: 'gatesFinished', failure: testFailure(), flaky: false, notes: [] },
      ok,
      { type: 'agentFinished', timedOut: false, ...art(2) },
      { type: 'gatesFinished', failure: testFailure('not ok 2'), flaky: false, notes: [] },
    ]);
    expect(s.outcome).toMatchObject({ kind: 'fatal', attempts: 2, maxAttempts: 2, why: expect.stringContaining('gave up after 1 test failure retr') });
  });
});

describe('an attempt that changed no file', () => {
  const unchanged = (n: number): StepEvent => ({ type: 'agentFinished', timedOut: false, unchanged: true, ...art(n, 'start-tree') });

  it('is not a success: no gates, no commit; the retry tells the agent its attempt changed no files', () => {
    const { machine } = setup();
    const { s, commands } = drive(machine, initialState(1, 'base'), [{ type: 'start' }, ok, unchanged(1), ok]);
    expect(commands.map((c) => c.kind)).not.toContain('runGates');
    expect(commands.map((c) => c.kind)).not.toContain('commit');
    const finished = commands.find((c) => c.kind === 'finishAttempt');
    expect(finished?.kind === 'finishAttempt' && finished.finish).toMatchObject({ outcome: 'error', errorClass: 'empty_attempt' });
    expect(prompts(commands)[1]).toContain('your attempt changed no files');
    expect(s.acct.classRetries.empty_attempt).toBe(1);
  });

  it('a second attempt changing nothing ends the step (no_change), so the accounting cannot loop', () => {
    const { machine } = setup();
    const { s } = drive(machine, initialState(1, 'base'), [{ type: 'start' }, ok, unchanged(1), ok, unchanged(2)]);
    expect(s.outcome).toMatchObject({ kind: 'fatal', errorClass: 'no_change' });
    expect(s.history.map((h) => h.errorClass)).toEqual(['empty_attempt', 'no_change']);
  });

  it('after a real failure, the retry keeps the failing test in the prompt and says the attempt changed nothing', () => {
    const { machine } = setup('retry:\n  - attempt: 2\n    worktree: reset\n');
    const { commands } = drive(machine, initialState(1, 'base'), [
      { type: 'start' },
      ok,
      { type: 'agentFinished', timedOut: false, ...art(1) },
      { type: 'gatesFinished', failure: testFailure(), flaky: false, notes: [] },
      ok,
      unchanged(2),
      ok,
    ]);
    const third = prompts(commands)[2]!;
    expect(third).toContain('changed no files');
    expect(third).toContain('not ok 1 - adds');
  });

  it('is a success when the step says allow_empty: true', () => {
    const { machine } = setup('', '    allow_empty: true\n');
    const { s, commands } = drive(machine, initialState(1, 'base'), [
      { type: 'start' },
      ok,
      unchanged(1),
      { type: 'gatesFinished', failure: null, flaky: false, notes: [] },
      { type: 'committed', sha: 'c1' },
    ]);
    expect(commands.map((c) => c.kind)).toEqual(['checkBudget', 'runAgent', 'runGates', 'commit', 'finish']);
    expect(s.outcome).toEqual({ kind: 'done', commit: 'c1' });
  });
});

describe("a worktree that would steer Ratchet's git (sandbox_violation)", () => {
  const said = "files in the worktree would have steered Ratchet's own git…: the worktree's .git file re-pointed at /wt/.evil";

  it('after the agent: the attempt ends with no tree (nothing staged), the step fails at once, whatever the retry settings say', () => {
    const { machine } = setup('max_retries: 5\nallow_retry_on: [sandbox_violation, test_failure]');
    const { s, commands } = drive(machine, initialState(1, 'base'), [
      { type: 'start' },
      ok,
      { type: 'worktreeViolated', message: said, attemptId: 101, sessionId: 's1' },
    ]);
    expect(commands.map((c) => c.kind)).toEqual(['checkBudget', 'runAgent', 'finishAttempt', 'recordDecision', 'finish']);
    const finished = commands.find((c): c is Extract<StepCommand, { kind: 'finishAttempt' }> => c.kind === 'finishAttempt')!;
    expect(finished).toMatchObject({
      attemptId: 101,
      finish: {
        outcome: 'error',
        errorClass: 'sandbox_violation',
        errorMessage: said,
        treeRef: null,
        treeSha: null,
        diff: null,
        sessionId: 's1',
        fingerprint: null,
      },
    });
    expect(s.outcome).toMatchObject({ kind: 'fatal', errorClass: 'sandbox_violation', reason: expect.stringContaining(said) });
  });

  it('after the gates: no validator is asked (it would run in that worktree), no retry', () => {
    const { machine } = setup('retry:\n  - validate: "./assess.sh"\n  - exit: 3');
    const { s, commands } = drive(machine, initialState(1, 'base'), [
      { type: 'start' },
      ok,
      { type: 'agentFinished', timedOut: false, ...art(1) },
      { type: 'worktreeViolated', message: said },
    ]);
    expect(commands.map((c) => c.kind)).toEqual(['checkBudget', 'runAgent', 'runGates', 'finishAttempt', 'recordDecision', 'finish']);
    expect(commands.find((c) => c.kind === 'finishAttempt')).toMatchObject({
      attemptId: 101,
      finish: { errorClass: 'sandbox_violation', treeRef: 'refs/x/1' },
    });
    expect(s.outcome).toMatchObject({ kind: 'fatal', errorClass: 'sandbox_violation' });
  });
});
