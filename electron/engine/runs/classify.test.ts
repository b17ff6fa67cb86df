// Tests for classifyGateFailure: a table over real tool output in classify-corpus/, plus edge cases of the ordering.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CLASSES } from '../../../shared/domain';
import type { ErrorClass } from '../../../shared/domain';
import { parseFailures } from '../gates/parse-failures';
import type { GateResult } from '../gates/run-gate';
import { classifyGateFailure } from './classify';

const CORPUS = path.join(import.meta.dirname, 'classify-corpus');
const read = (name: string): string => fs.readFileSync(path.join(CORPUS, name), 'utf8');

function gateResult(over: Partial<GateResult>): GateResult {
  const output = over.output ?? '';
  return {
    name: 'test',
    command: 'npm test',
    passed: false,
    exitCode: 1,
    signal: null,
    timedOut: false,
    durationMs: 1234,
    output,
    outputBytes: Buffer.byteLength(output),
    reportXml: null,
    spawnError: null,
    ...over,
  };
}

function classify(over: Partial<GateResult>) {
  const r = gateResult(over);
  return classifyGateFailure(r, parseFailures({ output: r.output, reportXml: r.reportXml }));
}

interface Row {
  file: string;
  exitCode: number | null;
  signal?: string;
  timedOut?: boolean;
  report?: string;
  errorClass: ErrorClass;
  message: string;
}

