// Failing tests from mocha's spec (and dot/list) reporters: the numbered "1) suite\n     test:" list after "N failing".
import { extractExpectedActual, findLocation, leadText, cleanValue, MAX_FAILED_TESTS, type FailedTest } from './failure-text';
import { CUT_MARKER, testFailure, counted, none, type FailureParser } from './failure-parser';

const ENTRY = /^ {2}(\d+)\) (.+)$/;

/** Mocha's own diff ("+ expected - actual", then "-5" / "+6") when it has a single line on each side. */
function mochaDiff(body: string): { expected: string | null; actual: string | null } {
  // [ \t], not \s: with /m, \s* would start the match on the blank line before the legend.
  const at = body.search(/^[ \t]*\+ expected - actual[ \t]*$/m);
  if (at < 0) return { expected: null, actual: null };
  const rest: string[] = [];
  for (const l of body.slice(at).split('\n').slice(1)) {
    if (/^\s+at /.test(l)) break;
    if (l.trim() !== '') rest.push(l);
  }
  const minus = rest.filter((l) => /^\s*-/.test(l));
  const plus = rest.filter((l) => /^\s*\+/.test(l));
  // Only a diff of one line against one line is a pair of values; a longer one is a structure shown in parts.
  if (rest.length !== 2 || minus.length !== 1 || plus.length !== 1) return { expected: null, actual: null };
  return { expected: cleanValue(plus[0]!.trim().slice(1)), actual: cleanValue(minus[0]!.trim().slice(1)) };
}

function parse(text: string): FailedTest[] {
  const start = text.search(/^[ \t]*\d+ failing\b/m);
  if (start < 0) return [];
  const lines = text.slice(start).split('\n').slice(1);
  const out: FailedTest[] = [];
  for (let i = 0; i < lines.length && out.length < MAX_FAILED_TESTS; i++) {
    const m = lines[i]!.match(ENTRY);
    if (!m) continue;
    // The title runs over indented lines until one ending with ":".
    const titles = [m[2]!.trim()];
    let j = i + 1;
    if (!titles[0]!.endsWith(':')) {
      for (; j < lines.length; j++) {
        const t = lines[j]!.trim();
        if (t === '') break;
        titles.push(t);
        if (t.endsWith(':')) {
          j++;
          break;
        }
      }
    }
    titles[titles.length - 1] = titles[titles.length - 1]!.replace(/:$/, '');
    const body: string[] = [];
    for (; j < lines.length && !ENTRY.test(lines[j]!) && !CUT_MARKER.test(lines[j]!); j++) body.push(lines[j]!);
    i = j - 1;
    const all = body.join('\n');
    // The message's own pair ("'b' !== 'a'") keeps the quotes that say a value is a string; the diff drops them.
    let { expected, actual } = extractExpectedActual(all);
    if (expected === null && actual === null) ({ expected, actual } = mochaDiff(all));
    const loc = findLocation(body.filter((l) => /^\s+at /.test(l)).join('\n'));
    out.push(testFailure(titles.join(' > '), { message: leadText(all), expected, actual, file: loc?.file ?? null, line: loc?.line ?? null }));
  }
  return out;
}

export const mochaSpecParser: FailureParser = {
  // "0 passing (1ms)", "2 failing", "Error: No test files found"
  counts: [counted(/^[ \t]*(\d+) passing\b/gm), counted(/^[ \t]*(\d+) failing\b/gm), none(/^Error: No test files found\b/gm)],
  id: 'mocha',
  marker: /^[ \t]*\d+ failing\b|^ {2}\d+\) \S/,
  detect: (t) => /^[ \t]*\d+ failing\b/m.test(t) && /^ {2}\d+\) \S/m.test(t),
  parse,
};
