// The engine's sentences in the app's words: the CLI keeps its commands, the app says what to do in it (issue 34 item 9).

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
