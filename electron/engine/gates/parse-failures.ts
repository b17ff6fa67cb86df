// Extracts failing tests and compile errors (name, message, expected/actual, file:line) from a gate's report file or
// output: one parser per format (see FAILURE_PARSERS), each picked by a cheap detector, the first that finds any wins.
import { MAX_FAILED_TESTS, type FailedTest } from './failure-text';
import { normaliseOutput, type FailureParser } from './failure-parser';
import { parseGut } from './parse-gut';
import { jestJsonParser, parseJsonReport } from './parse-json-reports';
import { parseJUnit } from './parse-junit';
import { parseNotOkLines, tapParser } from './parse-tap';
import { pytestParser } from './parse-pytest';
import { unittestParser } from './parse-unittest';
import { jestTextParser } from './parse-jest-text';
import { vitestTextParser } from './parse-vitest-text';
import { mochaSpecParser } from './parse-mocha-spec';
import { nodeSpecParser } from './parse-node-spec';
import { goTestJsonParser, goTestParser } from './parse-go-test';
import { cargoTestParser } from './parse-cargo-test';
import { junitConsoleParser } from './parse-junit-console';
import { tscParser } from './parse-tsc';
import { eslintParser } from './parse-eslint';
import { rustcParser } from './parse-rustc';
import { goBuildParser } from './parse-go-build';
import { ccParser } from './parse-cc';
import { ctestParser } from './parse-ctest';
import { unityParser } from './parse-unity';
import { pythonErrorParser } from './parse-python-errors';
import { markedLinesParser } from './parse-marked-lines';
import { alternatives, LineMarkers } from './marker-scan';
import { WORKSPACE_PREFIX, fromRepositoryRoot, splitWorkspaceOutput, type WorkspaceFolders } from '../../../shared/workspace-prefix';

export { MAX_FAILED_TESTS, extractExpectedActual, findLocation, stripAnsi, type FailedTest } from './failure-text';
export { normaliseOutput, type FailureParser } from './failure-parser';
export { parseGut } from './parse-gut';
export { goTestJsonText, parseGoTestJson, parseJestJson, parseJsonReport } from './parse-json-reports';
export { parseJUnit } from './parse-junit';
export { parseTap } from './parse-tap';

/**
 * Every output format, most structured first: machine formats (go test -json, Jest/Vitest JSON, TAP), then test
 * runners' text, then compilers and linters, then bare "not ok" lines. Order matters only where two detectors fire
 * on one output (a test run that also prints a compiler's lines): the test runner's view is the fuller one.
 */
export const FAILURE_PARSERS: readonly FailureParser[] = [
  goTestJsonParser,
  jestJsonParser,
  tapParser,
  pytestParser,
  unittestParser,
  jestTextParser,
  vitestTextParser,
  mochaSpecParser,
  nodeSpecParser,
  goTestParser,
  cargoTestParser,
  junitConsoleParser,
  ctestParser,
  unityParser,
  { id: 'gut', marker: /^[ \t]*\[Failed\]:/, detect: (t) => /^[ \t]*\[Failed\]:/m.test(t), parse: parseGut },
  tscParser,
  eslintParser,
  rustcParser,
  goBuildParser,
  ccParser,
  pythonErrorParser,
  markedLinesParser,
  { id: 'not-ok', marker: /^[ \t]*not ok\b/, detect: (t) => /^[ \t]*not ok\b/m.test(t), parse: parseNotOkLines },
];

/**
 * Every format's failure marker in one expression: one test per line of a streamed gate output (gate-log.ts). The
 * alternatives that start at a line start are grouped under one "^", so the engine checks that once per position.
 */
export const MARKER_PARTS = (() => {
  const all = FAILURE_PARSERS.flatMap((p) => (p.marker ? alternatives(p.marker.source) : []));
  const anchored = [...new Set(all.filter((a) => a.startsWith('^')).map((a) => a.slice(1)))];
  const loose = [...new Set(all.filter((a) => !a.startsWith('^')))];
  // A monorepo runner's prefix ("packages/prompts test: ") may stand before a line-start marker: the line is kept.
  return { anchored: `^(?:${WORKSPACE_PREFIX.source.replace(/^\^/, '')})?(?:${anchored.join('|')})`, anchoredParts: anchored, loose };
})();

export const FAILURE_MARKER = new RegExp([MARKER_PARTS.anchored, ...MARKER_PARTS.loose].join('|'));

/**
 * The markers compiled for the gate log's line scan (gate-log.ts): a line is tried only against the markers that can
 * start with its first character and whose needle it holds (marker-scan.ts). Same answers as FAILURE_MARKER.
 */
