// Reads a step's stored attempt rows back for the step machine's restore: each row as the machine sees it, and the failure one ended with.
import type { FailedTest } from '../gates/parse-failures';
import type { Store } from '../store/store';
import type { AttemptRow } from '../store/store-rows';
import type { Workflow } from '../workflow/schema';
import type { Failure } from '../failures/failure';
import { classifyGateFailure, hintsFor } from '../failures/classify';
import type { Overrides } from '../policy/retry-entries';
import type { StoredAttempt } from './step-restore';

export function storedAttempt(a: AttemptRow): StoredAttempt {
  const decision = a.decision_json ? (JSON.parse(a.decision_json) as { overrides?: Overrides }) : null;
  return {
    n: a.n,
    round: a.round ?? 0,
    outcome: a.outcome,
    errorClass: a.error_class,
    message: a.error_message,
    failures: JSON.parse(a.failures_json) as FailedTest[],
    fingerprint: a.fingerprint,
    overrides: decision?.overrides ?? null,
  };
}

/**
 * The failure a stored attempt ended with, rebuilt from its gate results (for the next attempt's prompt). Hints are
 * not stored: they are worked out again from the stored gate output, as the attempt's own classification made them.
 */
export function storedFailure(store: Store, a: AttemptRow, rules: Workflow['rules']): Failure {
  const gates = store.getGateResults(a.id);
  const failing = gates.find((g) => !g.passed);
  const failures = JSON.parse(a.failures_json) as FailedTest[];
  const gate = failing
    ? {
        name: failing.gate,
        command: failing.command,
        passed: false,
        exitCode: failing.exitCode,
        signal: failing.signal,
        timedOut: failing.timedOut,
        durationMs: failing.durationMs,
        output: failing.output,
        outputBytes: failing.outputBytes,
        reportXml: null,
        spawnError: null,
      }
    : null;
  const again = gate ? classifyGateFailure(gate, failures, rules) : null;
  const errorClass = a.error_class!;
  return {
    errorClass,
    message: a.error_message ?? '',
    hints: again?.errorClass === errorClass ? again.hints : hintsFor(errorClass, gate?.output ?? a.error_message ?? '', failures),
    failures,
    gate,
    failedGates: gates.filter((g) => !g.passed).map((g) => g.gate),
    outputs: Object.fromEntries(gates.map((g) => [g.gate, g.output])),
    agentFatal: false,
    retryAfterS: null,
  };
}
