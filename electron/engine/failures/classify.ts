// Decides why a gate failed (an ErrorClass), with a one-line summary and hints for the person or the agent's retry:
// the order the families of rules are tried in (each family in a classify-*.ts of its own), and the workflow's own rules.
import { ERROR_CLASSES } from '../../../shared/domain';
import type { ErrorClass } from '../../../shared/domain';
import type { FailedTest } from '../gates/parse-failures';
import { goTestJsonText, stripAnsi } from '../gates/parse-failures';
import type { GateResult } from '../gates/run-gate';
import { CUT_MARKER } from '../gates/failure-parser';
import type { ClassifyContext } from './classify-context';
import { apiFailure } from './classify-api';
import { compilationError } from './classify-compile';
import { withHints } from './classify-hints';
import { missingDependency } from './classify-missing';
import { networkFailure } from './classify-network';
import { missingToolchain } from './classify-toolchain';
import { npmHeadline, npmProjectFailure } from './classify-npm';
import { crashOrResources, permissionError } from './classify-process';
import { result, type Classification, type SideMessage } from './classify-result';
import { testFailure } from './classify-tests';

export type { Classification } from './classify-result';
export type { BaselineFacts, ClassifyContext } from './classify-context';
export { retryAfterFromText } from './classify-api';
export { FALLBACK_HINT, MISMATCH_HINT, NULL_REFERENCE_HINT, SIGNAL_HINT, TEST_TIMEOUT_HINT, hintsFor, seedAnalysis } from './classify-hints';

function gitConflict(out: string): Classification | null {
  const conflicts = [...out.matchAll(/^CONFLICT \([^)]+\): .+$/gm)];
  if (conflicts.length > 0) {
    const more = conflicts.length - 1;
    return result('git_conflict', `${conflicts[0]![0].trim()}${more > 0 ? ` and ${more} more conflict${more > 1 ? 's' : ''}` : ''}`);
  }
  const stopped = out.match(/^error: could not apply .*$/m) ?? out.match(/^Automatic merge failed\b.*$/m);
  return stopped ? result('git_conflict', stopped[0].trim()) : null;
}

