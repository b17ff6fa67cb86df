// The step machine's test fixtures: a machine for a one-step workflow, and a failed gate as the machine receives it.
import { parseWorkflow } from '../workflow/load-workflow';
import type { Failure } from '../step/attempt-gates';
import type { GateResult } from '../gates/run-gate';
import { resolvePolicy } from '../policy/policy';
import { createStepMachine } from '../step/step-machine';
import type { MachineConfig } from '../step/step-state';
import { stepTdd } from '../step/tdd';

/**
 * A machine for step 1 of a workflow with a `npm test` gate and one step (`title`, `prompt`, then `stepYaml`), the
 * workflow's other keys in `yaml` (no backoff unless it names one), randomness from `rng`, and the step's test-first
 * settings when `tdd`.
 */
export function stepMachine(
  opts: { yaml?: string; stepYaml?: string; title?: string; prompt?: string; rng?: () => number; tdd?: boolean; config?: Partial<MachineConfig> } = {},
) {
  const yaml = opts.yaml ?? '';
  const backoff = yaml.includes('backoff:') ? '' : 'backoff: { base_s: 0, max_s: 0, jitter: 0 }';
  const r = parseWorkflow(
    `gates: { test: "npm test" }\n${backoff}\n${yaml}\nsteps:\n  - title: ${opts.title ?? 'one'}\n    prompt: ${opts.prompt ?? 'do it'}\n${opts.stepYaml ?? ''}`,
  );
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  const w = r.workflow;
  const machine = createStepMachine({
    index: 1,
    totalSteps: 1,
    step: w.steps[0]!,
    gateCommands: ['npm test'],
    agent: w.agent,
    policy: resolvePolicy(w),
    worktree: '/tmp/wt',
    agentTimeoutS: w.timeout_seconds,
    rng: opts.rng ?? (() => 0),
    ...(opts.tdd ? { tdd: stepTdd(w, w.steps[0]!) } : {}),
    ...opts.config,
  });
  return { machine, w };
}

/** The `npm test` gate's result, failed (exit 1) with `output`; `over` changes any field. */
export function failedGate(output: string, over: Partial<GateResult> = {}): GateResult {
  return {
    name: 'test',
    command: 'npm test',
    passed: false,
    exitCode: 1,
    signal: null,
    timedOut: false,
    durationMs: 1000,
    output,
    outputBytes: Buffer.byteLength(output),
    reportXml: null,
    spawnError: null,
    ...over,
  };
}

/** The `npm test` gate failing with `output`, classified as `errorClass` with `message` and the parsed `failures`. */
export function gateFailure(opts: { output: string; errorClass?: Failure['errorClass']; message?: string; failures?: Failure['failures'] }): Failure {
  return {
    errorClass: opts.errorClass ?? 'test_failure',
    message: opts.message ?? '1 test failed',
    hints: [],
    failures: opts.failures ?? [],
    gate: failedGate(opts.output, { durationMs: 5 }),
    failedGates: ['test'],
    outputs: { test: opts.output },
    agentFatal: false,
    retryAfterS: null,
  };
}
