// Tests for the retry prompt's failure entries (name, Expected, Got) over real recorded outputs from the corpus.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { failureLocation, formatFailure, formatFailures, NO_STRUCTURED_FAILURES } from './format-failures';
import { parseFailures } from './parse-failures';
import { retryContext } from '../prompts/prompts';

const corpus = (id: string): string => fs.readFileSync(path.join(import.meta.dirname, 'corpus', `${id}.txt`), 'utf8');
const report = (id: string, ext: string): string => fs.readFileSync(path.join(import.meta.dirname, 'corpus', `${id}.report.${ext}`), 'utf8');

describe('formatFailures', () => {
  it("lists pytest's failures as name / Expected / Got / Location, values as pytest printed them", () => {
    const text = formatFailures(parseFailures({ output: corpus('pytest/default') }));
    expect(text.startsWith('7 failing tests:\n\n')).toBe(true);
    expect(text).toContain('- **tests/test_calc.py::test_add**\n  Expected: 5\n  Got: 6\n  Location: tests/test_calc.py:7');
    expect(text).toContain("- **tests/test_calc.py::test_words**\n  Expected: ['a', 'b']\n  Got: ['a', '', 'b']\n  Location: tests/test_calc.py:25");
    // The assertion's own message is kept next to the values.
    expect(text).toContain('  Expected: 3.5\n  Got: 3\n  Message: AssertionError: division should be exact\n  Location: tests/test_calc.py:16');
    // Without values, the error says what happened.
    expect(text).toContain(
      "- **tests/test_calc.py::test_save_refuses_root**\n  Error: Failed: DID NOT RAISE <class 'PermissionError'>\n  Location: tests/test_calc.py:29",
    );
  });

  it('puts compile errors first, as "file:line:col CODE message"', () => {
    const text = formatFailures(parseFailures({ output: corpus('ts/tsc') }));
    expect(text).toBe(
      [
        '2 errors:',
        '',
        "- **src/index.ts:1:24 TS2307** Cannot find module './format' or its corresponding type declarations.",
        '',
        "- **src/index.ts:4:9 TS2322** Type 'string' is not assignable to type 'number'.",
      ].join('\n'),
    );
  });

  it('reads the same entries from a JUnit report as from the console', () => {
    const fromXml = parseFailures({ output: '', reportXml: report('java/junit5-console', 'xml') });
    expect(formatFailure(fromXml.find((f) => f.name.includes('greets'))!)).toBe(
      '- **CalcTest > greets()**\n  Expected: Hello, ann\n  Got: Hello ann\n  Location: CalcTest.java:13',
    );
  });

  it('says clearly when nothing structured was found', () => {
    expect(formatFailures([])).toBe(NO_STRUCTURED_FAILURES);
    expect(formatFailures(parseFailures({ output: '1c1\n< port = 80\n---\n> port = 8080\n' }))).toBe(NO_STRUCTURED_FAILURES);
  });

  it('caps the list and says how many more there are', () => {
    const many = parseFailures({ output: corpus('cargo/long-cut') });
    const text = formatFailures(many, 5);
    expect(text.match(/^- \*\*/gm)).toHaveLength(5);
    expect(text).toContain(`(${many.length - 5} more not listed: see the output below.)`);
  });

  it('writes locations as file:line, with the column when known', () => {
    expect(failureLocation({ file: 'a.go', line: 3, column: 7 })).toBe('a.go:3:7');
    expect(failureLocation({ file: 'a.go', line: 3 })).toBe('a.go:3');
    expect(failureLocation({ file: 'a.go', line: null })).toBe('a.go');
    expect(failureLocation({ file: null, line: 3 })).toBeNull();
  });
});

describe('retryContext lists the failures before the quoted output', () => {
  const facts = (output: string) => ({
    attempt: 2,
    maxAttempts: 3,
    errorClass: 'test_failure',
    message: 'm',
    gateLabel: 'the gate',
    output,
    failures: parseFailures({ output }),
    hints: [],
    previousDiff: null,
  });

  it('one entry per failing test, outside the gate output', () => {
    const out = corpus('go/test');
    const prompt = retryContext(facts(out));
    const entry = prompt.indexOf('- **example.com/calc > TestAdd**\n  Expected: 5\n  Got: 6\n  Location: calc_test.go:10');
    const quoted = prompt.indexOf('<untrusted source="gate output">');
    expect(entry).toBeGreaterThan(0);
    expect(quoted).toBeGreaterThan(entry);
    expect(prompt.slice(0, quoted)).not.toContain('FAIL\texample.com/calc');
  });

  it('an unknown format: "no structured failures found", then the bounded raw output', () => {
    const prompt = retryContext(facts('deploy check: 3 hosts unreachable\n'));
    expect(prompt).toContain(NO_STRUCTURED_FAILURES);
    expect(prompt.indexOf(NO_STRUCTURED_FAILURES)).toBeLessThan(prompt.indexOf('deploy check: 3 hosts unreachable'));
  });
});