// Lines that say nothing about a failure: a log file's whereabouts (npm's "A complete log of this run can be found
// in: …"), a TAP plan ("1..10000") or passing test point ("ok 12 - …"), the note standing for left-out lines.
const NOT_A_REASON = /^(?:npm (?:ERR!|error)\s*$|.*\bA complete log of this run can be found in\b|\d+\.\.\d+(?:\s*#.*)?$|ok\b)/;

function lastMeaningfulLine(out: string): string | null {
  const lines = out
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^[-=_~⎯*#]+$/.test(l) && !NOT_A_REASON.test(l) && !CUT_MARKER.test(l));
  return lines.length > 0 ? lines[lines.length - 1]! : null;
}

function userRule(rules: ReadonlyArray<{ pattern: string; class: ErrorClass }>, out: string): Classification | null {
  for (const rule of rules) {
    if (!rule || typeof rule.pattern !== 'string' || !(ERROR_CLASSES as readonly string[]).includes(rule.class)) continue;
    let re: RegExp;
    try {
      re = new RegExp(rule.pattern, 'm');
    } catch {
      continue; // the workflow schema rejects bad patterns; one that slipped through must not stop classification
    }
    const m = re.exec(out);
    if (!m) continue;
    const start = out.lastIndexOf('\n', m.index - 1) + 1;
    const end = out.indexOf('\n', m.index);
    const line = out.slice(start, end < 0 ? undefined : end).trim() || (m[0].trim().split('\n')[0] ?? '');
    return result(rule.class, `matched your rule /${rule.pattern}/ → ${rule.class}${line ? `: ${line}` : ''}`);
  }
  return null;
}

// A failure that stands for a whole test file that did not run (node --test's "test failed", jest's "Test suite failed
// to run"): what stopped it is printed beside it, so it makes no other line a side message.
const FILE_LEVEL_NAME = /\.(?:[cm]?[jt]sx?|py|go|rs|gd)$/;
const FILE_LEVEL_MESSAGE = /^(?:test failed|Test suite failed to run)\b/i;

/** Lines outside every parsed failing test (not compiler errors) are side messages: they never outrank the tests. */
function sideOf(failing: readonly FailedTest[]): SideMessage {
  const tests = failing.filter((f) => !FILE_LEVEL_NAME.test(f.name.trim()) && !FILE_LEVEL_MESSAGE.test(f.message?.trim() ?? ''));
  if (tests.length === 0) return () => false;
  const texts = tests.map((f) => `${f.name}\n${f.message ?? ''}`);
  const leads = tests
    .map((f) =>
      (f.message ?? '')
        .split('\n')
        .map((l) => l.trim())
        .find((l) => l.length >= 8),
    )
    .filter((l): l is string => !!l);
  return (line) => {
    const core = line.trim().replace(/^(?:E\s+|npm (?:ERR!|error) )/, '');
    return core === '' || (!texts.some((t) => t.includes(core)) && !leads.some((l) => core.includes(l)));
  };
}

// A test runner's own time limit as seed 002 prints it ("Test exceeded 300s timeout"): a timeout, as the seed says.
const TEST_TIMEOUT_LINE = /^[ \t]*(?:Tests?|Gate|Job) exceeded (?:its )?\d+(?:\.\d+)?\s*s(?:ec(?:ond)?s?)? timeout\b.*$/im;

/**
 * Classifies a failed gate run. Pure but for the clock (a Retry-After given as a date): looks only at the result, the
 * parsed failures, the workflow's `rules`, which are tried first (the first whose pattern matches the output wins),
 * before the built-in patterns, and what `context` tells (see ClassifyContext: the attempt's diff, the manifests, the
 * base commit's failures, the network list), which decides whose a missing module or a refused host is.
 */
export function classifyGateFailure(
  r: GateResult,
  failures: FailedTest[],
  rules?: ReadonlyArray<{ pattern: string; class: ErrorClass }>,
  context: ClassifyContext = {},
): Classification {
  if (r.passed) return { errorClass: 'unknown', message: 'The gate passed', hints: [] };
  const raw = stripAnsi(r.output);
  const ruled = rules && rules.length > 0 ? userRule(rules, raw) : null;
  if (ruled) return withHints(ruled, raw, failures);
  // go test -json wraps every line in an event; the text patterns below read what it would have printed.
  const out = goTestJsonText(raw) ?? raw;
  if (r.timedOut) {
    return withHints(result('timeout', `Timed out after ${(r.durationMs / 1000).toFixed(1)} s: ${r.command}`), out, failures);
  }
  const tests = failures.filter((f) => f.kind !== 'compile');
  const side = sideOf(tests);
  const exceeded = out.match(TEST_TIMEOUT_LINE);
  if (exceeded && !side(exceeded[0])) return withHints(result('timeout', exceeded[0].trim()), out, failures);
  const classified =
    missingToolchain(out, side) ??
    networkFailure(r, out, context, side) ??
    missingDependency(r, out, context, failures, side) ??
    npmProjectFailure(out) ??
    permissionError(r, out, side) ??
    crashOrResources(r, out, side) ??
    gitConflict(out) ??
    compilationError(out) ??
    testFailure(out, failures, context) ??
    apiFailure(out);
  if (classified) return withHints(classified, out, failures);
  const npm = npmHeadline(out);
  if (npm) return withHints(result('unknown', npm), out, failures);
  const last = lastMeaningfulLine(out);
  const code = r.exitCode === null ? 'no exit code' : `exit code ${r.exitCode}`;
  return withHints(result('unknown', last ? `Failed with ${code}: ${last}` : `Failed with ${code} and no output`), out, failures);
}
