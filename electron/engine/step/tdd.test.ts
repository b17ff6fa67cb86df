// Pure tests of test first (TDD mode): the step machine's test phase, what counts as a test file, and a restored step past its red test.
import { describe, expect, it } from 'vitest';
import { gateFailure, stepMachine } from '../testing/step-fixtures';
import { parseWorkflow } from '../workflow/load-workflow';
import type { Failure } from './attempt-gates';
import { initialState } from './step-machine';
import { restoreState, type StoredAttempt } from './step-restore';
import type { AttemptArtifacts, StepCommand, StepEvent, StepState } from './step-state';
import { isTestFile, stepTdd, type RedTest } from './tdd';

const NOW = new Date('2026-01-01T00:00:00.000Z');

function setup(yaml = '', stepYaml = '    tdd: true\n') {
  return stepMachine({ yaml: `flaky_check: false\n${yaml}`, prompt: 'add add()', stepYaml, tdd: true });
}

const failing = (errorClass: Failure['errorClass'] = 'test_failure', message = '1 test failed'): Failure =>
  gateFailure({
    output: 'not ok 1 - adds\n  expected: 3\n  actual: undefined',
    errorClass,
    message,
    failures: [{ name: 'adds', message: null, expected: '3', actual: 'undefined', file: 'test/add.test.mjs', line: 3 }],
  });

const art = (n: number): AttemptArtifacts => ({ attemptId: 100 + n, sessionId: `s${n}`, tree: `tree${n}`, treeRef: `refs/x/${n}`, diff: `diff ${n}` });
const finished = (n: number, changed: string[]): StepEvent => ({ type: 'agentFinished', timedOut: false, changed, ...art(n) });
const gates = (failure: Failure | null, flaky = false): StepEvent => ({ type: 'gatesFinished', failure, flaky, notes: [] });
const ok: StepEvent = {
  type: 'budgetChecked',
  facts: { taskUsd: null, dailyUsd: null, alertAt: 0.8, taskSpent: 0, daySpent: 0, alerted: { task: false, daily: false } },
  dayNext: '2026-01-02T00:00:00.000Z',
};

function drive(machine: ReturnType<typeof setup>['machine'], s: StepState, events: StepEvent[]) {
  const commands: StepCommand[] = [];
  for (const e of events) {
    const t = machine.next(s, e, NOW);
    s = t.state;
    commands.push(...t.commands);
  }
  return { s, commands };
}
const agents = (cs: StepCommand[]) => cs.filter((c): c is Extract<StepCommand, { kind: 'runAgent' }> => c.kind === 'runAgent');
/** How each attempt ended, as the adapters store it (a passing attempt's with its commit). */
const finishes = (cs: StepCommand[]) => cs.flatMap((c) => (c.kind === 'finishAttempt' || c.kind === 'commit' ? [c.finish] : []));

