// Runs a step's gates for one attempt: classifies failures, re-runs a crashed gate (after its restart command), and re-runs a failed test gate once to catch flaky tests.
// A retry runs the tests that failed before first, and the whole gate only once they pass (retry-focus.ts).
import type { ErrorClass } from '../../../shared/domain';
import { ranNoTests } from '../gates/count-tests';
import { parseFailures, type FailedTest } from '../gates/parse-failures';
import { workspaceFolders } from '../gates/workspace-folders';
import { runGate, type GateResult } from '../gates/run-gate';
import type { RunJail } from '../sandbox/os-sandbox';
import type { Store } from '../store/store';
import type { Workflow } from '../workflow/schema';
import { countTests } from '../gates/count-tests';
import { classifyGateFailure, retryAfterFromText } from '../failures/classify';
import { focusCommand, type FocusedCommand } from './retry-focus';
import { manifestReader, type BaselineFacts, type ClassifyContext } from '../failures/classify-context';
import type { Failure } from '../failures/failure';
import type { Policy } from '../policy/policy';

export type { Failure } from '../failures/failure';

export interface GatesOutcome {
  failure: Failure | null;
  /** A gate failed, then passed on a re-run of the unchanged tree. */
  flaky: boolean;
  notes: string[];
}

export interface GateRunInput {
  runId: string;
  attemptId: number;
  worktree: string;
  workflow: Workflow;
  policy: Policy;
  gateNames: readonly string[];
  timeoutMultiplier: number;
  defaultTimeoutS: number;
  env: NodeJS.ProcessEnv;
  jail?: RunJail;
  signal: AbortSignal;
  /** The attempt's diff (the step's start against its tree): an import it adds that nothing provides is the agent's to fix. */
  diff?: string | null;
  /** What the base commit already failed on (worktree-env's baseline check), when it ran. */
  baseline?: BaselineFacts | null;
  /** The failure the previous attempt ended with: its failing tests run first, alone, when the gate's runner allows. */
  previous?: Pick<Failure, 'errorClass' | 'failures' | 'gate'> | null;
}

/** The gate a stored failure names, without a run's label ("test (flaky check)" → "test"). */
const gateKey = (label: string): string => label.replace(/ \((?:flaky check|failed tests first|re-run after crash)[^)]*\)$/, '');

/** A focused run decides only when it ran tests and failed with failures parsed; otherwise the whole gate runs. */
function focusDecides(run: { r: GateResult; failures: FailedTest[]; noTests: boolean }): boolean {
  return !run.r.passed && !run.noTests && run.failures.length > 0 && countTests(run.r.output, run.r.reportXml) !== 0;
}

