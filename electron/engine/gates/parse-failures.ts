// Extracts failing tests (name, message, expected/actual, location) from JUnit XML or Jest/Vitest JSON reports,
// go test -json streams, TAP output and GUT's text output.
import { XMLParser } from 'fast-xml-parser';
import { Parser as TapParser } from 'tap-parser';
import type { Result as TapResult } from 'tap-parser';

export interface FailedTest {
  name: string;
  message: string | null;
  expected: string | null;
  actual: string | null;
  file: string | null;
  line: number | null;
}

export const MAX_FAILED_TESTS = 200;
// Long enough for a multi-line assertion message, short enough that 200 of them stay readable in a prompt.
const MAX_MESSAGE_CHARS = 1000;
const MAX_VALUE_CHARS = 500;

// CSI sequences (colours, cursor moves) and OSC sequences (hyperlinks, titles) that tools print when they think
// they are on a terminal.
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function cleanValue(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const v = raw.trim().replace(/,$/, '').trim();
  return v === '' ? null : clip(v, MAX_VALUE_CHARS);
}

/** Expected and actual values from the assertion messages of common test frameworks. */
export function extractExpectedActual(text: string): { expected: string | null; actual: string | null } {
  const t = stripAnsi(text);
  let m: RegExpMatchArray | null;

  // Jest: "Expected: 2" / "Received: 8" (also "Expected value:", "Received string:", …)
  const jestExpected = t.match(/^\s*Expected(?: value| substring| pattern| length| path| constructor)?:\s+(.+)$/m);
  const jestReceived = t.match(/^\s*Received(?: value| string| length| array| object| constructor)?:\s+(.+)$/m);
  if (jestExpected || jestReceived) return { expected: cleanValue(jestExpected?.[1]), actual: cleanValue(jestReceived?.[1]) };

  // GUT (Godot): "[0] expected to equal [100]:  message", "[0.5] expected to be > than [999.0]" (got first)
  // Bounded, and starting only after a space or "(call #2)", so a line of brackets cannot make this quadratic.
  m = t.match(/(?<![^\s:)])\[(.{0,500}?)\] expected to (?:equal|not equal|be [<>]=? than|be)\s*\[(.{0,500}?)\](?=:\s|\s*$|\s+\+\/-)/m);
  if (m) return { expected: cleanValue(m[2]), actual: cleanValue(m[1]) };

  // Chai / Vitest: "expected 6 to be 5 // Object.is equality", "expected [ 1 ] to deeply equal [ 2 ]"
  m = t.match(
    /\bexpected (.+?) to (?:not )?(?:deeply equal|strictly equal|loosely equal|deep equal|be close to|equal|eql|be|include|contain|have length of|have length|match)\s+(.+?)(?:\s+\/\/.*)?$/m,
  );
  if (m) return { expected: cleanValue(m[2]), actual: cleanValue(m[1]) };

  // JUnit 4 / AssertJ: "expected:<5> but was:<6>"
  m = t.match(/expected:\s*<([\s\S]*?)>\s*but was:\s*<([\s\S]*?)>/);
  if (m) return { expected: cleanValue(m[1]), actual: cleanValue(m[2]) };

  // Node assert: "Expected values to be strictly equal:\n\n6 !== 5" (actual first)
  if (/Expected values to be (?:strictly |loosely )?equal/.test(t)) {
    m = t.match(/^\s*(.+?) (?:!==|!=) (.+?)\s*$/m);
    if (m) return { expected: cleanValue(m[2]), actual: cleanValue(m[1]) };
  }

  // pytest assertion rewriting: "assert 6 == 5" (actual on the left by convention)
  m = t.match(/^(?:E\s+)?(?:AssertionError: )?assert (.+?) == (.+)$/m);
  if (m) return { expected: cleanValue(m[2]), actual: cleanValue(m[1]) };

  // unittest / legacy assert: "AssertionError: 6 != 5", "AssertionError [ERR_ASSERTION]: 6 == 5"
  m = t.match(/AssertionError(?: \[ERR_ASSERTION\])?: (.+?) (?:!==|!=|===|==) (.+)$/m);
  if (m) return { expected: cleanValue(m[2]), actual: cleanValue(m[1]) };

  // Rust assert_eq!: "left: 6\n right: 5" (older: "left: `6`,")
  m = t.match(/^\s*left:\s*(.+)\n\s*right:\s*(.+)$/m);
  if (m) return { expected: cleanValue(m[2]?.replace(/^`|`,?$/g, '')), actual: cleanValue(m[1]?.replace(/^`|`,?$/g, '')) };

  // Go: "Add(2, 3) = 6; want 5", "got 6, want 5", "want 5, got 6"
  m = t.match(/=\s*(.+?);\s*want\s+(.+)$/m) ?? t.match(/\bgot:?\s+(.+?),?\s+want:?\s+(.+)$/m);
  if (m) return { expected: cleanValue(m[2]), actual: cleanValue(m[1]) };
  m = t.match(/\bwant:?\s+(.+?),?\s+got:?\s+(.+)$/m);
  if (m) return { expected: cleanValue(m[1]), actual: cleanValue(m[2]) };

  // Hand-written messages (GDScript, shell checks): "Expected 100, got 0", "expected 5 but got 6"
  m = t.match(/\bexpected:?\s+(.{1,500}?),?\s+(?:but\s+)?got:?\s+(.+?)\s*$/im);
  if (m) return { expected: cleanValue(m[1]), actual: cleanValue(m[2]) };

  // testify and similar: "expected: 5" / "actual  : 6" on their own lines
  const e = t.match(/^\s*(?:Error:\s+)?expected\s*:\s*(.+)$/im);
  const a = t.match(/^\s*actual\s*:\s*(.+)$/im);
  if (e && a) return { expected: cleanValue(e[1]), actual: cleanValue(a[1]) };

  // Vitest/Jest diff with a single changed line: "- Expected\n+ Received\n\n- 5\n+ 6"
  if (/^\s*- Expected\s*$/m.test(t) && /^\s*\+ Received\s*$/m.test(t)) {
    const minus = [...t.matchAll(/^\s*- (?!Expected\s*$)(.*)$/gm)];
    const plus = [...t.matchAll(/^\s*\+ (?!Received\s*$)(.*)$/gm)];
    if (minus.length === 1 && plus.length === 1) return { expected: cleanValue(minus[0]![1]), actual: cleanValue(plus[0]![1]) };
  }
  return { expected: null, actual: null };
}

