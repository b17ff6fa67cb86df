// An attempt's failure as the retry policy reads it: its class, the failing tests, the gate that decided it.
import type { ErrorClass } from '../../../shared/domain';
import type { FailedTest } from '../gates/parse-failures';
import type { GateResult } from '../gates/run-gate';

export interface Failure {
  errorClass: ErrorClass;
  message: string;
  hints: string[];
  failures: FailedTest[];
  /** The gate whose failure decides the attempt (the first to fail); null for agent errors. */
  gate: GateResult | null;
  /** Every gate that failed, for `not: gate.X` entries and `{gate.X}` templates. */
  failedGates: string[];
  outputs: Record<string, string>;
  agentFatal: boolean;
  retryAfterS: number | null;
}