describe('test first: the step machine', () => {
  it('writes the test, checks the gates fail on it, then implements: the red attempt is kept, the implementation committed', () => {
    const { machine } = setup();
    const { s, commands } = drive(machine, initialState(1, 'base'), [
      { type: 'start' },
      ok,
      finished(1, ['test/add.test.mjs']),
      gates(failing()),
      ok,
      finished(2, ['src/add.mjs']),
      gates(null),
      { type: 'committed', sha: 'c2' },
    ]);
    const [test, impl] = agents(commands);
    expect(test!.listChanged).toBe(true);
    expect(test!.prompt).toContain('## Step 1 of 1: one');
    expect(test!.prompt).toContain('Test first: this attempt writes the test, not the change');
    expect(test!.prompt).toContain('do not implement that behaviour');
    // The implementation continues the test's session: it is told its test fails and to keep it, not the step again.
    expect(impl).toMatchObject({ n: 2, session: 'continue', sessionId: 's1' });
    expect(impl!.listChanged).toBeUndefined();
    expect(impl!.prompt).toContain('Test first: now implement the change');
    expect(impl!.prompt).toContain('Your test (test/add.test.mjs) fails as it should (gate `test`)');
    expect(impl!.prompt).toContain('not ok 1 - adds');
    expect(impl!.prompt).toContain('Keep the test written first');
    expect(impl!.prompt).not.toContain('## Step 1 of 1');
    expect(finishes(commands).map((f) => f.outcome)).toEqual(['red', 'passed']);
    expect(finishes(commands)[0]).toMatchObject({
      errorClass: null,
      summary: '1 test fails (adds) before the implementation, as it should; test files: test/add.test.mjs',
    });
    // Neither a retry nor a decision: the red attempt spends no class retry, and "succeeded after retry" is not said.
    expect(commands.filter((c) => c.kind === 'recordDecision' || c.kind === 'notify')).toEqual([]);
    expect(s.acct.classRetries).toEqual({});
    expect(s.outcome).toEqual({ kind: 'done', commit: 'c2' });
    expect(s.history.map((h) => h.outcome)).toEqual(['red', 'passed']);
    expect(commands.filter((c) => c.kind === 'log').map((c) => c.kind === 'log' && c.message)).toEqual([
      'step 1: attempt 1 (test first: it writes the test; the gates must fail on it)',
      'step 1: attempt 2 (same session) (test first: the implementation, now that its test fails)',
    ]);
  });

  it('a test attempt that adds no test is a TDD violation before any gate runs, retried with the violation in the prompt', () => {
    const { machine } = setup();
    const { s, commands } = drive(machine, initialState(1, 'base'), [{ type: 'start' }, ok, finished(1, ['src/add.mjs']), ok]);
    expect(commands.map((c) => c.kind)).not.toContain('runGates');
    expect(finishes(commands)[0]).toMatchObject({
      outcome: 'error',
      errorClass: 'tdd_violation',
      errorMessage: expect.stringContaining('your test attempt added no test (it changed src/add.mjs, none of them a test)'),
    });
    const retry = agents(commands)[1]!;
    expect(retry.prompt).toContain('Error class: tdd_violation');
    expect(retry.prompt).toContain('added no test');
    // Still the test attempt: the rule again, and the files asked for again.
    expect(retry.prompt).toContain('Test first: this attempt writes the test, not the change');
    expect(retry.listChanged).toBe(true);
    expect(s.acct.classRetries).toEqual({ tdd_violation: 1 });
  });

  it('a test that passes before the implementation is a violation; the retry says so, and a failing test then goes on', () => {
    const { machine } = setup();
    const { s, commands } = drive(machine, initialState(1, 'base'), [
      { type: 'start' },
      ok,
      finished(1, ['test/add.test.mjs', 'src/add.mjs']),
      gates(null),
      ok,
      finished(2, ['test/add.test.mjs']),
      gates(failing()),
      ok,
      finished(3, ['test/add.test.mjs', 'src/add.mjs']),
      gates(null),
      { type: 'committed', sha: 'c3' },
    ]);
    expect(finishes(commands).map((f) => [f.outcome, f.errorClass])).toEqual([
      ['error', 'tdd_violation'],
      ['red', null],
      ['passed', null],
    ]);
    const [, second, third] = agents(commands);
    expect(second!.prompt).toContain('the gates passed with your new test in place (test/add.test.mjs)');
    expect(second!.prompt).toContain('revert it if you wrote it');
    expect(third!.prompt).toContain('Test first: now implement the change');
    expect(s.outcome).toEqual({ kind: 'done', commit: 'c3' });
  });

  it("violations are retried under the test failures' limit (max_retries), then the step fails saying why", () => {
    const { machine } = setup('max_retries: 1');
    const { s, commands } = drive(machine, initialState(1, 'base'), [
      { type: 'start' },
      ok,
      finished(1, ['test/add.test.mjs']),
      gates(null),
      ok,
      finished(2, ['test/add.test.mjs']),
      gates(null, true),
    ]);
    expect(agents(commands)).toHaveLength(2);
    expect(agents(commands)[1]!.prompt).toMatch(/attempt 2 of 3/);
    expect(s.outcome).toMatchObject({ kind: 'fatal', errorClass: 'tdd_violation', reason: expect.stringContaining('gave up after 1 TDD violation retry') });
    expect(finishes(commands)[1]!.errorMessage).toContain('the gates failed, then passed when run again on the same code');
  });

  it("a limit of its own (limits.tdd_violation) takes the place of the test failures' one", () => {
    const { machine } = setup('max_retries: 3\nlimits: { tdd_violation: 0 }');
    const { s } = drive(machine, initialState(1, 'base'), [{ type: 'start' }, ok, finished(1, ['README.md'])]);
    expect(s.outcome).toMatchObject({ kind: 'fatal', errorClass: 'tdd_violation', reason: expect.stringContaining('TDD violation gets no retries') });
  });

  it('a test attempt failing for another reason (environment, a gate that ran no tests) is that failure, and still writes the test next', () => {
    const { machine } = setup();
    const noTests = failing('test_failure', 'the gate ran no tests');
    const { commands } = drive(machine, initialState(1, 'base'), [{ type: 'start' }, ok, finished(1, ['test/add.test.mjs']), gates(noTests), ok]);
    expect(finishes(commands)[0]).toMatchObject({ outcome: 'failed', errorClass: 'test_failure' });
    expect(agents(commands)[1]!.prompt).toContain('Test first: this attempt writes the test, not the change');
    const env = drive(machine, initialState(1, 'base'), [
      { type: 'start' },
      ok,
      finished(1, ['test/add.test.mjs']),
      gates(failing('environment', 'npm ci failed')),
    ]);
    expect(env.s.outcome).toMatchObject({ kind: 'fatal', errorClass: 'environment' });
  });

  it('code that does not build yet without the change (a compile error) is a red test too', () => {
    const { machine } = setup();
    const { commands } = drive(machine, initialState(1, 'base'), [
      { type: 'start' },
      ok,
      finished(1, ['src/add.test.ts']),
      gates(failing('compilation_error', 'TS2307')),
      ok,
    ]);
    expect(finishes(commands)[0]!.outcome).toBe('red');
  });

  it('implementation failures are retried as usual, reminded to keep the test; the red attempt counts in "attempt k of n"', () => {
    const { machine } = setup();
    const { s, commands } = drive(machine, initialState(1, 'base'), [
      { type: 'start' },
      ok,
      finished(1, ['test/add.test.mjs']),
      gates(failing()),
      ok,
      finished(2, ['src/add.mjs']),
      gates(failing()),
      ok,
      finished(3, ['src/add.mjs']),
      gates(null),
      { type: 'committed', sha: 'c3' },
    ]);
    const third = agents(commands)[2]!;
    expect(third.prompt).toContain('## Retry: this is attempt 3 of 5');
    expect(third.prompt).toContain('Keep the test written first (test/add.test.mjs)');
    expect(commands.filter((c) => c.kind === 'notify')).toHaveLength(1);
    expect(s.acct.classRetries).toEqual({ test_failure: 1 });
  });

  it('`worktree: reset` after an implementation failure goes back to the red test, not to an empty step', () => {
    const { machine } = setup('retry:\n  - attempt: 3\n    worktree: reset\n  - exit: 5');
    const { commands } = drive(machine, initialState(1, 'base'), [
      { type: 'start' },
      ok,
      finished(1, ['test/add.test.mjs']),
      gates(failing()),
      ok,
      finished(2, ['src/add.mjs']),
      gates(failing()),
      ok,
    ]);
    expect(commands.filter((c) => c.kind === 'resetWorktree')).toEqual([{ kind: 'resetWorktree', to: 'base', tree: 'tree1' }]);
    const plain = setup('retry:\n  - attempt: 2\n    worktree: reset\n  - exit: 5', '');
    const p = drive(plain.machine, initialState(1, 'base'), [
      { type: 'start' },
      ok,
      { type: 'agentFinished', timedOut: false, ...art(1) },
      gates(failing()),
      ok,
    ]);
    expect(p.commands.filter((c) => c.kind === 'resetWorktree')).toEqual([{ kind: 'resetWorktree', to: 'base' }]);
  });

  it('a step without tdd behaves exactly as before: no changed-files request, no test-first words, a passing first attempt commits', () => {
    const { machine } = setup('', '');
    const { s, commands } = drive(machine, initialState(1, 'base'), [
      { type: 'start' },
      ok,
      { type: 'agentFinished', timedOut: false, ...art(1) },
      gates(null),
      { type: 'committed', sha: 'c1' },
    ]);
    expect(commands.map((c) => c.kind)).toEqual(['checkBudget', 'runAgent', 'runGates', 'commit', 'finish']);
    expect(agents(commands)[0]!.listChanged).toBeUndefined();
    expect(agents(commands)[0]!.prompt).not.toContain('Test first');
    expect(s.outcome).toEqual({ kind: 'done', commit: 'c1' });
  });

  it("the workflow's tdd is every step's default; a step's own tdd: false turns it off", () => {
    const on = parseWorkflow(
      'gates: { test: "npm test" }\ntdd: true\nsteps:\n  - title: a\n  - title: b\n    tdd: false\n  - title: c\n    tdd: { tests: ["checks/**"] }\n',
    );
    if (!on.ok) throw new Error(JSON.stringify(on.problems));
    expect(on.workflow.steps.map((st) => stepTdd(on.workflow, st))).toEqual([
      { tests: null, gates: ['test'] },
      null,
      { tests: ['checks/**'], gates: ['test'] },
    ]);
  });

  it('a test-first step with no gate is refused when the workflow is read', () => {
    const r = parseWorkflow('gates: { test: "npm test" }\nsteps:\n  - title: a\n    gates: []\n    tdd: true\n');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.problems[0]!.message).toContain('is test first (tdd), which needs a gate');
  });
});

