// Extracts failing tests (name, message, expected/actual, location) from JUnit XML or Jest/Vitest JSON reports,
// go test -json streams, TAP output and GUT's text output: picks the most structured source that names any.
import { MAX_FAILED_TESTS, stripAnsi, type FailedTest } from './failure-text';
import { parseGut } from './parse-gut';
import { jestJsonInOutput, parseGoTestJson, parseJsonReport } from './parse-json-reports';
import { parseJUnit } from './parse-junit';
import { parseNotOkLines, parseTap } from './parse-tap';

export { MAX_FAILED_TESTS, extractExpectedActual, findLocation, stripAnsi, type FailedTest } from './failure-text';
export { parseGut } from './parse-gut';
export { goTestJsonText, parseGoTestJson, parseJestJson, parseJsonReport } from './parse-json-reports';
export { parseJUnit } from './parse-junit';
export { parseTap } from './parse-tap';

function dedupe(list: FailedTest[]): FailedTest[] {
  const seen = new Set<string>();
  const out: FailedTest[] = [];
  for (const f of list) {
    const key = JSON.stringify([f.name, f.message, f.file, f.line]);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(f);
  }
  return out;
}

/** Runs one parser; a parser that throws counts as finding nothing, so garbage never escapes. */
function attempt(parse: () => FailedTest[]): FailedTest[] {
  try {
    return parse();
  } catch {
    return [];
  }
}

/**
 * Failing tests from a gate run, from the most structured source that names any: the report file (JUnit XML, or
 * Jest/Vitest/go JSON, told apart by content), then structured output (go test -json, Jest/Vitest JSON, TAP), then
 * GUT's text. Returns at most MAX_FAILED_TESTS entries and [] (never an exception) for anything it cannot read.
 */
export function parseFailures(input: { output: string; reportXml?: string | null }): FailedTest[] {
  const report = typeof input.reportXml === 'string' ? input.reportXml.replace(/^\uFEFF/, '') : '';
  const output = typeof input.output === 'string' ? input.output : '';
  const sources: Array<() => FailedTest[]> = [
    () => (report.trim() === '' ? [] : /^\s*[{[]/.test(report) ? parseJsonReport(report) : parseJUnit(report)),
    () => parseGoTestJson(output),
    () => jestJsonInOutput(output),
    () => parseTap(output),
    () => parseNotOkLines(stripAnsi(output)),
    () => parseGut(output),
  ];
  for (const source of sources) {
    const found = attempt(source);
    if (found.length > 0) return dedupe(found).slice(0, MAX_FAILED_TESTS);
  }
  return [];
}