// Paths that are never where a test failure should be fixed.
const LIBRARY_PATH = /node_modules|site-packages|dist-packages|^node:|^internal\/|<frozen|\/rustc\/|\/usr\/lib\/|\/go\/src\/(?:runtime|testing)\//;

/** Strips a file:// scheme; returns null for library code. */
function userFile(file: string): string | null {
  const f = file.replace(/^file:\/\//, '');
  return LIBRARY_PATH.test(f) ? null : f;
}

/** "path:line(:col)" as a location, or null. */
function parseLocationString(text: string): { file: string; line: number } | null {
  const m = text.trim().match(/^(.+?):(\d+)(?::\d+)?$/);
  if (!m) return null;
  const file = userFile(m[1]!);
  return file ? { file, line: Number(m[2]) } : null;
}

/**
 * The first user-code location mentioned in `text`: stack frames, "file.ts:3:5", pytest "tests/x.py:5:",
 * Python 'File "x.py", line 5'. Candidates in `preferFile` (by suffix or basename) win.
 */
export function findLocation(text: string, preferFile?: string | null): { file: string; line: number } | null {
  const t = stripAnsi(text);
  const patterns = [
    // Starts only at the first character of a path: retrying from inside a long token is quadratic.
    /(?<![\w.@~+\-/\\])(?:file:\/\/)?((?:[A-Za-z]:)?[\w.@~+\-/\\]*[\w@~+-]\.[A-Za-z][A-Za-z0-9]{0,5}):(\d+)(?::\d+)?/g,
    /File "([^"]+)", line (\d+)/g,
  ];
  const hits: { index: number; file: string; line: number }[] = [];
  for (const re of patterns) {
    for (const m of t.matchAll(re)) {
      const file = userFile(m[1]!);
      if (file) hits.push({ index: m.index ?? 0, file, line: Number(m[2]) });
    }
  }
  hits.sort((x, y) => x.index - y.index);
  const found = hits.map((h) => ({ file: h.file, line: h.line }));
  if (found.length === 0) return null;
  if (preferFile) {
    const base = preferFile.split(/[\\/]/).pop()!;
    const preferred = found.find((f) => f.file.endsWith(preferFile) || preferFile.endsWith(f.file) || f.file.split(/[\\/]/).pop() === base);
    if (preferred) return preferred;
  }
  return found[0]!;
}

