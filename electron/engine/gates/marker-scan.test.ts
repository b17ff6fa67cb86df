// The gate log's line scan gives the same answers as the one expression of every marker (FAILURE_MARKER), while
// trying a line only against the markers that can start with its first character.
import { describe, expect, it } from 'vitest';
import { normaliseOutput } from './failure-parser';
import { FAILURE_LINE_MARKERS, FAILURE_MARKER, FAILURE_PARSERS, MARKER_PARTS } from './parse-failures';
import { LineMarkers, leadOf, needleOf, requiredChars, requiredLiteral } from './marker-scan';
import { loadCorpus } from './testing/failure-corpus';

const reference = new RegExp(FAILURE_MARKER.source, 'm');

/** Every line of every recorded tool output, and lines made to sit at the edges of the markers. */
function lines(): string[] {
  const out = new Set<string>();
  for (const c of loadCorpus()) for (const l of normaliseOutput(c.output).split('\n')) out.add(l);
  for (const l of [
    '',
    ' ',
    'ok 1 - handles record 1 in the parser (1 ms)',
    'not ok 2 - adds',
    '\tnot ok 3 - tabbed',
    'packages/prompts test: not ok 4 - behind a prefix',
    'packages/prompts test:  FAIL  test/select.test.ts > select',
    'pkg:test: FAIL src/a.test.ts',
    '[pkg]: ● adds',
    '➤ YN0000: [pkg]: ✖ adds',
    'packages/prompts test: ok 5 - no marker behind the prefix',
    'src/lib.c:12:5: error: expected ‘;’',
    'test/test_lib.c:20:test_adds:FAIL: Expected 3 Was 4',
    'C:test/test_lib.c:20:test_adds:FAIL',
    'ValueError: bad',
    'Error: boom',
    'panic: runtime error',
    "thread 'main' panicked at src/lib.rs:3:5",
    '{"Action":"fail","Test":"TestX"}',
    'a.ts(3,4): error TS2322: nope',
    'x.go:3:4: undefined: y',
    '=== FAILURES ===',
    '____ test_adds ____',
    'E   assert 3 == 4',
    'E',
    'Etc',
    'FAILED tests/a.py::b',
    '  2) adds',
    '  12 failing',
    '  1/3 Test #1: adds ....***Failed',
    'The following tests FAILED:',
    'failures:',
    '---- tests::adds stdout ----',
    'test tests::adds ... FAILED',
    '  --> src/lib.rs:3:5',
    '  File "a.py", line 3, in b',
    '❌ broken',
    'ℹ fail 1',
    ' ⎯⎯⎯ Failed Tests 1 ⎯⎯⎯',
    '  × adds',
    ':FAIL',
    '::::',
  ])
    out.add(l);
  return [...out];
}

describe('the line scan', () => {
  it('marks exactly the lines FAILURE_MARKER marks, over the whole corpus and lines at the markers’ edges', () => {
    const scanner = FAILURE_LINE_MARKERS.scanner();
    const all = lines();
    expect(all.length).toBeGreaterThan(1000);
    const differ = all.filter((l) => scanner.test(l) !== reference.test(l));
    expect(differ).toEqual([]);
    expect(all.filter((l) => scanner.test(l)).length).toBeGreaterThan(100);
  });

  it('finds in a whole text the same lines, in order, and counts the lines it passed', () => {
    const all = lines();
    const text = `${all.join('\n')}\n`;
    const scanner = FAILURE_LINE_MARKERS.scanner();
    const found: number[] = [];
    let line = 0;
    for (let pos = 0; pos < text.length;) {
      const at = scanner.find(text, pos);
      if (at < 0) break;
      line += scanner.passed;
      found.push(line);
      line++;
      pos = text.indexOf('\n', at) + 1;
    }
    const expected = all.flatMap((l, i) => (reference.test(l) ? [i] : []));
    expect(found).toEqual(expected);
  });

  it('tries a line only against the markers that can start with its first character', () => {
    const ids = (c: string): string[] =>
      FAILURE_LINE_MARKERS.startingWith(c.charCodeAt(0)).map((m) => MARKER_PARTS.anchoredParts[FAILURE_LINE_MARKERS.anchored.indexOf(m)]!);
    // A passing TAP line ("ok …") can be only a Unity result or a Python exception: two, not the ~35 markers.
    expect(ids('o')).toHaveLength(2);
    expect(ids('n')).toEqual([expect.stringContaining('not ok'), ...ids('o')]);
    // Unity's "file:line:test:FAIL" may start with any character but a space or colon.
    expect(ids('●')).toEqual([expect.stringContaining('●'), expect.stringContaining(':FAIL')]);
    expect(ids(' ').length).toBeLessThan(MARKER_PARTS.anchoredParts.length * 0.6);
  });

  it('reads an expression for its first characters and the text it cannot match without', () => {
    const lead = (src: string) => {
      const l = leadOf(src);
      return [...'aZ0 \t-:●'].filter((c) => l.test(c.charCodeAt(0))).join('') + (l.empty ? ' (empty)' : '');
    };
    expect(lead('[ \\t]*not ok')).toBe(' \t');
    expect(lead('\\w*(?:Error): ')).toBe('aZ0');
    expect(lead('(?:[A-Za-z]:)?[^\\s:]x')).toBe('aZ0-●');
    expect(lead('(?=a)b?')).toBe(' (empty)');
    expect(lead('x{0,2}-')).toBe('-');
    expect(requiredLiteral('={3,} (?:FAILURES|ERRORS) ={3,}$', 1)).toBe(' ');
    expect(requiredLiteral('[@\\w./-]{1,214} [\\w:.-]{1,100}: ', 1)).toBe(': ');
    expect([...requiredChars('(?:(?:➤ YN\\d{4}: )?\\[[@\\w./-]{1,214}\\]: |[@\\w.-]{1,2}:[\\w.-]{1,100}: )')].sort()).toEqual([' ', ':']);
    expect(needleOf('\\berror TS\\d+:')).toBe('TS');
    expect(needleOf('a(?:b|c)?')).toBe('a');
    expect(needleOf('\\u001b\\[31m')).toBe('[31m');
    expect(needleOf('\\x41\\cAbc')).toBe('bc');
  });

  it('an expression it cannot read is tried on every line (never skipped)', () => {
    const m = new LineMarkers({ anchored: ['\\cAx', '(a)\\1'], loose: ['\\cB'], prefix: null });
    const s = m.scanner();
    expect([s.test('\u0001x'), s.test('aa'), s.test('ab'), s.test('b\u0002')]).toEqual([true, true, false, true]);
  });

  it('every parser’s marker is in the scan', () => {
    const count = FAILURE_PARSERS.filter((p) => p.marker).length;
    expect(FAILURE_LINE_MARKERS.anchored.length + FAILURE_LINE_MARKERS.loose.length).toBeGreaterThanOrEqual(count);
  });
});
