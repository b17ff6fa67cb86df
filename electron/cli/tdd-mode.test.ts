// CLI (TDD mode): a test-first step through `ratchet run` with the scripted agent, real git and a real `node --test` gate.
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { StatusDocument } from '../../shared/domain';
import { startScriptedServer, type ScriptedServer, type ScriptResponse } from '../scripted/server';
import { create, fixtureProject, queue, say, testFile, turn } from '../engine/testing/fixture-project';
import { cli } from './testing/run-cli';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const workflow = (extra = '') => `
gates:
  test: { run: "node --test --test-reporter=tap", timeout: 60 }
agent: { kind: anthropic, model: claude-sonnet-5-5, max_turns: 10 }
backoff: { base_s: 0, max_s: 0, jitter: 0 }
flaky_check: false
${extra}
steps:
  - title: Add add()
    prompt: Write src/add.mjs exporting add(a, b).
    tdd: true
`;

const TEST = testFile('adds 2 and 3', 'add', 'add', [2, 3], 5);
const stub = 'export function add() { return 0; }\n';
const fix = 'export function add(a, b) { return a + b; }\n';
/** One agent attempt: the files it writes, then "done". */
const attempt = (...files: Array<[string, string]>): ScriptResponse[] => [turn(...files.map(([p, text]) => create(p, text))), say('done')];

let lastHome = '';

async function run(yaml: string, responses: ScriptResponse[]) {
  const p = fixtureProject(yaml);
  lastHome = p.home;
  server = await startScriptedServer({ script: { rules: queue(...responses) } });
  // --no-gates: one plan here has a first step with `gates: []` (the others have gates: it changes nothing for them).
  const r = await cli(['run', p.repo, '--workflow', p.workflowFile, '--yes', '--json', '--no-gates'], {
    RATCHET_HOME: p.home,
    ANTHROPIC_API_KEY: 'k',
    ANTHROPIC_BASE_URL: server.url,
  });
  const doc = StatusDocument.parse(JSON.parse(r.out));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: p.repo, encoding: 'utf8' }).trim();
  // What each attempt was told: the user text of the first request of each attempt (a new attempt follows a "done").
  const asked = server.requests.map((q) => q.lastUserText ?? '');
  return { r, doc, git, asked };
}