/** First lines of a failure text, up to its stack trace: the part a person reads. */
function leadText(text: string): string | null {
  const lines: string[] = [];
  for (const line of stripAnsi(text).split('\n')) {
    if (/^\s+at\s/.test(line) || /^\s*❯\s/.test(line)) break;
    lines.push(line);
  }
  const s = lines.join('\n').trim();
  return s === '' ? null : clip(s, MAX_MESSAGE_CHARS);
}

type XmlNode = Record<string, unknown>;

function attrsOf(node: XmlNode): Record<string, string> {
  const a = node['@'];
  return a && typeof a === 'object' ? (a as Record<string, string>) : {};
}

function textOf(node: XmlNode): string {
  const t = node['#text'];
  return typeof t === 'string' ? t : '';
}

function childNodes(node: XmlNode, key: string): XmlNode[] {
  const v = node[key];
  return Array.isArray(v) ? (v.filter((x) => x && typeof x === 'object') as XmlNode[]) : [];
}

function parseIntOrNull(v: string | undefined): number | null {
  if (v === undefined) return null;
  const n = Number.parseInt(v, 10);
  return Number.isFinite(n) && n > 0 ? n : null;
}

function junitTestcase(tc: XmlNode): FailedTest | null {
  const problem = childNodes(tc, 'failure')[0] ?? childNodes(tc, 'error')[0];
  if (!problem) return null;
  const attrs = attrsOf(tc);
  const pAttrs = attrsOf(problem);
  const name = attrs.name?.trim() ?? '';
  const classname = (attrs.classname ?? attrs.class)?.trim();
  const fullName = classname && classname !== name ? (name ? `${classname} > ${name}` : classname) : name;
  const body = textOf(problem);
  const messageAttr = pAttrs.message?.trim();
  const message = messageAttr ? clip(stripAnsi(messageAttr), MAX_MESSAGE_CHARS) : leadText(body);

  let file = attrs.file ?? pAttrs.file ?? null;
  let line = parseIntOrNull(attrs.line ?? pAttrs.line);
  if (!file || line === null) {
    // pytest's classname "tests.test_calc" names the file tests/test_calc.py; vitest's is the file itself.
    const hint = file ?? (classname?.includes('/') ? classname : classname?.replace(/\./g, '/'));
    const loc = findLocation(body, hint);
    if (loc && (!file || loc.file.endsWith(file) || file.endsWith(loc.file))) {
      file ??= loc.file;
      line ??= loc.line;
    }
  }
  const { expected, actual } = extractExpectedActual(`${messageAttr ?? ''}\n${body}`);
  return { name: fullName || '(unnamed test)', message, expected, actual, file, line };
}

/** Every testcase with a failure or error, wherever it sits under testsuites/testsuite. */
export function parseJUnit(xml: string): FailedTest[] {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    attributesGroupName: '@',
    textNodeName: '#text',
    alwaysCreateTextNode: true,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    // Also decodes numeric references such as &#10;, which pytest uses for newlines in attributes.
    htmlEntities: true,
    isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
  });
  const root: unknown = parser.parse(xml);
  const out: FailedTest[] = [];
  const walk = (node: unknown, depth: number): void => {
    if (out.length >= MAX_FAILED_TESTS || depth > 64 || !node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const n of node) walk(n, depth + 1);
      return;
    }
    for (const [key, value] of Object.entries(node as XmlNode)) {
      if (key === '@' || key === '#text') continue;
      if (key === 'testcase' && Array.isArray(value)) {
        for (const tc of value) {
          if (out.length >= MAX_FAILED_TESTS) return;
          if (tc && typeof tc === 'object') {
            const f = junitTestcase(tc as XmlNode);
            if (f) out.push(f);
          }
        }
      } else {
        walk(value, depth + 1);
      }
    }
  };
  walk(root, 0);
  return out;
}

