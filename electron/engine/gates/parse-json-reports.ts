// Failing tests from JSON: the vitest/jest JSON reporter (as a report file or printed) and `go test -json` event streams.
import {
  MAX_FAILED_TESTS,
  stripAnsi,
  extractExpectedActual,
  findLocation,
  MAX_MESSAGE_CHARS,
  clip,
  userFile,
  leadText,
  isRecord,
  stringOrNull,
  sameFile,
  diagValue,
  type FailedTest,
} from './failure-text';
import { counted, type FailureParser } from './failure-parser';

/** One failed entry of Jest's / Vitest's `assertionResults`. */
function jestAssertion(a: Record<string, unknown>, suiteFile: string | null): FailedTest {
  const titles = Array.isArray(a.ancestorTitles) ? a.ancestorTitles.filter((t): t is string => typeof t === 'string') : [];
  const title = stringOrNull(a.title);
  const name = (title !== null ? [...titles, title].join(' > ') : stringOrNull(a.fullName)) || '(unnamed test)';
  const messages = Array.isArray(a.failureMessages) ? a.failureMessages.filter((m): m is string => typeof m === 'string') : [];
  const all = stripAnsi(messages.join('\n\n'));
  const message = messages[0] ? leadText(messages[0]) : null;

  // Jest keeps the matcher's own values in failureDetails; they beat anything read back from the message text.
  let expected: string | null = null;
  let actual: string | null = null;
  const details = Array.isArray(a.failureDetails) ? a.failureDetails : [];
  const matcher = details.map((d) => (isRecord(d) && isRecord(d.matcherResult) ? d.matcherResult : null)).find((d) => d !== null);
  if (matcher && ('expected' in matcher || 'actual' in matcher)) {
    expected = diagValue(matcher.expected);
    actual = diagValue(matcher.actual);
  }
  if (expected === null && actual === null) ({ expected, actual } = extractExpectedActual(all));

  // The failing assertion's frame in the test file beats `location`, which is where the test is declared.
  const frame = findLocation(all, suiteFile);
  const loc = isRecord(a.location) && typeof a.location.line === 'number' && a.location.line > 0 ? a.location.line : null;
  let file: string | null = suiteFile;
  let line: number | null = loc;
  if (frame && (!suiteFile || sameFile(frame.file, suiteFile))) ({ file, line } = frame);
  return { name, message, expected, actual, file, line };
}

