// Failing tests and collection errors from pytest's console output: every --tb style (auto/long/short/line/native/no),
// -q and -v, the -rA short summary, assertion rewriting ("E  assert 6 == 5"), parametrized ids and ERROR collecting.
import { extractExpectedActual, cleanValue, sameFile, userFile, MAX_FAILED_TESTS, clip, MAX_MESSAGE_CHARS, type FailedTest } from './failure-text';
import { CUT_MARKER, compileError, testFailure, counted, none, type FailureParser } from './failure-parser';

const SECTION = /^={3,} (FAILURES|ERRORS|short test summary info|warnings summary|PASSES|.*\b(?:passed|failed|errors?|skipped|deselected)\b.*) ={3,}$/;
const HEADER = /^_{3,} (.+?) _{3,}$/;
// A node id runs to " - message" or the end of the line: parametrized ids may hold spaces ("test_x[fr-Bonjour Ann !]").
const SUMMARY = /^(FAILED|ERROR) (\S+?\.py(?:::.*?)?)(?: - (.*))?$/;

interface SummaryLine {
  kind: 'FAILED' | 'ERROR';
  nodeid: string;
  text: string | null;
}

function summaryLines(lines: readonly string[]): SummaryLine[] {
  const out: SummaryLine[] = [];
  for (const l of lines) {
    const m = l.match(SUMMARY);
    if (m && (m[2]!.includes('::') || /\.py$/.test(m[2]!))) out.push({ kind: m[1] as 'FAILED' | 'ERROR', nodeid: m[2]!, text: m[3] ?? null });
  }
  return out;
}

/** "test_add_many[1-1-2]" → "test_add_many"; "TestX.test_y" → "test_y". */
function functionName(header: string): string {
  return header
    .replace(/^([^[]*)\[.*\]$/, '$1')
    .split('.')
    .pop()!
    .trim();
}

/** The line of the test that failed: the frame in the test's own function or file, else the last frame shown. */
function sectionLocation(body: readonly string[], header: string, testFile: string | null): { file: string; line: number } | null {
  const fn = functionName(header);
  const frames: { file: string; line: number; fn: string | null }[] = [];
  for (const l of body) {
    let m = l.match(/^(\S[^:]*\.py):(\d+): (?:in (\S+)|\w[\w.]*)?\s*$/);
    if (m) {
      const file = userFile(m[1]!);
      if (file) frames.push({ file, line: Number(m[2]), fn: m[3] ?? null });
      continue;
    }
    m = l.match(/^\s*File "([^"]+)", line (\d+), in (\S+)/);
    if (m) {
      const file = userFile(m[1]!);
      if (file) frames.push({ file, line: Number(m[2]), fn: m[3]! });
    }
  }
  const inTest =
    frames.find((f) => f.fn === fn) ??
    (testFile ? [...frames].reverse().find((f) => sameFile(f.file, testFile)) : undefined) ??
    [...frames].reverse().find((f) => /(?:^|\/)test_[^/]*\.py$|_test\.py$/.test(f.file));
  const pick = inTest ?? frames[frames.length - 1];
  return pick ? { file: pick.file, line: pick.line } : null;
}

/** The "E   …" lines of a section (or, for --tb=native, the exception line and what follows it). */
function errorText(body: readonly string[]): string {
  const e = body.filter((l) => /^E(?:\s|$)/.test(l)).map((l) => l.replace(/^E\s*/, ''));
  if (e.length > 0) return e.join('\n');
  const at = body.findIndex((l) => /^[A-Za-z_][\w.]*(?:Error|Exception|Failed|Exit|Interrupt)\b(?::|$)/.test(l));
  return at >= 0 ? body.slice(at, at + 8).join('\n') : '';
}

function messageOf(text: string): string | null {
  const t = text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(0, 12)
    .join('\n')
    .trim();
  return t === '' ? null : clip(t, MAX_MESSAGE_CHARS);
}

function findSummary(summary: readonly SummaryLine[], header: string): SummaryLine | undefined {
  const h = header.replace(/^ERROR (?:at \w+ of |collecting )/, '');
  // "TestX.test_y[a.b]" is the node id "…::TestX::test_y[a.b]": dots before the parameters separate classes.
  const base = h.replace(/\[.*$/, '');
  const asId = `${base.replace(/\./g, '::')}${h.slice(base.length)}`;
  return summary.find((s) => s.nodeid.endsWith(`::${h}`) || s.nodeid.endsWith(`::${asId}`) || s.nodeid === h);
}

/** A collection error ("ERROR collecting tests/x.py"): an import or syntax error the agent must fix, as a compile item. */
function collectionError(path: string, body: readonly string[]): FailedTest {
  const text = errorText(body);
  const exc = text.match(/^[ \t]*(\w+(?:Error|Exception)): (.*)$/m);
  // A SyntaxError points into the file with the mistake ('  File "x.py", line 1'); an import error into the importing line.
  const syn = text.match(/File "([^"]+)", line (\d+)/);
  const frames = body.map((l) => l.match(/^(\S[^:]*\.py):(\d+): in /)).filter((m): m is RegExpMatchArray => m !== null && userFile(m[1]!) !== null);
  const last = frames[frames.length - 1];
  const loc = syn ? { file: syn[1]!, line: Number(syn[2]) } : last ? { file: last[1]!, line: Number(last[2]) } : { file: path, line: null };
  return compileError({ file: loc.file, line: loc.line, code: exc?.[1] ?? null, message: exc ? exc[2]! : (messageOf(text) ?? `error collecting ${path}`) });
}

