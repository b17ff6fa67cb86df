// Faster retries with real runners: a retry's gate runs the tests that failed first, and the whole
// gate only once they pass; the flaky re-check re-runs only the failed tests. vitest (the project's own), go test and
// python unittest, each on a project with a slow passing suite and one failing test.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { StatusDocument } from '../../../shared/domain';
import { startScriptedServer } from '../../scripted/server';
import { createEngine } from '../engine';
import type { GateResult } from '../gates/run-gate';
import type { Store } from '../store/store';
import { create, fixtureProject, queue, say, testFile, turn } from '../testing/fixture-project';
import { goProject, unittestProject, vitestProject, type FocusProject } from '../testing/focus-projects';
import { TEST_SANDBOX_MODE } from '../testing/sandbox-mode';
import { WorkflowFile } from '../workflow/schema';
import { runAttemptGates, type Failure } from './attempt-gates';
import { resolvePolicy } from '../policy/policy';

const SLOW = { tests: 6, ms: 150 };

interface Ran {
  gate: string;
  command: string;
  passed: boolean;
  durationMs: number;
  output: string;
}

async function gates(p: FocusProject, previous: Failure | null, flakyCheck = false) {
  const ran: Ran[] = [];
  const store = {
    event: () => undefined,
    recordGate: (_run: string, _attempt: number, g: GateResult & { gate: string }) =>
      ran.push({ gate: g.gate, command: g.command, passed: g.passed, durationMs: g.durationMs, output: g.output }),
  } as unknown as Store;
  const workflow = WorkflowFile.parse({ gates: { test: { run: p.run, timeout: 120 } }, flaky_check: flakyCheck, steps: [{ title: 'x' }] });
  const outcome = await runAttemptGates(store, {
    runId: 'r',
    attemptId: 1,
    worktree: p.dir,
    workflow,
    policy: resolvePolicy(workflow),
    gateNames: ['test'],
    timeoutMultiplier: 1,
    defaultTimeoutS: 120,
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    signal: new AbortController().signal,
    previous,
  });
  return { outcome, ran };
}

const hasGo = (() => {
  try {
    execFileSync('go', ['version']);
    return true;
  } catch {
    return false;
  }
})();

describe.each([
  ['vitest', () => vitestProject(SLOW), true],
  ['go test', () => goProject(SLOW), hasGo],
  ['python unittest', () => unittestProject(SLOW), true],
] as const)('%s', (_label, make, available) => {
  // Real runners on a machine shared with other work: vitest alone takes seconds to start.
  const slowMachine = { timeout: 240_000 };
  it.skipIf(!available)('a retry runs the failing test first and stops there while it fails; the whole gate runs once it passes', slowMachine, async () => {
    const p = make();
    const first = await gates(p, null);
    expect(first.ran.map((r) => r.gate)).toEqual(['test']);
    expect(first.ran[0]!.output).toMatch(/slow/i);
    const failure = first.outcome.failure!;
    expect(failure.errorClass).toBe('test_failure');
    expect(failure.failures.map((f) => f.name).join()).toMatch(/add/i);

    // The agent's retry did not fix it: only the failing test ran, and that is the attempt's result.
    const retry = await gates(p, failure);
    expect(retry.ran.map((r) => r.gate)).toEqual(['test (failed tests first)']);
    expect(retry.ran[0]!.command).not.toBe(p.run);
    expect(retry.ran[0]!.output).not.toMatch(/slow/i);
    expect(retry.outcome.failure?.errorClass).toBe('test_failure');
    expect(retry.outcome.failure?.failures.map((f) => f.name)).toEqual(failure.failures.map((f) => f.name));

    // Fixed: the failing test passes alone, then the whole gate runs and decides.
    p.fix();
    const fixed = await gates(p, failure);
    expect(fixed.ran.map((r) => [r.gate, r.passed])).toEqual([
      ['test (failed tests first)', true],
      ['test', true],
    ]);
    expect(fixed.outcome.failure).toBeNull();
    console.log(`${_label}: whole gate ${first.ran[0]!.durationMs} ms, failing test alone ${retry.ran[0]!.durationMs} ms`);
  });

  it.skipIf(!available)('the flaky re-check re-runs only the failed tests', slowMachine, async () => {
    const p = make();
    const first = await gates(p, null, true);
    expect(first.ran.map((r) => r.gate)).toEqual(['test', 'test (flaky check)']);
    expect(first.ran[0]!.output).toMatch(/slow/i);
    expect(first.ran[1]!.command).not.toBe(p.run);
    expect(first.ran[1]!.output).not.toMatch(/slow/i);
    expect(first.outcome.flaky).toBe(false);
    expect(first.outcome.failure?.errorClass).toBe('test_failure');
  });
});

describe('through the engine', () => {
  it(
    "the step runner hands the gates the previous attempt's failure: the retry's gate is the failing test alone until it passes",
    { timeout: 240_000 },
    async () => {
      const p = fixtureProject(
        `gates:\n  test: { run: "node --test", timeout: 120 }\nbackoff: { base_s: 0, max_s: 0, jitter: 0 }\nflaky_check: false\nsteps:\n  - title: Add add()\n`,
      );
      const server = await startScriptedServer({
        script: {
          rules: queue(
            turn(
              create('src/add.mjs', 'export const add = (a, b) => a - b;\n'),
              create('test/add.test.mjs', testFile('adds', 'add', 'add', [2, 3], 5)),
              create('test/other.test.mjs', testFile('adds more', 'add', 'add', [0, 0], 0)),
            ),
            say('done'),
            turn(create('src/add.mjs', 'export const add = (a, b) => a * b;\n')),
            say('done'),
            turn(create('src/add.mjs', 'export const add = (a, b) => a + b;\n')),
            say('done'),
          ),
        },
      });
      const engine = createEngine({
        home: p.home,
        env: { ...process.env, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url },
        sandbox: TEST_SANDBOX_MODE,
      });
      try {
        const runId = await engine.createRun(await engine.prepareRun({ repo: p.repo, workflowFile: p.workflowFile }));
        const doc = StatusDocument.parse(await engine.execute(runId, new AbortController().signal));
        expect(doc.status).toBe('succeeded');
        const gateRuns = engine.store.getAttempts(runId, 1).map((a) => engine.store.getGateResults(a.id).map((g) => g.gate));
        expect(gateRuns).toEqual([['test'], ['test (failed tests first)'], ['test (failed tests first)', 'test']]);
        const focused = engine.store.getGateResults(engine.store.getAttempts(runId, 1)[1]!.id)[0]!;
        expect(focused.command).toMatch(/^node --test --test-name-pattern='\^\(\?:adds\)\$' \S+add\.test\.mjs$/);
        expect(focused.output).not.toContain('adds more');
      } finally {
        engine.close();
        await engine.releaseSandbox();
        await server.close();
      }
    },
  );
});
