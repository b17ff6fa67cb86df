// The zero-tests check against real runner outputs: corpus/zero-tests (recorded by scripts/record-corpus/zero.sh) and the failing-test corpus.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { countTests, countTestsInReport, ranNoTests } from './count-tests';
import { CORPUS_DIR, loadCorpus } from './testing/failure-corpus';
import { counted, none, normaliseOutput, type FailureParser } from './failure-parser';
import { FAILURE_PARSERS } from './parse-failures';

const ZERO = path.join(CORPUS_DIR, 'zero-tests');
const read = (f: string) => fs.readFileSync(path.join(ZERO, f), 'utf8');
const report = (id: string) => (fs.existsSync(path.join(ZERO, `${id}.report.xml`)) ? read(`${id}.report.xml`) : null);

// node --test counts a test file without tests as one passing test (node-test, node-tap): nothing in its output says 0.
const RAN_A_FILE = new Set(['node-test', 'node-tap']);

describe('countTests on runs that ran no tests', () => {
  const ids = fs
    .readdirSync(ZERO)
    .filter((f) => f.endsWith('.txt'))
    .map((f) => f.slice(0, -4))
    .filter((id) => !RAN_A_FILE.has(id));
  it('has the recorded outputs of every runner', () => {
    for (const tool of ['pytest', 'jest', 'vitest', 'go', 'cargo', 'mocha', 'node-no-files', 'unittest', 'pytest-junit']) expect(ids).toContain(tool);
  });
  it.each(ids)('%s: the gate ran no tests', (id) => {
    expect(ranNoTests(read(`${id}.txt`), report(id))).toBe(true);
  });
  it('node counts a file with no test in it as one test', () => {
    for (const id of RAN_A_FILE) expect(countTests(read(`${id}.txt`))).toBe(1);
  });
  it('reads a JUnit report with tests="0"', () => {
    expect(countTestsInReport(read('pytest-junit.report.xml'))).toBe(0);
  });
});

describe('countTests on runs that ran tests', () => {
  const ran = loadCorpus().filter((c) => c.truth.class === 'test_failure');
  it.each(ran.map((c) => [c.id, c] as const))('%s: not "no tests"', (_id, c) => {
    expect(ranNoTests(c.output, c.report)).toBe(false);
  });
  it('a gate with no test runner in it (a linter, a build) counts nothing', () => {
    expect(countTests('All files pass linting.\n')).toBeNull();
  });
  it('a workspace where one package has tests ran tests', () => {
    expect(countTests('?   \texample.com/a\t[no test files]\nok  \texample.com/b\t0.003s\n')).toBe(1);
    expect(countTests(`${read('cargo.txt')}\nrunning 2 tests\ntest a ... ok\ntest b ... ok\n`)).toBe(2);
  });
});

describe("a runner's counting is its parser's", () => {
  it('counts what a parser added to FAILURE_PARSERS says, with no edit to count-tests.ts', () => {
    const fake: FailureParser = {
      id: 'fake-runner',
      counts: [counted(/^FAKE RAN (\d+) TESTS$/gm), none(/^FAKE FOUND NOTHING$/gm)],
      detect: () => false,
      parse: () => [],
    };
    const parsers = FAILURE_PARSERS as FailureParser[];
    expect(countTests('FAKE RAN 3 TESTS\n')).toBeNull();
    parsers.push(fake);
    try {
      expect(countTests('building…\nFAKE RAN 3 TESTS\n')).toBe(3);
      expect(ranNoTests('FAKE FOUND NOTHING\n')).toBe(true);
    } finally {
      parsers.splice(parsers.indexOf(fake), 1);
    }
  });

  it("every recorded runner's zero-tests output is counted by a parser's own summary lines, and count-tests.ts holds none", () => {
    const byParser = (text: string) =>
      FAILURE_PARSERS.filter((p) =>
        (p.counts ?? []).some(({ re }) => {
          re.lastIndex = 0;
          return re.test(text);
        }),
      ).map((p) => p.id);
    for (const f of fs.readdirSync(ZERO).filter((x) => x.endsWith('.txt') && !x.startsWith('node-test') && !x.startsWith('node-tap'))) {
      expect(byParser(normaliseOutput(read(f))), f).not.toEqual([]);
    }
    // The counter itself reads no runner's output: its only expressions are the reports' (JUnit XML, Jest JSON).
    const own = fs.readFileSync(path.join(import.meta.dirname, 'count-tests.ts'), 'utf8');
    expect(own).not.toMatch(/\/gm\b/);
  });
});
