// The engine's sentences in the app's words: the CLI keeps its commands, the app says what to do in it (issue 34 item 9).
import { ERROR_CLASSES, errorClassLabel } from '../../../shared/error-classes';

const RULES: ReadonlyArray<readonly [RegExp, string]> = [
  [/Run `git init` and commit your code first/g, 'Make it a git repository with a first commit'],
  [/run `git init` there first/g, 'make it a git repository first'],
  [/give the run more with ratchet resume \S+ --budget <usd> \(in the app: Raise budget and continue\)/g, 'give the run more with Raise budget and continue'],
  [/ratchet resume \S+ --budget <usd>/g, 'Raise budget and continue'],
  [/ until `ratchet serve` stops/g, ' until the browser host stops'],
  [/ in the environment of `ratchet serve`/g, ' in the browser host’s environment'],
  [/`ratchet serve`/g, 'the browser host'],
];

/** The sentence with the terminal's commands replaced by the app's words; a sentence that has none comes back as it is. */
export function appWords(text: string): string {
  return RULES.reduce((s, [re, to]) => s.replace(re, to), text);
}

/**
 * A test-first violation as the user reads it. The engine's message is written for the agent ("your new test…", what
 * to do next); the app says what happened in a sentence of its own and shows the agent's words folded away.
 */
export function tddViolationSentence(message: string | null, opts: { last?: boolean } = {}): string {
  const said = tddViolationFirst(message ?? '');
  // The attempt the policy gave up after has no next attempt to speak of.
  return opts.last ? said.replace(/ The next attempt is asked .*$/, '') : said;
}

function tddViolationFirst(m: string): string {
  const noTest = /added no test \((.*?)\);/.exec(m);
  if (noTest) {
    return `Test first: the test attempt wrote no test (${noTest[1]}), so there was nothing to fail before the change. The next attempt is asked for the test again.`;
  }
  const passes = /^test first: (the gates passed|the gates failed, then passed when run again on the same code) with your new test in place \((.*?)\):/.exec(m);
  if (passes) {
    const how = passes[1] === 'the gates passed' ? 'the gates passed' : 'the gates failed, then passed when run again';
    return `Test first: ${how} with the attempt’s new test in place (${passes[2]}), so the test does not yet check what the step adds. The next attempt is asked for a test that fails until the change is made.`;
  }
  return 'Test first: the test attempt did not keep the rule (a new test that fails until the step’s change is made). The next attempt is asked again.';
}

/** An error class's code in a sentence ("max retries for test_failure") read as the app names it ("for test failures"). */
export function classNamesInWords(text: string): string {
  return text.replace(new RegExp(`\\b(${ERROR_CLASSES.join('|')})\\b`, 'g'), (code) => errorClassLabel(code, { midSentence: true }));
}

/**
 * Improvement suggestions as the dashboard shows them (issue 34 item 10): each piece of advice once (the first finding
 * that leads to it keeps it), error classes named in words, "consider:" said as "Try:" by the list itself.
 */
export function suggestionsInWords<T extends { finding: string; action: string }>(items: readonly T[]): Array<T & { advice: string }> {
  const seen = new Set<string>();
  const out: Array<T & { advice: string }> = [];
  for (const x of items) {
    const advice = classNamesInWords(x.action.replace(/^consider:\s*/i, ''));
    const said = advice.toLowerCase();
    if (seen.has(said)) continue;
    seen.add(said);
    out.push({ ...x, finding: classNamesInWords(x.finding), advice: advice.charAt(0).toUpperCase() + advice.slice(1) });
  }
  return out;
}
