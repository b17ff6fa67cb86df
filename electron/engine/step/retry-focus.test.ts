// The gate command narrowed to the failing tests, per runner, from failures parsed out of real runs (gates/corpus).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFailures } from '../gates/parse-failures';
import { focusCommand } from './retry-focus';

const failuresOf = (id: string) => parseFailures({ output: fs.readFileSync(path.join(import.meta.dirname, '../gates/corpus', `${id}.txt`), 'utf8') });

describe("focusCommand: the runner's own filter for the tests that failed", () => {
  it.each([
    [
      'pytest/default',
      'python3 -m pytest -q',
      "python3 -m pytest -q -k 'test_add or test_div_message or test_add_many or test_words or test_save_refuses_root or test_raises_error'",
    ],
    ['held2/pytest-nested', 'pytest', "pytest -k 'test_english or test_other or test_lines or test_explicit_fail'"],
    ['unittest/default', 'python3 -m unittest', 'python3 -m unittest -k test_error -k test_pop_returns_last -k test_size -k test_truthy'],
    ['go/test', 'go test ./...', "go test ./... -run '^(TestAdd|TestParseList|TestGreet)$'"],
    ['cargo/test', 'cargo test --quiet', 'cargo test --quiet -- --exact tests::adds_numbers tests::checks_positive tests::first_of_empty tests::parses_list'],
    ['vitest/default', 'CI=1 npx vitest run', "CI=1 npx vitest run test/list.test.ts -t 'adds numbers|parses a list|builds a user|top-level failure'"],
    [
      'vitest/default',
      'vitest run src --reporter verbose',
      "vitest run --reporter verbose test/list.test.ts -t 'adds numbers|parses a list|builds a user|top-level failure'",
    ],
    ['held2/vitest-each', 'vitest run', "vitest run test/slug.test.js -t 'slug\\(  Many   Spaces \\)|keeps lower case'"],
    ['jest/default', 'jest --ci', "jest --ci __tests__/cart.test.js -t 'adds item totals|applies a discount code|splits tags|throws on bad input'"],
    [
      'node-test/spec',
      'node --test',
      "node --test --test-name-pattern='^(?:adds item totals|applies a discount code|splits tags|rejects null)$' /tmp/rc/node-test/test/cart.test.js",
    ],
  ])('%s, gate `%s`', (id, run, focused) => {
    expect(focusCommand(run, failuresOf(id))?.command).toBe(focused);
  });

  it('goes through an npm or pnpm script that is itself a plain runner, after `--`', () => {
    const pkg = (test: string, more = '') => `{ "scripts": { "test": "${test}"${more} } }`;
    expect(focusCommand('npm test', failuresOf('vitest/default'), pkg('vitest run'))?.command).toBe(
      "npm test -- test/list.test.ts -t 'adds numbers|parses a list|builds a user|top-level failure'",
    );
    expect(focusCommand('pnpm run test', failuresOf('go/test'), pkg('go test ./...'))?.command).toBe(
      "pnpm run test -- -run '^(TestAdd|TestParseList|TestGreet)$'",
    );
    // A script that selects files itself, or runs hooks around the runner, is left alone.
    expect(focusCommand('npm test', failuresOf('vitest/default'), pkg('vitest run src'))).toBeNull();
    expect(focusCommand('npm test', failuresOf('vitest/default'), pkg('vitest run', ', "pretest": "tsc"'))).toBeNull();
    expect(focusCommand('npm test', failuresOf('vitest/default'), null)).toBeNull();
  });

  it('leaves a command it does not recognise, or cannot narrow, unchanged (null)', () => {
    const tests = failuresOf('pytest/default');
    for (const run of [
      'npm test && echo done',
      'pytest -k slow',
      'pytest --lf',
      'bash scripts/test.sh',
      'make test',
      'pytest "tests dir"',
      'go test -run TestX ./...',
    ]) {
      expect(focusCommand(run, run.startsWith('go') ? failuresOf('go/test') : tests)).toBeNull();
    }
    // Compile errors are not tests, and a test without a name cannot be selected.
    expect(focusCommand('go test ./...', failuresOf('go/build-error'))).toBeNull();
    expect(focusCommand('python3 -m pytest', [{ name: '(unnamed test)', message: null, expected: null, actual: null, file: null, line: null }])).toBeNull();
    expect(focusCommand('vitest run', [{ name: 'adds', message: null, expected: null, actual: null, file: null, line: null }])).toBeNull();
  });
});
