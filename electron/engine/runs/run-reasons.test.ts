// The reasons a paused or failed run shows: sentences that state the error once, with its class as a readable label.
import { describe, expect, it } from 'vitest';
import { parseWorkflow } from '../workflow/load-workflow';
import type { Failure } from './attempt-gates';
import { resolvePolicy } from './policy';
import { createStepMachine, initialState } from './step-machine';
import type { StepEvent, StepState } from './step-state';
import { autoProgressReason, runEndReason } from './run-reasons';

const NOW = new Date('2026-01-01T00:00:00.000Z');
const MESSAGE = 'the agent process exited with EACCES writing /etc/hosts';

function ended(errorClass: Failure['errorClass']): StepState {
  const r = parseWorkflow('gates: { test: "npm test" }\nbackoff: { base_s: 0, max_s: 0, jitter: 0 }\nsteps:\n  - title: Write the hosts file\n    prompt: do it\n');
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  const w = r.workflow;
  const machine = createStepMachine({ index: 1, totalSteps: 1, step: w.steps[0]!, gateCommands: ['npm test'], agent: w.agent, policy: resolvePolicy(w), worktree: '/tmp/wt', agentTimeoutS: w.timeout_seconds, rng: () => 0 });
  const failure: Failure = {
    errorClass, message: MESSAGE, hints: [], failures: [],
    gate: { name: 'test', command: 'npm test', passed: false, exitCode: 1, signal: null, timedOut: false, durationMs: 5, output: MESSAGE, outputBytes: MESSAGE.length, reportXml: null, spawnError: null },
    failedGates: ['test'], outputs: { test: MESSAGE }, agentFatal: false, retryAfterS: null,
  };
  const ok: StepEvent = { type: 'budgetChecked', facts: { taskUsd: null, dailyUsd: null, alertAt: 0.8, taskSpent: 0, daySpent: 0, alerted: { task: false, daily: false } }, dayNext: '2026-01-02T00:00:00.000Z' };
  let s = initialState(1, 'base');
  const events: StepEvent[] = [{ type: 'start' }];
  for (let i = 1; i <= 6; i++) events.push(ok, { type: 'agentFinished', timedOut: false, attemptId: 100 + i, sessionId: `s${i}`, tree: `t${i}`, treeRef: `refs/x/${i}`, diff: `d${i}` }, { type: 'gatesFinished', failure, flaky: false, notes: [] });
  for (const e of events) {
    if (s.outcome) break;
    s = machine.next(s, e, NOW).state;
  }
  return s;
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe('run reasons', () => {
  it.each([['unknown', 'escalate', /^Step 1 "Write the hosts file" needs you: Unknown error gets no retries/], ['crash', 'fatal', /^Step 1 "Write the hosts file" failed: gave up after 2 crash retries\./]] as const)(
    'a run a step ended (%s) states its error once, with the class as a readable label (issue 13 item 8)',
    (errorClass, kind, start) => {
      const outcome = ended(errorClass).outcome;
      if (outcome?.kind !== kind) throw new Error(`expected ${kind}, got ${JSON.stringify(outcome)}`);
      const reason = runEndReason(outcome);
      expect(count(reason, MESSAGE)).toBe(1);
      expect(reason).not.toMatch(/\b(unknown|crash):|\w+_\w+ retr/);
      expect(reason).toMatch(start);
      if (kind === 'fatal') expect(reason).toContain('2. Retry 1: the same crash again');
    },
  );

  it('auto-progress pauses read as sentences, without the option name', () => {
    expect(autoProgressReason({ kind: 'step', doneStep: 1, nextStep: 2 })).toBe('Paused after step 1, as you asked to go one step at a time. Resume to continue with step 2.');
    expect(autoProgressReason({ kind: 'phase', phase: 'build', nextPhase: null })).toBe('Phase "build" is complete, as you asked to go one phase at a time. Resume to continue with the next phase.');
  });
});