export async function runAttemptGates(store: Store, g: GateRunInput): Promise<GatesOutcome> {
  let failure: Failure | null = null;
  let flaky = false;
  const notes: string[] = [];
  const failedGates: string[] = [];
  const outputs: Record<string, string> = {};
  // What the classifier weighs beside the output: read lazily, so a passing gate costs nothing.
  const context: ClassifyContext = {
    diff: g.diff ?? null,
    manifest: manifestReader(g.worktree),
    baseline: g.baseline ?? null,
    network: g.jail?.sandboxed ? (g.workflow.sandbox?.network ?? []) : null,
    phase: 'gate',
  };

  const runOnce = async (name: string, label = name, command?: string): Promise<{ r: GateResult; failures: FailedTest[]; noTests: boolean }> => {
    const gate = g.workflow.gates[name];
    if (!gate) throw new Error(`gate ${name} is not defined`);
    const run = command ?? gate.run;
    store.event(g.runId, 'gate.started', { attemptId: g.attemptId, gate: label, command: run });
    let r = await runGate(
      { name, run, timeoutS: gate.timeout ?? g.defaultTimeoutS, report: gate.report },
      {
        cwd: g.worktree,
        env: g.env,
        jail: g.jail,
        signal: g.signal,
        timeoutMultiplier: g.timeoutMultiplier,
        // Streamed while the gate runs, so a long gate is not a blank panel until it ends.
        onOutput: (c) => store.event(g.runId, 'gate.output', { attemptId: g.attemptId, gate: label, ...c }),
      },
    );
    // Something at the report's path that is not the worktree's regular file (a FIFO, a link out): said, not read.
    if (r.reportNote) store.event(g.runId, 'log', { level: 'warn', message: `gate ${label}: ${r.reportNote}` });
    // A test gate that passed without running a test proved nothing: it fails, unless the gate allows it.
    const noTests = r.passed && !gate.allow_no_tests && ranNoTests(r.output, r.reportXml);
    if (noTests) r = { ...r, passed: false };
    const failures =
      r.passed || noTests ? [] : parseFailures({ output: r.output, reportXml: r.reportXml, workspaceFolders: () => workspaceFolders(g.worktree) });
    store.recordGate(g.runId, g.attemptId, { ...r, gate: label, failures });
    return { r, failures, noTests };
  };

  /** The gate's command narrowed to `tests`, when its runner is one Ratchet knows invoked plainly. */
  const focus = (name: string, tests: readonly FailedTest[]): FocusedCommand | null => {
    const gate = g.workflow.gates[name];
    return gate ? focusCommand(gate.run, tests, context.manifest?.('package.json')) : null;
  };
  const previous = g.previous?.errorClass === 'test_failure' && g.previous.gate ? g.previous : null;

  for (const name of g.gateNames) {
    if (g.signal.aborted) break;
    // A retry learns its result in the time of the tests that failed: they run alone first, and while they fail,
    // that is the gate's result; the whole gate runs once they pass (or when the narrowed run proves nothing).
    const first = previous && gateKey(previous.gate!.name) === name ? focus(name, previous.failures) : null;
    let focused = first ? await runOnce(name, `${name} (failed tests first)`, first.command) : null;
    if (focused && first) {
      const verdict = focusDecides(focused)
        ? 'still fail'
        : focused.r.passed
          ? 'pass now: running the whole gate'
          : 'ran inconclusively: running the whole gate';
      store.event(g.runId, 'log', {
        level: 'info',
        message: `gate ${name}: ran the ${first.tests.length} failing test${first.tests.length === 1 ? '' : 's'} first (${first.runner}); they ${verdict}`,
      });
      if (!focusDecides(focused)) focused = null;
    }
    let { r, failures, noTests } = focused ?? (await runOnce(name));
    outputs[name] = r.output;
    if (r.passed) continue;
    let c = noTests ? noTestsFailure(name) : classifyGateFailure(r, failures, g.policy.rules, context);

    if (noTests) {
      // Neither a crash nor a flaky test: running the gate again runs no tests again.
    } else if (c.errorClass === 'crash' && !g.signal.aborted) {
      // A crash may be the tool's, not the code's: restart it if the gate says how, and run the gate again before spending an agent attempt.
      const restart = g.workflow.gates[name]?.restart;
      if (restart) {
        const rs = await runGate({ name: `${name}:restart`, run: restart, timeoutS: 120 }, { cwd: g.worktree, env: g.env, jail: g.jail, signal: g.signal });
        store.event(g.runId, 'log', { level: 'info', message: `gate ${name} crashed; restart command exited ${rs.exitCode ?? rs.signal}` });
      }
      ({ r, failures, noTests } = await runOnce(name, `${name} (re-run after crash)`));
      outputs[name] = r.output;
      if (r.passed) {
        notes.push(`gate ${name} crashed, then passed when run again`);
        continue;
      }
      c = noTests ? noTestsFailure(name) : classifyGateFailure(r, failures, g.policy.rules, context);
    } else if (c.errorClass === 'test_failure' && g.policy.flakyCheck && !g.signal.aborted) {
      // The failed tests alone when the runner can select them: whether they pass again is the question.
      const only = focus(name, failures);
      let again = only ? await runOnce(name, `${name} (flaky check)`, only.command) : null;
      if (again && !again.r.passed && !focusDecides(again)) again = null;
      again ??= await runOnce(name, `${name} (flaky check)`);
      if (again.r.passed) {
        flaky = true;
        const alone = only && again.r.command === only.command ? ', re-run alone' : '';
        notes.push(
          `gate ${name} failed, then passed on the unchanged tree${alone}: flaky (${
            failures
              .map((t) => t.name)
              .slice(0, 5)
              .join(', ') || 'no test named'
          })`,
        );
        continue;
      }
    }
    failedGates.push(name);
    failure ??= {
      errorClass: c.errorClass,
      message: c.message,
      hints: c.hints,
      failures,
      gate: r,
      failedGates,
      outputs,
      agentFatal: false,
      retryAfterS: c.errorClass === 'rate_limit' ? retryAfterFromText(r.output) : null,
    };
  }
  return { failure, flaky, notes };
}

/** What a gate that passed without running a test fails with (a test failure: the agent may have broken test discovery). */
export const NO_TESTS_MESSAGE = 'the gate ran no tests';
function noTestsFailure(gate: string): { errorClass: ErrorClass; message: string; hints: string[] } {
  return {
    errorClass: 'test_failure',
    message: `gate ${gate}: ${NO_TESTS_MESSAGE} (its output counts 0 tests; set allow_no_tests: true on the gate if that is expected)`,
    hints: ["The test runner found no tests: check that the test files exist, match the runner's pattern and contain tests, and that no filter excludes them."],
  };
}