/** Failed tests of a Jest `--json` or Vitest `--reporter=json` result (`testResults[].assertionResults[]`). */
export function parseJestJson(data: unknown): FailedTest[] {
  if (!isRecord(data) || !Array.isArray(data.testResults)) return [];
  const out: FailedTest[] = [];
  for (const suite of data.testResults) {
    if (out.length >= MAX_FAILED_TESTS) break;
    if (!isRecord(suite)) continue;
    const rawFile = stringOrNull(suite.name) ?? stringOrNull(suite.testFilePath);
    const suiteFile = rawFile ? (userFile(rawFile) ?? rawFile.replace(/^file:\/\//, '')) : null;
    let failed = 0;
    for (const a of Array.isArray(suite.assertionResults) ? suite.assertionResults : []) {
      if (out.length >= MAX_FAILED_TESTS) break;
      if (!isRecord(a) || a.status !== 'failed') continue;
      failed += 1;
      out.push(jestAssertion(a, suiteFile));
    }
    // A file that failed to load (syntax error, missing import) has no assertion results, only the suite's message.
    if (failed === 0 && suite.status === 'failed') {
      const text = stringOrNull(suite.message) ?? stringOrNull(suite.failureMessage) ?? '';
      const message = leadText(text.replace(/^\s*●\s*Test suite failed to run\s*/, ''));
      const loc = findLocation(text, suiteFile);
      out.push({
        name: suiteFile ?? '(test file)',
        message,
        expected: null,
        actual: null,
        file: loc?.file ?? suiteFile,
        line: loc?.line ?? null,
      });
    }
  }
  return out.slice(0, MAX_FAILED_TESTS);
}

/** A JSON report file: Jest/Vitest JSON, or a `go test -json` stream redirected to a file. */
export function parseJsonReport(text: string): FailedTest[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return parseGoTestJson(text);
  }
  return parseJestJson(data);
}

/** Jest/Vitest JSON printed on stdout (no outputFile), possibly after npm's banner. */
export function jestJsonInOutput(output: string): FailedTest[] {
  if (!output.includes('"testResults"') || !output.includes('"assertionResults"')) return [];
  const start = output.search(/^\{/m);
  const end = output.lastIndexOf('}');
  if (start < 0 || end <= start) return [];
  try {
    return parseJestJson(JSON.parse(output.slice(start, end + 1)));
  } catch {
    return [];
  }
}

interface GoEvent {
  Action: string;
  Package: string;
  Test: string | null;
  Output: string | null;
}

/** One line of `go test -json` (test2json), or null for anything else: stderr, build output, other JSON. */
function goEvent(line: string): GoEvent | null {
  const t = line.trim();
  if (!t.startsWith('{"') || !t.endsWith('}')) return null;
  let v: unknown;
  try {
    v = JSON.parse(t);
  } catch {
    return null;
  }
  if (!isRecord(v) || typeof v.Action !== 'string') return null;
  const pkg = stringOrNull(v.Package) ?? stringOrNull(v.ImportPath);
  if (pkg === null) return null;
  return { Action: v.Action, Package: pkg, Test: stringOrNull(v.Test), Output: stringOrNull(v.Output) };
}

/**
 * The plain text a `go test -json` run would have printed (the events' Output, other lines kept as they are), or null
 * when the output has no test2json events. Lets text patterns (build errors, "--- FAIL") work on JSON runs.
 */
export function goTestJsonText(output: string): string | null {
  // Most outputs are not go test -json at all: say so without splitting and trimming every line.
  if (!output.includes('"Action"')) return null;
  let seen = false;
  const parts: string[] = [];
  for (const line of output.split('\n')) {
    const e = goEvent(line);
    if (e) {
      seen = true;
      if (e.Output !== null) parts.push(e.Output);
    } else {
      parts.push(`${line}\n`);
    }
  }
  return seen ? parts.join('') : null;
}

// test2json's framing lines; what is left of a test's output is what the test logged.
const GO_FRAMING = /^\s*(?:=== (?:RUN|PAUSE|CONT|NAME)\b|--- (?:FAIL|PASS|SKIP):)/;

function dedent(lines: string[]): string {
  const indents = lines.filter((l) => l.trim() !== '').map((l) => l.match(/^[ \t]*/)![0].length);
  const cut = indents.length > 0 ? Math.min(...indents) : 0;
  return lines
    .map((l) => l.slice(cut))
    .join('\n')
    .trim();
}

/** Failing tests of a `go test -json` stream, leaf subtests only, each with what it logged. */
export function parseGoTestJson(output: string): FailedTest[] {
  const logs = new Map<string, string[]>();
  const failed: GoEvent[] = [];
  for (const line of output.split('\n')) {
    const e = goEvent(line);
    if (!e || e.Test === null) continue;
    const key = `${e.Package}\u0000${e.Test}`;
    if (e.Action === 'output' && e.Output !== null) {
      const list = logs.get(key) ?? [];
      if (list.length < 400) list.push(...e.Output.replace(/\n$/, '').split('\n'));
      logs.set(key, list);
    } else if (e.Action === 'fail' && !failed.some((f) => f.Package === e.Package && f.Test === e.Test)) {
      failed.push(e);
    }
  }
  const leaves = failed.filter((f) => !failed.some((o) => o.Package === f.Package && o.Test!.startsWith(`${f.Test}/`)));
  return leaves.slice(0, MAX_FAILED_TESTS).map((f) => {
    const lines = (logs.get(`${f.Package}\u0000${f.Test}`) ?? []).filter((l) => !GO_FRAMING.test(l));
    // A panic's goroutine dump follows its first lines; the dump is noise for a person and for a prompt.
    const dump = lines.findIndex((l) => /^goroutine \d+ \[/.test(l.trim()));
    const text = dedent(dump >= 0 ? lines.slice(0, dump) : lines);
    const { expected, actual } = extractExpectedActual(text);
    const loc = findLocation(text);
    return {
      name: `${f.Package} > ${f.Test}`,
      message: text === '' ? null : clip(text, MAX_MESSAGE_CHARS),
      expected,
      actual,
      file: loc?.file ?? null,
      line: loc?.line ?? null,
    };
  });
}

/** Jest's (or Vitest's) --json report printed on stdout: its failed assertions, and its numTotalTests. */
export const jestJsonParser: FailureParser = {
  id: 'jest-json',
  marker: /"status":"failed"/,
  counts: [counted(/\{"numFailedTestSuites":[\s\S]*"numTotalTests":(\d+)/)],
  detect: (t) => t.includes('"testResults"') && t.includes('"assertionResults"'),
  parse: jestJsonInOutput,
};