export const FAILURE_LINE_MARKERS = new LineMarkers({
  anchored: MARKER_PARTS.anchoredParts,
  loose: MARKER_PARTS.loose,
  prefix: WORKSPACE_PREFIX.source.replace(/^\^/, ''),
});

// A cache of needle positions for isFailureLine, not state: any scanner gives the same answers.
const lineScanner = FAILURE_LINE_MARKERS.scanner();

/**
 * Whether one line of a gate's output starts or heads a failure in any known format (gate-log.ts keeps such lines and
 * their context wherever they are in the output). Coloured or redrawn lines are resolved first.
 */
export function isFailureLine(line: string): boolean {
  // eslint-disable-next-line no-control-regex -- the bytes that make a line terminal output rather than text
  return lineScanner.test(/[\u001b\r\u0008\u009b]/.test(line) ? normaliseOutput(line) : line);
}

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

/** Whether a parser's detector fires; a detector that throws does not. */
function detects(p: FailureParser, text: string): boolean {
  try {
    return p.detect(text);
  } catch {
    return false;
  }
}

/** How long parsing one output may take before it gives up (linear parsers finish 100 MB well inside it). */
export const PARSE_BUDGET_MS = 10_000;

export interface ParseOptions {
  /** Parsing stops trying further formats once this much time has passed. Default PARSE_BUDGET_MS. */
  budgetMs?: number;
  now?: () => number;
  /** A monorepo's package names → folders from the repository root (for turbo, yarn, npm and nx, which print names). */
  workspaceFolders?: WorkspaceFolders;
}

export interface OutputFailures {
  format: string | null;
  failures: FailedTest[];
  /** Why parsing stopped before every format was tried (its budget ran out), or null when it finished. */
  incomplete: string | null;
}

/**
 * The failures in a gate's output alone, and the id of the format that found them (null when none did). Parsing has a
 * deadline: past `budgetMs` the formats not yet tried are skipped and `incomplete` says so, so an output no parser
 * expected never holds the run (each parser is also linear: linear-parsing.test.ts).
 */
export function parseOutputFailures(output: string, opts: ParseOptions = {}): OutputFailures {
  const now = opts.now ?? (() => performance.now());
  const budget = opts.budgetMs ?? PARSE_BUDGET_MS;
  const started = now();
  const text = normaliseOutput(typeof output === 'string' ? output : '');
  // A monorepo's output is read package by package (prefixes removed), each location rewritten from the repository root.
  const parts = splitWorkspaceOutput(text, opts.workspaceFolders);
  let format: string | null = null;
  const failures: FailedTest[] = [];
  for (const part of parts) {
    const found = parseText(part.text, started, budget, now);
    if (found.incomplete !== null) return found;
    if (found.format === null) continue;
    format ??= found.format;
    for (const f of found.failures) failures.push(part.dir ? { ...f, file: fromRepositoryRoot(part.dir, f.file) } : f);
  }
  return { format, failures: dedupe(failures).slice(0, MAX_FAILED_TESTS), incomplete: null };
}

function parseText(text: string, started: number, budget: number, now: () => number): OutputFailures {
  for (const [i, p] of FAILURE_PARSERS.entries()) {
    if (now() - started > budget) {
      const left = FAILURE_PARSERS.length - i;
      return {
        format: null,
        failures: [],
        incomplete: `parsing stopped after ${Math.round(budget / 1000)} s: ${left} output format${left === 1 ? '' : 's'} not tried`,
      };
    }
    if (!detects(p, text)) continue;
    const found = attempt(() => p.parse(text));
    if (found.length > 0) return { format: p.id, failures: dedupe(found).slice(0, MAX_FAILED_TESTS), incomplete: null };
  }
  return { format: null, failures: [], incomplete: null };
}

/**
 * Failing tests from a gate run: the report file when it names any (JUnit XML, or Jest/Vitest/go JSON, told apart by
 * content), else the output through FAILURE_PARSERS. At most MAX_FAILED_TESTS entries, and [] (never an exception)
 * for anything it cannot read.
 */
export function parseFailures(input: { output: string; reportXml?: string | null; workspaceFolders?: WorkspaceFolders }): FailedTest[] {
  const report = typeof input.reportXml === 'string' ? input.reportXml.replace(/^\uFEFF/, '') : '';
  if (report.trim() !== '') {
    const fromReport = attempt(() => (/^\s*[{[]/.test(report) ? parseJsonReport(report) : parseJUnit(report)));
    if (fromReport.length > 0) return dedupe(fromReport).slice(0, MAX_FAILED_TESTS);
  }
  return parseOutputFailures(input.output, { workspaceFolders: input.workspaceFolders }).failures;
}