function diagValue(v: unknown): string | null {
  if (v === undefined) return null;
  if (v === null) return 'null';
  if (typeof v === 'string') return cleanValue(v);
  try {
    return cleanValue(JSON.stringify(v));
  } catch {
    return cleanValue(String(v));
  }
}

/** Location from a TAP diagnostic: `at` (node-tap), the first user stack frame, or `location` (node:test). */
function diagLocation(diag: Record<string, unknown>): { file: string | null; line: number | null } {
  const at = diag.at;
  if (at && typeof at === 'object') {
    const a = at as Record<string, unknown>;
    const file = a.file ?? a.fileName;
    const line = a.line ?? a.lineNumber;
    if (typeof file === 'string' && (typeof line === 'number' || typeof line === 'string')) {
      const f = userFile(file);
      if (f) return { file: f, line: Number(line) || null };
    }
  } else if (typeof at === 'string') {
    const loc = parseLocationString(at) ?? findLocation(at);
    if (loc) return loc;
  }
  const location = typeof diag.location === 'string' ? parseLocationString(diag.location) : null;
  if (typeof diag.stack === 'string') {
    // The failing assertion's frame beats the test's declaration line from `location`.
    const frame = findLocation(diag.stack, location?.file);
    if (frame && (!location || frame.file === location.file)) return frame;
  }
  if (location) return location;
  return { file: null, line: null };
}

function tapFailure(name: string, diag: unknown): FailedTest {
  const d = diag && typeof diag === 'object' ? (diag as Record<string, unknown>) : {};
  const rawMessage = [d.error, d.message].find((v): v is string => typeof v === 'string' && v.trim() !== '') ?? null;
  const message = rawMessage ? clip(stripAnsi(rawMessage).trim(), MAX_MESSAGE_CHARS) : null;
  // `in`, not `??`: an expected value of null is a real value.
  let expected = diagValue('expected' in d ? d.expected : d.wanted);
  let actual = diagValue('actual' in d ? d.actual : d.found);
  if (expected === null && actual === null && message) ({ expected, actual } = extractExpectedActual(message));
  const { file, line } = diagLocation(d);
  return { name: name || '(unnamed test)', message, expected, actual, file, line };
}

interface TapFail {
  fullname: string;
  failure: FailedTest;
  subtestsFailed: boolean;
}

/** Failing test points of TAP output, leaf tests only (a suite that failed because its subtests did is dropped). */
export function parseTap(output: string): FailedTest[] {
  const text = stripAnsi(output);
  if (!/^\s*(?:not )?ok\b/m.test(text)) return [];
  const fails: TapFail[] = [];
  const listen = (p: TapParser): void => {
    p.on('assert', (res: TapResult) => {
      if (res.ok || res.todo || res.skip) return;
      const diag: unknown = res.diag;
      const failureType = diag && typeof diag === 'object' ? (diag as Record<string, unknown>).failureType : undefined;
      fails.push({
        fullname: res.fullname || res.name,
        failure: tapFailure(res.fullname || res.name, diag),
        subtestsFailed: failureType === 'subtestsFailed',
      });
    });
    p.on('child', listen);
  };
  const parser = new TapParser({});
  listen(parser);
  // Events fire synchronously during end(), so the results are complete when it returns.
  parser.end(text);

  const leaves = fails.filter(
    (f) => !f.subtestsFailed && !fails.some((other) => other !== f && other.fullname.startsWith(`${f.fullname} > `)),
  );
  if (leaves.length > 0) return leaves.map((f) => f.failure);
  return parseNotOkLines(text);
}

