// Failing tests: the parsed failures (or the runners' own markers) summed up by name, with those the base commit already failed.
import type { FailedTest } from '../gates/parse-failures';
import { parseOutputFailures } from '../gates/parse-failures';
import type { ClassifyContext } from './classify-context';
import { moreSuffix, result, type Classification } from './classify-result';

const MAX_NAMES_SHOWN = 5;

function leafName(name: string): string {
  const parts = name.split(/ > | › |::/);
  return parts[parts.length - 1]!.trim() || name;
}

/** "2 tests failed: a, b"; an empty name is never listed, and "and N more" only follows names. */
function namesSummary(count: number, names: string[]): string {
  const shown = names.filter((n) => n.trim() !== '').slice(0, MAX_NAMES_SHOWN);
  const rest = count - shown.length;
  const list = shown.length > 0 ? shown.join(', ') + (rest > 0 ? `, and ${rest} more` : '') : '';
  return `${count} test${count === 1 ? '' : 's'} failed${list ? `: ${list}` : ''}`;
}

const TEST_FAILURE_MARKERS = [
  /^[ \t]*not ok \d+/m,
  /^[ \t]*FAIL\b/m,
  /^[ \t]*--- FAIL:/m,
  /AssertionError/,
  /^[ \t]*Tests:\s+\d+ failed/m,
  /\b[1-9]\d* (?:failed|failing)\b/,
  /test result: FAILED/,
  /^# fail [1-9]/m,
  /ℹ fail [1-9]/,
  /^FAILED\b/m,
  /^[ \t]*\[Failed\]:/m, // GUT
  /^Failing Tests\s+[1-9]/im, // GUT's totals
];

/** " (a and b already failed on the base commit)" for the failing tests the baseline run saw fail too. */
function alreadyFailing(names: string[], baseline: ClassifyContext['baseline']): string[] {
  const before = (baseline?.failingTests ?? []).map((n) => leafName(n));
  return names.filter((n) => before.includes(n) || before.includes(leafName(n)));
}

export function testFailure(out: string, failures: FailedTest[], ctx: ClassifyContext): Classification | null {
  // Only compile errors parsed (a linter's or compiler's format the patterns above do not name): the code must build first.
  if (failures.length > 0 && failures.every((f) => f.kind === 'compile')) {
    const first = failures[0]!;
    return result('compilation_error', `${first.name}: ${first.message?.split('\n')[0] ?? ''}${moreSuffix(failures.length)}`);
  }
  if (failures.length > 0) {
    const hint = failures.some((f) => f.expected !== null || f.actual !== null)
      ? ['Compare the expected and actual values reported for each failing test before changing code.']
      : [];
    const names = failures.map((f) => leafName(f.name));
    const old = alreadyFailing(names, ctx.baseline);
    if (old.length === 0) return result('test_failure', namesSummary(failures.length, names), hint);
    const which = old.length <= 2 ? old.join(' and ') : `${old.length} of them`;
    return result('test_failure', `${namesSummary(failures.length, names)} (${which} already failed on the base commit)`, [
      `${old.join(', ')} already failed on the base commit, before this run's changes: the gate fails until they pass, so fix them only if the step asks for it, or change the gate.`,
      ...hint,
    ]);
  }
  if (!TEST_FAILURE_MARKERS.some((re) => re.test(out))) return null;
  // Names from the gates' own parsers (a report file, when there was one, named none).
  const names = [...new Set(parseOutputFailures(out).failures.map((f) => leafName(f.name)))];
  const counted = out.match(/Tests:?\s+(\d+) failed/) ?? out.match(/\b(\d+) failed\b/) ?? out.match(/\b(\d+) failing\b/);
  const count = Math.max(names.length, counted ? Number(counted[1]) : 0);
  if (count > 0) return result('test_failure', namesSummary(count, names));
  return result('test_failure', 'Tests failed');
}