describe('test first: a step resumed past its red test', () => {
  const red: RedTest = { n: 1, testFiles: ['test/add.test.mjs'], failures: [], output: 'not ok 1 - adds', gate: 'test', tree: 'tree1' };
  const rows: StoredAttempt[] = [
    { n: 1, round: 0, outcome: 'red', errorClass: null, message: null, failures: [], fingerprint: null, overrides: null },
    { n: 2, round: 0, outcome: 'interrupted', errorClass: null, message: null, failures: [], fingerprint: null, overrides: null },
  ];

  it('in the same round, counts the red attempt and implements (a new session told the test fails)', () => {
    const { machine } = setup();
    const s0 = restoreState(machine, { index: 1, stepStart: 'base', round: 0, rows, lastFailure: null, lastDiff: null, now: NOW, red });
    expect(s0.acct.attempts).toBe(1);
    const { commands } = drive(machine, s0, [{ type: 'start' }, ok]);
    const impl = agents(commands)[0]!;
    expect(impl).toMatchObject({ n: 3, session: 'new' });
    expect(impl.listChanged).toBeUndefined();
    expect(impl.prompt).toContain('## Step 1 of 1: one');
    expect(impl.prompt).toContain('Your test (test/add.test.mjs) fails as it should');
  });

  it('after a retry (a new round), still implements: the red test is not written again', () => {
    const { machine } = setup();
    const s0 = restoreState(machine, { index: 1, stepStart: 'base', round: 1, rows, lastFailure: null, lastDiff: null, now: NOW, red });
    expect(s0.acct.attempts).toBe(0);
    const { commands } = drive(machine, s0, [{ type: 'start' }, ok]);
    expect(agents(commands)[0]!.prompt).toContain('Test first: now implement the change');
  });
});

describe('test first: which files are tests', () => {
  it('knows the usual names and folders', () => {
    for (const f of [
      'test/add.test.mjs',
      'src/add.test.ts',
      'src/add.spec.tsx',
      'pkg/add_test.go',
      'tests/test_add.py',
      'test_add.py',
      'spec/player_spec.rb',
      'src/test/java/AddTest.java',
      'Calc.Tests/AddTests.cs',
      'src/__tests__/add.js',
      'e2e/login.ts',
    ]) {
      expect(isTestFile(f, null), f).toBe(true);
    }
    for (const f of ['src/add.mjs', 'README.md', 'src/testing/helpers.ts', 'latest.js', 'contest/entry.py', 'package.json']) {
      expect(isTestFile(f, null), f).toBe(false);
    }
  });

  it("uses the step's globs instead when it gives them", () => {
    expect(isTestFile('checks/add.check.js', ['checks/**'])).toBe(true);
    expect(isTestFile('src/lib.rs', ['src/lib.rs'])).toBe(true);
    expect(isTestFile('test/add.test.mjs', ['checks/**'])).toBe(false);
  });
});
