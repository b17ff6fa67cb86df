// Tests for the parser registry: every format's parser survives hostile input quickly, and output is normalised once.
import { describe, expect, it } from 'vitest';
import { FAILURE_PARSERS, normaliseOutput, parseFailures } from './parse-failures';

const long = (s: string): string => s.repeat(Math.ceil(200_000 / s.length));

// Each starts like one format and then goes on for 200 KB: the shapes that make a careless regex quadratic.
const HOSTILE = [
  long('a'),
  long('a.py:'),
  long('FAILED a'),
  long('(1,2'),
  long(' error TS1: '),
  long('--- FAIL: x '),
  long('✖ '),
  long('● '),
  `FAILED ${long('x')}.py - y`,
  `${long('src/')}a.ts(1,2): error TS2: m`,
  `  1) ${long('a ')}`,
  `${long('./a')}.go:1:2: m`,
  `---- ${long('t')} stdout ----`,
  long('[Failed]: '),
  long('not ok '),
  long('{"Action":"'),
  `error[E1]: ${long('x')}\n --> a.rs:1:1`,
  `thread 'x' panicked at ${long('a')}:1:1:`,
  `Failures (1):\n  JUnit Jupiter:${long('C:')}`,
  long('File "a", line 1, in f\n'),
];

describe('FAILURE_PARSERS', () => {
  it('has one parser per format, each with its own id', () => {
    const ids = FAILURE_PARSERS.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(FAILURE_PARSERS.map((p) => [p.id, p] as const))('%s reads 200 KB of hostile input in well under a second', (_id, p) => {
    for (const raw of HOSTILE) {
      const text = normaliseOutput(raw);
      const start = performance.now();
      try {
        if (p.detect(text)) p.parse(text);
      } catch {
        // parseFailures treats a throw as "nothing found"; only the time matters here.
      }
      expect(performance.now() - start).toBeLessThan(1000);
    }
  });

  it('no detector fires on ordinary build chatter', () => {
    const text = normaliseOutput('> app@1.0.0 build\n> vite build\n\nvite v5 building for production...\n✓ 31 modules transformed.\ndone in 1.2s\n');
    expect(FAILURE_PARSERS.filter((p) => p.detect(text)).map((p) => p.id)).toEqual([]);
    expect(parseFailures({ output: text })).toEqual([]);
  });

  it('normalises colours and Windows line endings before any parser reads the text', () => {
    expect(normaliseOutput('\u001b[31m--- FAIL: TestA (0.00s)\u001b[0m\r\n    a_test.go:3: got 1, want 2\r\n')).toBe(
      '--- FAIL: TestA (0.00s)\n    a_test.go:3: got 1, want 2\n',
    );
  });
});