/** Regex fallback for "not ok" lines buried in other output, where the parser sees no TAP structure. */
function parseNotOkLines(text: string): FailedTest[] {
  const out: FailedTest[] = [];
  for (const m of text.matchAll(/^\s*not ok\b(?:\s+\d+)?(?:\s*-)?[ \t]*(.*)$/gm)) {
    let name = m[1] ?? '';
    const directive = name.match(/(?:^|\s)#\s*(TODO|SKIP)\b/i);
    if (directive) continue;
    name = name.replace(/\s+#\s.*$/, '').replace(/\\#/g, '#').trim();
    out.push({ name: name || '(unnamed test)', message: null, expected: null, actual: null, file: null, line: null });
    if (out.length >= MAX_FAILED_TESTS) break;
  }
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function stringOrNull(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

function sameFile(a: string, b: string): boolean {
  return a === b || a.endsWith(`/${b}`) || b.endsWith(`/${a}`);
}

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
    const suiteFile = rawFile ? userFile(rawFile) ?? rawFile.replace(/^file:\/\//, '') : null;
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
function jestJsonInOutput(output: string): FailedTest[] {
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
  return lines.map((l) => l.slice(cut)).join('\n').trim();
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

interface GutEntry {
  name: string;
  file: string | null;
  texts: string[];
  line: number | null;
}

/**
 * Failing tests of GUT (Godot Unit Test) console output: "res://test/x.gd" script headers, "* test_name" (while
 * running) or "- test_name" (in the Run Summary) and "[Failed]:  text" / "at line N" under them. The Run Summary is
 * read when present: it lists every failure once, even when the run's own lines were cut from the middle.
 */
export function parseGut(output: string): FailedTest[] {
  const text = stripAnsi(output).replace(/\r\n?/g, '\n');
  if (!/^\s*\[Failed\]:/m.test(text)) return [];
  const summaryAt = text.search(/^= Run Summary\s*$/m);
  const fromSummary = summaryAt >= 0 ? readGut(text.slice(summaryAt)) : [];
  return (fromSummary.length > 0 ? fromSummary : readGut(text)).slice(0, MAX_FAILED_TESTS);
}

function readGut(text: string): FailedTest[] {
  const entries: GutEntry[] = [];
  let script: string | null = null;
  let inner: string | null = null;
  let test: string | null = null;
  let open: GutEntry | null = null; // the entry whose last [Failed] text may continue on the next lines
  let continued = 0;
  for (const line of text.split('\n')) {
    let m = line.match(/^\s*(?:Running Script )?res:\/\/(\S+?\.gd)(?:\.([A-Za-z_]\w*))?\s*$/);
    if (m) {
      [script, inner, test, open] = [m[1]!, m[2] ?? null, null, null];
      continue;
    }
    m = line.match(/^\s*[*-] ([A-Za-z_]\w*)\s*$/);
    if (m) {
      [test, open] = [m[1]!, null];
      continue;
    }
    m = line.match(/^\s*\[Failed\]:\s*(.*?)\s*$/);
    if (m) {
      const name = [script, inner, test].filter(Boolean).join(' > ') || '(unnamed test)';
      let entry = entries.find((e) => e.name === name);
      if (!entry) {
        entry = { name, file: script, texts: [], line: null };
        entries.push(entry);
      }
      entry.texts.push(m[1]!);
      [open, continued] = [entry, 0];
      continue;
    }
    m = line.match(/^\s*at line (\d+)\s*$/);
    if (m) {
      if (open && open.line === null) open.line = Number(m[1]);
      open = null;
      continue;
    }
    if (open && /^\s+\S/.test(line) && !/^\s*\[(?:Passed|Pending|Risky|ERROR|WARNING|INFO|DEBUG|Orphans)\]/.test(line) && continued < 20) {
      open.texts[open.texts.length - 1] += `\n${line.trim()}`;
      continued += 1;
    } else {
      open = null;
    }
  }
  return entries.map((e) => {
    const all = e.texts.join('\n');
    const { expected, actual } = extractExpectedActual(all);
    return { name: e.name, message: all.trim() === '' ? null : clip(all, MAX_MESSAGE_CHARS), expected, actual, file: e.file, line: e.line };
  });
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