// Exit codes and signals are the ones the real runs produced (tsc exits 2, cargo 101, bash 126/127/139).
const TABLE: Row[] = [
  { file: 'tsc.txt', exitCode: 2, errorClass: 'compilation_error', message: "TS2307: Cannot find module './format' or its corresponding type declarations. (src/index.ts:2) and 2 more errors" },
  { file: 'node-test-tap.txt', exitCode: 1, errorClass: 'test_failure', message: '3 tests failed: adds numbers, subtracts, top level fails' },
  { file: 'vitest-fail.txt', exitCode: 1, errorClass: 'test_failure', message: '2 tests failed: adds numbers, parses a list' },
  { file: 'vitest-fail.txt', exitCode: 1, report: 'junit-report.xml', errorClass: 'test_failure', message: '2 tests failed: adds numbers, parses a list' },
  { file: 'jest-fail.txt', exitCode: 1, errorClass: 'test_failure', message: '2 tests failed: adds item totals, applies a discount code' },
  { file: 'pytest-fail.txt', exitCode: 1, errorClass: 'test_failure', message: '3 tests failed: test_add, test_div, test_join' },
  { file: 'pytest-fail.txt', exitCode: 1, report: 'pytest-report.xml', errorClass: 'test_failure', message: '3 tests failed: test_add, test_div, test_join' },
  { file: 'go-test-fail.txt', exitCode: 1, errorClass: 'test_failure', message: '2 tests failed: TestAdd, TestParseList/with_spaces' },
  { file: 'go-build-fail.txt', exitCode: 1, errorClass: 'compilation_error', message: 'undefined: strconv.Itoaa (./math.go:12) and 1 more error' },
  { file: 'cargo-test-fail.txt', exitCode: 101, errorClass: 'test_failure', message: '2 tests failed: parses_list, adds_numbers' },
  { file: 'cargo-build-fail.txt', exitCode: 101, errorClass: 'compilation_error', message: 'E0308: mismatched types (src/lib.rs:2)' },
  { file: 'gcc-error.txt', exitCode: 1, errorClass: 'compilation_error', message: 'expected ‘;’ before ‘}’ token (broken.c:4) and 1 more error' },
  { file: 'python-syntax.txt', exitCode: 1, errorClass: 'compilation_error', message: "SyntaxError: expected ':' (/home/dev/pyapp/main.py:5)" },
  { file: 'js-syntax.txt', exitCode: 1, errorClass: 'compilation_error', message: 'SyntaxError: missing ) after argument list (/home/dev/jsapp/server.js:4)' },
  { file: 'python-missing-module.txt', exitCode: 2, errorClass: 'missing_dependency', message: "No module named 'stripe'" },
  { file: 'node-missing-module.txt', exitCode: 1, errorClass: 'missing_dependency', message: "Cannot find module 'express'" },
  { file: 'cmd-not-found.txt', exitCode: 127, errorClass: 'missing_dependency', message: '`pnpm` is not installed or not on PATH (command not found)' },
  { file: 'permission-denied.txt', exitCode: 126, errorClass: 'permission_error', message: '/usr/bin/bash: line 1: ./check.sh: Permission denied' },
  { file: 'segfault.txt', exitCode: 139, errorClass: 'crash', message: 'Exit code 139 (SIGSEGV): /usr/bin/bash: line 1: 11455 Segmentation fault ./crash' },
  { file: 'node-oom.txt', exitCode: null, signal: 'SIGABRT', errorClass: 'resource_exhaustion', message: 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory' },
  { file: 'timeout-hang.txt', exitCode: null, signal: 'SIGTERM', timedOut: true, errorClass: 'timeout', message: 'Timed out after 1.2 s: npm test' },
  { file: 'eslint.txt', exitCode: 1, errorClass: 'unknown', message: 'Failed with exit code 1: ✖ 3 problems (3 errors, 0 warnings)' },
];

describe('classifyGateFailure on the corpus', () => {
  it.each(TABLE.map((row) => [`${row.file}${row.report ? ` + ${row.report}` : ''}`, row] as const))('%s', (_label, row) => {
    const c = classify({
      output: read(row.file),
      reportXml: row.report ? read(row.report) : null,
      exitCode: row.exitCode,
      signal: row.signal ?? null,
      timedOut: row.timedOut ?? false,
    });
    expect(c.errorClass).toBe(row.errorClass);
    expect(c.message).toBe(row.message);
    expect(c.hints.length).toBeGreaterThan(0);
  });

  it('covers every fixture file in the corpus', () => {
    const used = new Set(TABLE.flatMap((r) => [r.file, r.report].filter(Boolean)));
    expect(fs.readdirSync(CORPUS).filter((f) => !used.has(f))).toEqual([]);
  });
});

describe('classifyGateFailure ordering and edge cases', () => {
  it('a timeout wins over failures visible in the partial output', () => {
    const c = classify({ timedOut: true, exitCode: null, signal: 'SIGTERM', output: read('node-test-tap.txt'), durationMs: 30000 });
    expect(c.errorClass).toBe('timeout');
    expect(c.message).toBe('Timed out after 30.0 s: npm test');
  });

  it('a spawn error is a missing dependency', () => {
    const c = classify({ exitCode: null, spawnError: 'spawn /bin/sh ENOENT' });
    expect(c).toMatchObject({ errorClass: 'missing_dependency', message: 'Could not start the gate command: spawn /bin/sh ENOENT' });
    expect(c.hints).toContain('Install the missing package or fix the import; retrying the agent will not help.');
  });

  it('recognises dash\'s "not found" and a bare exit 127', () => {
    expect(classify({ exitCode: 127, output: 'sh: 1: pytest: not found\n' })).toMatchObject({
      errorClass: 'missing_dependency',
      message: '`pytest` is not installed or not on PATH (command not found)',
    });
    expect(classify({ exitCode: 127, output: '' }).errorClass).toBe('missing_dependency');
  });

  it('a missing package in tsc output is a missing dependency, a missing relative file is a compile error', () => {
    const pkg = "src/a.ts(1,20): error TS2307: Cannot find module 'lodash' or its corresponding type declarations.\n";
    expect(classify({ exitCode: 2, output: pkg })).toMatchObject({ errorClass: 'missing_dependency', message: "Cannot find module 'lodash'" });
    const rel = "src/a.ts(1,20): error TS2307: Cannot find module './lodash' or its corresponding type declarations.\n";
    expect(classify({ exitCode: 2, output: rel }).errorClass).toBe('compilation_error');
  });

  it('reads tsc --pretty locations', () => {
    const out = "src/a.ts:3:7 - error TS2322: Type 'string' is not assignable to type 'number'.\n\n3 const x: number = 'a';\n        ~\n\n\nFound 1 error in src/a.ts:3\n";
    expect(classify({ exitCode: 2, output: out })).toMatchObject({
      errorClass: 'compilation_error',
      message: "TS2322: Type 'string' is not assignable to type 'number'. (src/a.ts:3)",
    });
  });

  it('a relative "Cannot find module" inside failing tests stays a test failure', () => {
    const out = "FAIL src/a.test.js\n  ● Test suite failed to run\n\n    Cannot find module './missing' from 'src/a.test.js'\n\nTests:       1 failed, 1 total\n";
    expect(classify({ output: out }).errorClass).toBe('test_failure');
  });

  it('EACCES is a permission error', () => {
    const out = "Error: EACCES: permission denied, open '/repo/dist/out.js'\n";
    expect(classify({ output: out })).toMatchObject({ errorClass: 'permission_error', message: "Error: EACCES: permission denied, open '/repo/dist/out.js'" });
  });

  it('exit 137 is a crash, or resource exhaustion when memory ran out', () => {
    expect(classify({ exitCode: 137, output: 'Killed\n' })).toMatchObject({ errorClass: 'crash', message: 'Exit code 137 (SIGKILL): Killed' });
    expect(classify({ exitCode: null, signal: 'SIGKILL', output: 'running…\n' })).toMatchObject({ errorClass: 'crash', message: 'Killed by SIGKILL' });
    expect(classify({ exitCode: 137, output: 'worker exited: out of memory (oom-kill)\n' }).errorClass).toBe('resource_exhaustion');
    expect(classify({ exitCode: 1, output: "Error: ENOSPC: no space left on device, write\n" }).errorClass).toBe('resource_exhaustion');
    // Out-of-memory wording in an ordinary failure is only a test talking about memory.
    expect(classify({ exitCode: 1, output: 'not ok 1 - reports out of memory to the user\n' }).errorClass).toBe('test_failure');
  });

  it('a core dump with an ordinary exit code is still a crash', () => {
    expect(classify({ exitCode: 1, output: 'Segmentation fault (core dumped)\n' }).errorClass).toBe('crash');
  });

  it('a JSON SyntaxError thrown inside a failing test is a test failure, not a compile error', () => {
    const out = ' FAIL  src/config.test.ts > config > loads\nSyntaxError: Unexpected token \'x\', "xyz" is not valid JSON\n ❯ src/config.ts:4:15\n\n Test Files  1 failed (1)\n      Tests  1 failed (1)\n';
    expect(classify({ output: out })).toMatchObject({ errorClass: 'test_failure', message: '1 test failed: loads' });
  });

  it('an esbuild transform error (vitest, tsx) is a compile error', () => {
    const out = ' FAIL  src/a.test.ts [ src/a.test.ts ]\nError: Transform failed with 1 error:\n/repo/src/a.ts:3:10: ERROR: Expected ";" but found "x"\n';
    expect(classify({ output: out })).toMatchObject({
      errorClass: 'compilation_error',
      message: 'Expected ";" but found "x" (/repo/src/a.ts:3)',
    });
  });

  it('uses parsed failures, summarising long lists', () => {
    const failures = Array.from({ length: 8 }, (_, i) => ({
      name: `suite > case ${i + 1}`,
      message: null,
      expected: null,
      actual: null,
      file: null,
      line: null,
    }));
    const c = classifyGateFailure(gateResult({ output: 'whatever' }), failures);
    expect(c).toMatchObject({ errorClass: 'test_failure', message: '8 tests failed: case 1, case 2, case 3, case 4, case 5, and 3 more' });
  });

  it('adds a hint about expected and actual values when there are some', () => {
    const c = classify({ output: read('node-test-tap.txt') });
    expect(c.hints[0]).toMatch(/expected and actual/);
  });

  it('keeps the message to one bounded line', () => {
    const c = classify({ exitCode: 3, output: `${'x'.repeat(1000)}\n` });
    expect(c.errorClass).toBe('unknown');
    expect(c.message).not.toContain('\n');
    expect(c.message.length).toBeLessThanOrEqual(300);
    expect(classify({ exitCode: 3, output: '' }).message).toBe('Failed with exit code 3 and no output');
  });

  it('says so when the gate passed', () => {
    expect(classify({ passed: true, exitCode: 0 }).message).toBe('The gate passed');
  });

  it('the corpus exercises every class this classifier can return', () => {
    const reachable: ErrorClass[] = [
      'timeout', 'missing_dependency', 'permission_error', 'resource_exhaustion', 'crash', 'compilation_error', 'test_failure', 'unknown',
    ];
    for (const cls of reachable) expect(ERROR_CLASSES).toContain(cls);
    expect(new Set(TABLE.map((r) => r.errorClass))).toEqual(new Set(reachable));
  });
});
