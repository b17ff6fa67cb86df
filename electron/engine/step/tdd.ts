// Test first (TDD mode, `tdd:` on a step or as the workflow's default), pure: which files are tests, what the test and implementation attempts are told, and the rule's violations.
import path from 'node:path';
import type { FailedTest } from '../gates/parse-failures';
import { outputForAgent } from '../gates/bounded-output';
import { formatFailures } from '../gates/format-failures';
import type { StepConfig, Workflow } from '../workflow/schema';
import { wrapUntrusted } from '../prompts/prompts';

/** A test-first step's settings, fixed for its life. */
export interface TddConfig {
  /** Globs naming the test files; null: the usual names (see `isTestFile`). */
  tests: readonly string[] | null;
  /** The step's gates: a violation counts as all of them failing (for `not: gate.<name>` retry entries). */
  gates: readonly string[];
}

/** What the step's test attempt left, once the gates failed on it: what the implementation attempt is told. */
export interface RedTest {
  /** The attempt (its number in the step) that wrote the test. */
  n: number;
  /** Test files it changed, relative to the worktree. */
  testFiles: string[];
  failures: FailedTest[];
  /** The failing gate's output (bounded). */
  output: string;
  gate: string | null;
  /** The attempt's tree: `worktree: reset` goes back to it, not to the step's start (the test stays). */
  tree: string | null;
}

/** The step's test-first settings (its own `tdd`, else the workflow's), or null when it is not test first. */
export function stepTdd(workflow: Pick<Workflow, 'tdd' | 'gates'>, step: StepConfig): TddConfig | null {
  const setting = step.tdd ?? workflow.tdd;
  if (!setting) return null;
  return { tests: setting === true ? null : setting.tests, gates: step.gates ?? Object.keys(workflow.gates) };
}

const TEST_DIRS = new Set(['test', 'tests', '__tests__', '__test__', 'spec', 'specs', 'e2e']);
const TEST_NAMES = [
  /\.(test|spec)\.[^.]+$/i, // a.test.ts, a.spec.js, a.test.tsx
  /_(test|spec)\.[^.]+$/i, // add_test.go, add_test.py, player_spec.rb
  /^test_.*\.py$/i, // test_add.py
  /(Test|Tests|Spec|IT)\.(java|kt|kts|scala|groovy|cs|swift)$/, // AddTest.java, AddTests.cs
];

/** Whether `file` (relative, `/`-separated) is a test file: the step's `tdd.tests` globs, else the usual names and folders. */
export function isTestFile(file: string, tests: readonly string[] | null): boolean {
  const f = file.replace(/^\.\//, '');
  if (tests) return tests.some((g) => g.replace(/^\.\//, '') === f || path.posix.matchesGlob(f, g.replace(/^\.\//, '')));
  const parts = f.split('/');
  const name = parts.at(-1) ?? f;
  return parts.slice(0, -1).some((d) => TEST_DIRS.has(d.toLowerCase())) || TEST_NAMES.some((re) => re.test(name));
}

const USUAL = 'a file such as *.test.*, *.spec.*, *_test.*, test_*.py, *Test.java or one under test/, tests/, __tests__/ or spec/';
const whereTests = (cfg: TddConfig) => (cfg.tests ? `a file matching ${cfg.tests.map((g) => `\`${g}\``).join(', ')} (this step's test files)` : USUAL);
const listed = (files: readonly string[], max = 8) =>
  files.length > max ? `${files.slice(0, max).join(', ')} and ${files.length - max} more` : files.join(', ');

/** The test attempt changed no test file. */
export function noTestMessage(cfg: TddConfig, changed: readonly string[]): string {
  const what = changed.length ? `it changed ${listed(changed)}, none of them a test` : 'it changed no file';
  return `test first: your test attempt added no test (${what}); add a test for the step's change in ${whereTests(cfg)}, one that fails until the change is made`;
}

/** The gates passed with the new test in place (or it passed when run again). */
export function passesMessage(testFiles: readonly string[], flaky: boolean): string {
  const how = flaky ? 'the gates failed, then passed when run again on the same code' : 'the gates passed';
  return `test first: ${how} with your new test in place (${listed(testFiles)}): the test must fail until the step's change is made — make it check what this step adds, and leave the implementation (revert it if you wrote it) for the next attempt`;
}

/** What the test attempt is told, after the step's prompt (and again on its retries). */
export function testFirstInstructions(cfg: TddConfig): string {
  return [
    '## Test first: this attempt writes the test, not the change',
    'This step is test first. In this attempt, add a test (or extend one) that checks the behaviour this step asks for, and do not implement that behaviour: the test must fail now.',
    `Put it in ${whereTests(cfg)}. After this attempt Ratchet runs the gates and expects them to fail on your new test; the next attempt implements the change.`,
    'A test that fails only because the code it calls does not exist yet is fine; add no more than the test needs to be read.',
  ].join('\n');
}

/** What the first implementation attempt is told: the test fails as it should; now make it pass. */
export function implementInstructions(red: RedTest): string {
  const files = red.testFiles.length ? ` (${listed(red.testFiles)})` : '';
  const sections = [
    '## Test first: now implement the change',
    `Your test${files} fails as it should${red.gate ? ` (gate \`${red.gate}\`)` : ''}. Now make the step's change so the gates pass.`,
  ];
  if (red.failures.length) sections.push(`Failing tests and errors, read from the output:\n${wrapUntrusted('parsed failures', formatFailures(red.failures))}`);
  if (red.output.trim()) sections.push(`Output of the gate:\n${wrapUntrusted('gate output', outputForAgent(red.output, 8000))}`);
  sections.push(keepTestNote(red));
  return sections.join('\n\n');
}

/** Said on every implementation attempt: the test is part of the step. */
export function keepTestNote(red: RedTest): string {
  const files = red.testFiles.length ? ` (${listed(red.testFiles)})` : '';
  return `Keep the test written first${files}: do not delete it, skip it or weaken what it checks; change the code under test.`;
}

/** `ratchet check`'s line about test first: which steps write their test first (null: none). */
export function tddCheckLine(workflow: Pick<Workflow, 'tdd' | 'gates' | 'steps'>): string | null {
  const globs = (t: TddConfig) => (t.tests ? ` (tests: ${t.tests.join(', ')})` : '');
  if (!workflow.steps.length) {
    const t = workflow.tdd ? stepTdd(workflow, { title: '-', prompt: '' }) : null;
    return t ? `test first (tdd): every step${globs(t)}` : null;
  }
  const on = workflow.steps.map((step, i) => ({ i: i + 1, t: stepTdd(workflow, step) })).filter((x) => x.t !== null);
  if (!on.length) return null;
  const which = on.length === workflow.steps.length ? 'every step' : `step${on.length > 1 ? 's' : ''} ${on.map((x) => x.i).join(', ')}`;
  const own = [...new Set(on.map((x) => globs(x.t!)))];
  return `test first (tdd): ${which}${own.length === 1 ? own[0] : ''} — the first attempt writes a test the gates must fail on, then the change`;
}

/** The attempt's summary when the test attempt's test fails as it should. */
export function redSummary(red: RedTest): string {
  const names = [...new Set(red.failures.map((f) => f.name))];
  const what = names.length ? `${names.length === 1 ? '1 test fails' : `${names.length} tests fail`} (${listed(names, 3)})` : 'the gates fail';
  return `${what} before the implementation, as it should${red.testFiles.length ? `; test files: ${listed(red.testFiles)}` : ''}`;
}