function parse(text: string): FailedTest[] {
  const lines = text.split('\n');
  const summary = summaryLines(lines);
  const out: FailedTest[] = [];
  const named = new Set<string>();

  // FAILURES / ERRORS sections: one "____ name ____" header per test.
  let section: string | null = null;
  for (let i = 0; i < lines.length && out.length < MAX_FAILED_TESTS; i++) {
    const s = lines[i]!.match(SECTION);
    if (s) {
      section = s[1] === 'FAILURES' || s[1] === 'ERRORS' ? s[1] : null;
      continue;
    }
    if (CUT_MARKER.test(lines[i]!)) {
      // After a cut, "____ name ____" headers are still a failure section's (the summary comes last).
      section ??= 'FAILURES';
      continue;
    }
    if (!section) continue;
    const h = lines[i]!.match(HEADER);
    if (!h) continue;
    const header = h[1]!;
    const body: string[] = [];
    for (let j = i + 1; j < lines.length && !HEADER.test(lines[j]!) && !SECTION.test(lines[j]!) && !CUT_MARKER.test(lines[j]!); j++) body.push(lines[j]!);
    const collecting = header.match(/^ERROR collecting (\S+)$/);
    if (collecting) {
      out.push(collectionError(collecting[1]!, body));
      named.add(collecting[1]!);
      continue;
    }
    const sum = findSummary(summary, header);
    const testFile = sum ? sum.nodeid.split('::')[0]! : null;
    const name = sum?.nodeid ?? header.replace(/^ERROR at (\w+) of /, '');
    const err = errorText(body);
    const { expected, actual } = extractExpectedActual(err);
    const loc = sectionLocation(body, header.replace(/^ERROR at \w+ of /, ''), testFile);
    out.push(testFailure(name, { message: messageOf(err), expected, actual, file: loc?.file ?? testFile, line: loc?.line ?? null }));
    named.add(name);
  }

  // --tb=line prints one "path:line: message" per failure, in the summary's order.
  // Each is preceded by its "E   …" lines, whose continuations hold what the one line leaves out ("assert 1 == 2" under
  // an assertion's own message).
  const tbLine: RegExpMatchArray[] = [];
  const tbLineText: string[] = [];
  let eLines: string[] = [];
  for (const l of lines) {
    const m = l.match(/^(\/?[^\s:]+\.py):(\d+): (.+)$/);
    if (m) {
      tbLine.push(m);
      tbLineText.push(eLines.join('\n'));
      eLines = [];
    } else if (/^E(?:\s|$)/.test(l)) eLines = [l.replace(/^E\s*/, '')];
    else if (eLines.length > 0 && /^\s/.test(l)) eLines.push(l.trim());
    else eLines = [];
  }
  const failedSummary = summary.filter((s) => s.kind === 'FAILED');
  const useTbLine = out.length === 0 && tbLine.length === failedSummary.length && tbLine.length > 0;

  // Tests named only in the short summary (-rA, --tb=no, --tb=line, or sections cut from a long log).
  summary.forEach((s) => {
    if (named.has(s.nodeid) || out.length >= MAX_FAILED_TESTS) return;
    const file = s.nodeid.split('::')[0]!;
    if (s.kind === 'ERROR' && !s.nodeid.includes('::')) {
      out.push(compileError({ file, line: null, code: null, message: s.text ?? `error collecting ${file}` }));
      return;
    }
    const at = useTbLine ? failedSummary.indexOf(s) : -1;
    const tl = at >= 0 ? tbLine[at] : undefined;
    const msg = tl ? tl[3]! : s.text;
    // The summary clips long messages with "..."; a clipped value is not the value.
    const whole = msg !== null && !/\.\.\.$/.test(msg);
    const full = at >= 0 && tbLineText[at] ? tbLineText[at]! : msg;
    const { expected, actual } = whole && full !== null ? extractExpectedActual(full) : { expected: null, actual: null };
    out.push(
      testFailure(s.nodeid, {
        message: msg ? clip(msg, MAX_MESSAGE_CHARS) : null,
        expected: cleanValue(expected),
        actual: cleanValue(actual),
        file: tl ? (userFile(tl[1]!) ?? file) : file,
        line: tl ? Number(tl[2]) : null,
      }),
    );
  });
  return out;
}

export const pytestParser: FailureParser = {
  // "collected 3 items", "no tests ran in 0.99s"
  counts: [counted(/^collected (\d+) items?\b/gm), none(/^=*[ \t]*no tests ran\b/gm)],
  id: 'pytest',
  marker: /^={3,} (?:FAILURES|ERRORS|short test summary info) ={3,}$|^(?:FAILED|ERROR) \S|^_{3,} \S.* _{3,}$|^E[ \t]/,
  detect: (t) => /^={3,} (?:FAILURES|ERRORS|short test summary info) ={3,}$/m.test(t) || /^(?:FAILED|ERROR) \S+\.py(?:::\S+)?(?: - |$)/m.test(t),
  parse,
};
