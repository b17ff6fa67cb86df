// Failing tests from TAP output (tap-parser, nested subtests and YAML diagnostics), and a `not ok` fallback for mixed output.
import { Parser as TapParser } from 'tap-parser';
import type { Result as TapResult } from 'tap-parser';
import {
  MAX_FAILED_TESTS,
  stripAnsi,
  extractExpectedActual,
  findLocation,
  MAX_MESSAGE_CHARS,
  clip,
  userFile,
  parseLocationString,
  diagValue,
  splitNamedValues,
  type FailedTest,
} from './failure-text';
import { counted, type FailureParser } from './failure-parser';

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

/**
 * How the output printed each diagnostic value: `key\0'value'` for a quoted string, `key\0~` for an explicit null.
 * Read once per output (a search per failure over the whole text would be quadratic in the number of failures).
 */
type Printed = ReadonlySet<string>;

const PRINTED_LINE = /^[ \t]*(expected|actual|wanted|found):[ \t]*(?:(['"])(.*)\2|(~|null))[ \t]*$/gm;

function printedValues(text: string): Printed {
  const seen = new Set<string>();
  for (const m of text.matchAll(PRINTED_LINE)) seen.add(m[4] ? `${m[1]}\0~` : `${m[1]}\0${m[2]}${m[3]}`);
  return seen;
}

/** A string value as the YAML block printed it: node:test writes strings quoted ('$5.00'), which says they are strings. */
function asPrinted(key: string, value: string | null, raw: unknown, printed: Printed): string | null {
  if (value === null || typeof raw !== 'string') return value;
  const quote = ["'", '"'].find((q) => printed.has(`${key}\0${q}${raw}`));
  return quote ? `${quote}${value}${quote}` : value;
}

/**
 * A diagnostic value as printed, or null when the YAML did not show it: node:test writes null as "~" but leaves
 * "expected:" empty for an object it cannot list (a RegExp), which YAML also reads as null.
 */
function shown(key: string, raw: unknown, printed: Printed): string | null {
  if (raw === null && !printed.has(`${key}\0~`)) return null;
  return diagValue(raw);
}

function tapFailure(name: string, diag: unknown, printed: Printed = new Set()): FailedTest {
  const d = diag && typeof diag === 'object' ? (diag as Record<string, unknown>) : {};
  const rawMessage = [d.error, d.message].find((v): v is string => typeof v === 'string' && v.trim() !== '') ?? null;
  const message = rawMessage ? clip(stripAnsi(rawMessage).trim(), MAX_MESSAGE_CHARS) : null;
  // `in`, not `??`: an expected value of null is a real value.
  const [eKey, aKey] = ['expected' in d ? 'expected' : 'wanted', 'actual' in d ? 'actual' : 'found'];
  let expected = asPrinted(eKey, shown(eKey, d[eKey], printed), d[eKey], printed);
  let actual = asPrinted(aKey, shown(aKey, d[aKey], printed), d[aKey], printed);
  if ((expected === null || actual === null) && message) {
    // A side the YAML could not show (node:test leaves "expected:" empty for a RegExp) may be in the message.
    const fromMessage = extractExpectedActual(message);
    expected ??= fromMessage.expected;
    actual ??= fromMessage.actual;
  }
  const { file, line } = diagLocation(d);
  // A hand-written TAP producer puts the values in the test point's description: the test is the name before them.
  const named = message === null && expected === null && actual === null ? splitNamedValues(name) : null;
  if (named) return { ...named, file, line };
  return { name: name || '(unnamed test)', message, expected, actual, file, line };
}

interface TapFail {
  fullname: string;
  name: string;
  diag: unknown;
  subtestsFailed: boolean;
}

/** Failing test points of TAP output, leaf tests only (a suite that failed because its subtests did is dropped). */
export function parseTap(output: string): FailedTest[] {
  const text = stripAnsi(output);
  if (!/^[ \t]*(?:not )?ok\b/m.test(text)) return [];
  const fails: TapFail[] = [];
  const listen = (p: TapParser): void => {
    p.on('assert', (res: TapResult) => {
      if (res.ok || res.todo || res.skip) return;
      const diag: unknown = res.diag;
      const failureType = diag && typeof diag === 'object' ? (diag as Record<string, unknown>).failureType : undefined;
      fails.push({ fullname: res.fullname || res.name, name: res.fullname || res.name, diag, subtestsFailed: failureType === 'subtestsFailed' });
    });
    p.on('child', listen);
  };
  const parser = new TapParser({});
  listen(parser);
  // Events fire synchronously during end(), so the results are complete when it returns.
  parser.end(text);

  // A failure is a suite's when another failure's name continues it ("suite > test"): every such prefix, in one pass.
  const parents = new Set<string>();
  for (const f of fails) {
    for (let at = f.fullname.indexOf(' > '); at >= 0; at = f.fullname.indexOf(' > ', at + 3)) parents.add(f.fullname.slice(0, at));
  }
  const leaves = fails.filter((f) => !f.subtestsFailed && !parents.has(f.fullname)).slice(0, MAX_FAILED_TESTS);
  if (leaves.length === 0) return parseNotOkLines(text);
  const printed = printedValues(text);
  const plain = new PlainDiagnostics(text);
  return leaves.map((f) => plain.add(tapFailure(f.name, f.diag, printed)));
}

/**
 * mocha's TAP reporter prints a failure's error as plain indented lines, not a YAML block: read the message, values
 * and stack frame from them when the YAML gave none. The output's lines and where each "not ok" name first appears
 * are found once, not once per failure.
 */
class PlainDiagnostics {
  private readonly lines: string[];
  private readonly firstAt = new Map<string, number>();

  constructor(text: string) {
    this.lines = text.split('\n');
    for (const [i, l] of this.lines.entries()) {
      const m = /^[ \t]*not ok\b(?:[ \t]+\d+)?(?:[ \t]*-)?[ \t]*(.*)$/.exec(l);
      const name = m?.[1]?.trim();
      if (name !== undefined && !this.firstAt.has(name)) this.firstAt.set(name, i);
    }
  }

  add(f: FailedTest): FailedTest {
    return withPlainDiagnostics(f, this.lines, this.firstAt.get(f.name) ?? -1);
  }
}

function withPlainDiagnostics(f: FailedTest, lines: readonly string[], at: number): FailedTest {
  if (f.message !== null || f.file !== null) return f;
  if (at < 0) return f;
  const body: string[] = [];
  // A plain error is a few lines: a bounded look, so a failure followed by a sea of blank lines costs no more.
  for (let i = at + 1; i < Math.min(lines.length, at + 200) && /^\s+\S|^\s*$/.test(lines[i]!) && !/^\s+---\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
  const all = body.join('\n');
  if (all.trim() === '') return f;
  const { expected, actual } = extractExpectedActual(all);
  const loc = findLocation(body.filter((l) => /^\s+at /.test(l)).join('\n'));
  const lead = body
    .filter((l) => !/^\s+at /.test(l))
    .join('\n')
    .trim();
  return {
    ...f,
    message: lead ? clip(lead.split('\n').slice(0, 12).join('\n'), MAX_MESSAGE_CHARS) : null,
    expected,
    actual,
    file: loc?.file ?? null,
    line: loc?.line ?? null,
  };
}

/** Regex fallback for "not ok" lines buried in other output, where the parser sees no TAP structure. */
export function parseNotOkLines(text: string): FailedTest[] {
  const out: FailedTest[] = [];
  for (const m of text.matchAll(/^[ \t]*not ok\b(?:\s+\d+)?(?:\s*-)?[ \t]*(.*)$/gm)) {
    let name = m[1] ?? '';
    const directive = name.match(/(?:^|\s)#\s*(TODO|SKIP)\b/i);
    if (directive) continue;
    name = name
      .replace(/(?<!\s)\s+#\s.*$/, '')
      .replace(/\\#/g, '#')
      .trim();
    const named = splitNamedValues(name);
    out.push(
      named ? { ...named, file: null, line: null } : { name: name || '(unnamed test)', message: null, expected: null, actual: null, file: null, line: null },
    );
    if (out.length >= MAX_FAILED_TESTS) break;
  }
  return out;
}

/** TAP (node-tap, node --test's TAP reporter, tape…): its plan and its `# tests` summary count the tests. */
export const tapParser: FailureParser = {
  id: 'tap',
  marker: /^[ \t]*not ok\b/,
  // "# tests 0", the plan "1..0"
  counts: [counted(/^# tests (\d+)$/gm), counted(/^1\.\.(\d+)\b/gm)],
  detect: (t) => /^[ \t]*not ok\b/m.test(t),
  parse: parseTap,
};
