// Failing tests from `node --test`'s spec reporter: "✖ name (1.2ms)" under "▶ suite", with the assertion error object.
import { extractExpectedActual, findLocation, leadText, cleanValue, MAX_FAILED_TESTS, type FailedTest } from './failure-text';
import { testFailure, counted, type FailureParser } from './failure-parser';

const FAILED = /^(\s*)✖ (.+?)(?: \([\d.]+m?s\))?\s*$/;
const SUITE = /^(\s*)▶ (.+?)\s*$/;

function indent(l: string): number {
  return l.match(/^\s*/)![0].length;
}

interface Block {
  depth: number;
  title: string;
  body: string[];
}

/** Every "✖ title" line with the lines indented under it. */
function blocks(lines: readonly string[], onSuite?: (depth: number, name: string) => void): Block[] {
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const s = lines[i]!.match(SUITE);
    if (s) {
      onSuite?.(s[1]!.length, s[2]!);
      continue;
    }
    const m = lines[i]!.match(FAILED);
    if (!m) continue;
    const depth = m[1]!.length;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && (lines[j]!.trim() === '' ? j + 1 < lines.length && indent(lines[j + 1]!) > depth : indent(lines[j]!) > depth); j++)
      body.push(lines[j]!);
    i = j - 1;
    out.push({ depth, title: m[2]!, body });
    if (onSuite) onSuite(-1, '');
  }
  return out;
}

function parse(text: string): FailedTest[] {
  // The run's own lines come first; "✖ failing tests:" repeats the failures (without suites, and sometimes with the
  // only copy of their errors) at the end.
  const summaryAt = text.search(/^✖ failing tests:\s*$/m);
  const main = summaryAt >= 0 ? text.slice(0, summaryAt) : text;
  const summary = summaryAt >= 0 ? blocks(text.slice(summaryAt).split('\n').slice(1)).filter((b) => b.body.some((l) => l.trim() !== '')) : [];
  const lines = main.split('\n');
  const out: FailedTest[] = [];
  const suites: { depth: number; name: string }[] = [];
  for (let i = 0; i < lines.length && out.length < MAX_FAILED_TESTS; i++) {
    const line = lines[i]!;
    const s = line.match(SUITE);
    if (s) {
      while (suites.length > 0 && suites[suites.length - 1]!.depth >= s[1]!.length) suites.pop();
      suites.push({ depth: s[1]!.length, name: s[2]! });
      continue;
    }
    const m = line.match(FAILED);
    if (!m) continue;
    const depth = m[1]!.length;
    while (suites.length > 0 && suites[suites.length - 1]!.depth >= depth) suites.pop();
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && (lines[j]!.trim() === '' ? j + 1 < lines.length && indent(lines[j + 1]!) > depth : indent(lines[j]!) > depth); j++)
      body.push(lines[j]!);
    i = j - 1;
    if (body.every((l) => l.trim() === '')) {
      // No text here: the summary may hold it; else it is a suite that failed because a test in it did.
      const at = summary.findIndex((b) => b.title === m[2]);
      if (at < 0) continue;
      body.push(...summary[at]!.body);
      summary.splice(at, 1);
    }
    const all = body.join('\n');
    const exp = all.match(/^[ \t]*expected: (.+?),?$/m);
    const act = all.match(/^[ \t]*actual: (.+?),?$/m);
    let expected = exp ? cleanValue(exp[1]) : null;
    let actual = act ? cleanValue(act[1]) : null;
    if (expected === null && actual === null) ({ expected, actual } = extractExpectedActual(all));
    const loc = findLocation(body.filter((l) => /^\s+at /.test(l)).join('\n')) ?? findLocation(all);
    const name = [...suites.map((x) => x.name), m[2]!].join(' > ');
    // The error's properties object ("{\n  code: …") ends the message; a search, not a `\s*\{\s*\n` pattern (quadratic on blanks).
    const props = all.search(/\{[ \t]*\n/);
    const message = leadText(props < 0 ? all : all.slice(0, props));
    out.push(testFailure(name, { message, expected, actual, file: loc?.file ?? null, line: loc?.line ?? null }));
  }
  return out;
}

export const nodeSpecParser: FailureParser = {
  // "ℹ tests 0"
  counts: [counted(/^ℹ tests (\d+)$/gm)],
  id: 'node-test',
  marker: /^[ \t]*✖ \S|^ℹ fail \d/,
  detect: (t) => /^[ \t]*✖ \S/m.test(t) && (/^ℹ fail \d/m.test(t) || /^✖ failing tests:/m.test(t)),
  parse,
};