describe('a test-first step (tdd: true)', () => {
  it('`ratchet check` says which steps are test first, and refuses one with no gate', async () => {
    const p = fixtureProject(workflow().replace('steps:\n', 'steps:\n  - title: one\n'));
    const r = await cli(['check', p.workflowFile], { RATCHET_HOME: p.home });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('test first (tdd): step 2 — the first attempt writes a test the gates must fail on, then the change');
    const none = fixtureProject(workflow().replace('    tdd: true\n', '    tdd: true\n    gates: []\n'));
    const bad = await cli(['check', none.workflowFile], { RATCHET_HOME: none.home });
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('steps[0].tdd: step "Add add()" is test first (tdd), which needs a gate that runs its tests');
  });

  it('the agent writes a failing test, then the fix: the step succeeds with both in its commit', async () => {
    const { r, doc, git, asked } = await run(workflow(), [...attempt(['test/add.test.mjs', TEST], ['src/add.mjs', stub]), ...attempt(['src/add.mjs', fix])]);
    expect(doc.status).toBe('succeeded');
    expect(doc.steps[0]!.attempts.map((a) => [a.outcome, a.errorClass])).toEqual([
      ['red', null],
      ['passed', null],
    ]);
    const commit = doc.steps[0]!.commit!;
    expect(git('log', '--format=%s', doc.branch)).toContain('step 1: Add add()');
    expect(git('show', '--name-only', '--format=', commit).split('\n').sort()).toEqual(['src/add.mjs', 'test/add.test.mjs']);
    expect(git('show', `${commit}:src/add.mjs`)).toBe(fix.trim());
    expect(asked[0]).toContain('Test first: this attempt writes the test, not the change');
    expect(asked[2]).toContain('Test first: now implement the change');
    expect(asked[2]).toContain('adds 2 and 3');
    expect(r.err).toContain('attempt 1 (test first: it writes the test; the gates must fail on it)');
    expect(r.err).toMatch(/✓ test first: 1 test fails \(adds 2 and 3\) before the implementation, as it should; test files: test\/add\.test\.mjs/);
    expect(r.err).toContain('✓ step 1 committed');
  });

  it('a test that already passes is retried with the violation said, then goes on once the test fails', async () => {
    const { doc, asked, r } = await run(workflow('max_retries: 1'), [
      ...attempt(['test/add.test.mjs', TEST], ['src/add.mjs', fix]),
      ...attempt(['src/add.mjs', stub]),
      ...attempt(['src/add.mjs', fix]),
    ]);
    expect(doc.status).toBe('succeeded');
    expect(doc.steps[0]!.attempts.map((a) => [a.outcome, a.errorClass])).toEqual([
      ['error', 'tdd_violation'],
      ['red', null],
      ['passed', null],
    ]);
    expect(doc.steps[0]!.attempts[0]!.message).toContain('the gates passed with your new test in place (test/add.test.mjs)');
    expect(asked[2]).toContain('Error class: tdd_violation');
    expect(asked[2]).toContain("the test must fail until the step's change is made");
    expect(r.err).toContain('TDD violation: test first: the gates passed');
  });

  it('a test that passes again, past the limit, fails the step: the violations use max_retries', async () => {
    const { doc } = await run(workflow('max_retries: 1'), [
      ...attempt(['test/add.test.mjs', TEST], ['src/add.mjs', fix]),
      ...attempt(['test/add2.test.mjs', TEST]),
    ]);
    expect(doc.status).toBe('failed');
    expect(doc.steps[0]!.attempts.map((a) => a.errorClass)).toEqual(['tdd_violation', 'tdd_violation']);
    expect(doc.reason).toContain('gave up after 1 TDD violation retry');
    expect(doc.steps[0]!.commit).toBeNull();
  });

  it('an agent that skips the test is a violation before the gates run; skipping again past the limit fails the step', async () => {
    const { doc, asked, r } = await run(workflow('max_retries: 1'), [...attempt(['src/add.mjs', fix]), ...attempt(['src/add.mjs', `${fix}// again\n`])]);
    expect(doc.status).toBe('failed');
    expect(doc.steps[0]!.attempts.map((a) => a.errorClass)).toEqual(['tdd_violation', 'tdd_violation']);
    expect(doc.steps[0]!.attempts[0]!.message).toContain('your test attempt added no test (it changed src/add.mjs, none of them a test)');
    expect(asked[2]).toContain('added no test');
    expect(r.err).not.toContain('gate test:');
    expect(doc.reason).toContain('gave up after 1 TDD violation retry');
  });

  it('`ratchet retry` after the implementation gave up continues past the red test: the test is not asked for again', async () => {
    const yaml = workflow('max_retries: 0').replace('steps:\n', 'steps:\n  - title: one\n    gates: []\n');
    const wrong = 'export function add(a, b) { return a - b; }\n';
    const { doc, asked } = await run(yaml, [
      ...attempt(['one.txt', '1\n']),
      ...attempt(['test/add.test.mjs', TEST], ['src/add.mjs', stub]),
      ...attempt(['src/add.mjs', wrong]),
      ...attempt(['src/add.mjs', fix]),
    ]);
    expect(doc.status).toBe('failed');
    expect(doc.steps[1]!.attempts.map((a) => a.outcome)).toEqual(['red', 'failed']);
    const env = { RATCHET_HOME: lastHome, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server!.url };
    const again = await cli(['retry', doc.id, '--yes', '--json'], env);
    expect(again.code, again.err).toBe(0);
    const after = StatusDocument.parse(JSON.parse(again.out));
    expect(after.status).toBe('succeeded');
    expect(after.steps[1]!.attempts.map((a) => a.outcome)).toEqual(['red', 'failed', 'passed']);
    const retried = server!.requests.map((q) => q.lastUserText ?? '')[asked.length]!;
    expect(retried).toContain('Keep the test written first (test/add.test.mjs)');
    expect(retried).not.toContain('this attempt writes the test');
    expect(retried).toContain('adds 2 and 3');
  });

  it('`worktree: reset` after a failed implementation goes back to the red test (real git): the retry only writes the fix', async () => {
    const wrong = 'export function add(a, b) { return a - b; }\n';
    const { doc, git, r } = await run(workflow('retry:\n  - attempt: 3\n    worktree: reset\n  - exit: 5'), [
      ...attempt(['test/add.test.mjs', TEST], ['src/add.mjs', stub]),
      ...attempt(['src/add.mjs', wrong], ['notes.txt', 'scratch\n']),
      ...attempt(['src/add.mjs', fix]),
    ]);
    expect(doc.status, r.err).toBe('succeeded');
    expect(doc.steps[0]!.attempts.map((a) => a.outcome)).toEqual(['red', 'failed', 'passed']);
    expect(r.err).toContain("worktree reset to the step's start with its test-first test (attempt 1)");
    // The failed attempt's scratch file is gone; the test written first is committed with the fix.
    expect(git('show', '--name-only', '--format=', doc.steps[0]!.commit!).split('\n').sort()).toEqual(['src/add.mjs', 'test/add.test.mjs']);
  });

  it('a step without tdd runs as before: one attempt that passes is committed', async () => {
    const { doc, asked } = await run(workflow().replace('    tdd: true\n', ''), attempt(['test/add.test.mjs', TEST], ['src/add.mjs', fix]));
    expect(doc.status).toBe('succeeded');
    expect(doc.steps[0]!.attempts.map((a) => a.outcome)).toEqual(['passed']);
    expect(asked[0]).not.toContain('Test first');
  });
});
