// A failing CI check, classified as a remote gate (pure): what only CI can tell — the runner was lost, the same check
// fails on the base branch's head, it passed on a re-run of the same commit — first, then the job's log read as a
// local gate's output is: the project's parsers for the failing tests, the existing classifier for the class.
import type { FailedTest } from '../../../shared/domain';
import { parseFailures } from '../gates/parse-failures';
import type { GateResult } from '../gates/run-gate';
import { classifyGateFailure, type Classification } from '../failures/classify';
import type { CheckConclusion } from './forge';

/** infrastructure: re-run the failed jobs, no agent; flaky: recorded, no agent; broken_on_base: needs you; real: an agent attempt. */
export type CiClass = 'infrastructure' | 'flaky' | 'broken_on_base' | 'real';

export interface CiFailureFacts {
  checkName: string;
  conclusion: CheckConclusion | null;
  /** The job's whole log as GitHub gives it (a timestamp before each line). */
  log: string;
  /** A test report the job uploaded (JUnit XML, or a Jest/Vitest/go JSON report), if any. */
  report?: string | null;
  /** The same check's latest conclusion on the base branch's head; undefined when it did not run there. */
  baseConclusion?: CheckConclusion | null;
  /** Whether a run of the same check on the same commit passed (a re-run, or an earlier attempt). */
  passedOnSameCommit: boolean;
}

export interface CiVerdict {
  ciClass: CiClass;
  /** The local classifier's reading of the log (its class, a one-line message, hints). */
  classification: Classification;
  failures: FailedTest[];
  /** The log's lines without GitHub's timestamps and its own `##[…]` markers: what reaches the agent. */
  text: string;
}

const STAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?/;

/** The log as the job printed it: each line's timestamp removed, GitHub's group markers dropped. */
export function jobLogText(log: string): string {
  return log
    .split('\n')
    .map((l) => l.replace(STAMP, ''))
    .filter((l) => !/^##\[(?:group|endgroup)\]/.test(l))
    .join('\n');
}

/** Signs the job never got to run the project's commands (or lost its runner), in GitHub Actions' words. */
const LOST_RUNNER = [
  /The runner has received a shutdown signal/i,
  /lost communication with the server/i,
  /The hosted runner encountered an error while running your job/i,
  /The operation was canceled\./i,
  /No space left on device/i,
  /Unable to resolve action/i,
  /Failed to download action/i,
  /exceeded the maximum execution time/i,
];

export function classifyCiFailure(f: CiFailureFacts): CiVerdict {
  const text = jobLogText(f.log);
  const failures = parseFailures({ output: text, reportXml: f.report ?? null });
  const exit = /Process completed with exit code (\d+)\./.exec(text);
  const exitCode = exit ? Number(exit[1]) : null;
  const gate: GateResult = {
    name: f.checkName,
    command: f.checkName,
    passed: false,
    exitCode,
    signal: null,
    timedOut: f.conclusion === 'timed_out',
    durationMs: 0,
    output: text,
    outputBytes: text.length,
    reportXml: f.report ?? null,
  } as GateResult;
  const classification = classifyGateFailure(gate, failures);
  const verdict = (ciClass: CiClass): CiVerdict => ({ ciClass, classification, failures, text });
  if (f.passedOnSameCommit) return verdict('flaky');
  const noTests = failures.length === 0;
  // Failing on the base's head too: nothing on this branch broke it, and re-running will not mend it.
  if (f.baseConclusion === 'failure' || f.baseConclusion === 'timed_out') return verdict('broken_on_base');
  if (f.conclusion === 'cancelled' || f.conclusion === 'startup_failure' || f.conclusion === 'stale') return verdict('infrastructure');
  if (noTests && (exitCode === 143 || LOST_RUNNER.some((re) => re.test(text)))) return verdict('infrastructure');
  return verdict('real');
}
