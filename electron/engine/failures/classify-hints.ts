// The hints a classified failure carries: the class's standing advice, and seed 002's analysis of the failure's text.
import type { ErrorClass } from '../../../shared/domain';
import type { FailedTest } from '../gates/parse-failures';
import { stripAnsi } from '../gates/parse-failures';
import { retryAfterFromText } from './classify-api';
import type { Classification } from './classify-result';

const HINTS: Record<ErrorClass, string[]> = {
  timeout: [
    'The gate did not finish in time: look for an infinite loop, a test waiting on input or the network, or a server that never exits.',
    "If the suite is simply slow, raise the gate's timeoutS.",
  ],
  missing_dependency: ['Install the missing package or fix the import; retrying the agent will not help.'],
  permission_error: [
    'A file or directory could not be accessed: make scripts executable (chmod +x) or run them through their interpreter, and check ownership in the worktree.',
  ],
  resource_exhaustion: [
    'The process ran out of memory or disk space: free space, raise the limit (e.g. NODE_OPTIONS=--max-old-space-size=4096) or make the code use less.',
  ],
  crash: ['The process was killed by a signal or crashed in native code: check native modules, unbounded recursion, or whether something else killed it.'],
  compilation_error: ['Fix the compiler errors first: the tests cannot run until the code builds.'],
  test_failure: ['Make the failing tests pass by fixing the code under test; compare the expected and actual values in the output.'],
  unknown: ['The failure matched no known pattern: read the end of the gate output.'],
  api_error: ['The API or the network to it failed (overloaded, 5xx, connection reset): usually transient, so retry after a backoff.'],
  rate_limit: ['The API is rate limiting: wait before retrying (honour Retry-After when given); retrying at once fails again.'],
  git_conflict: [
    'Git stopped on conflicting changes: resolve the conflict markers in the listed files or rebase once more onto the base branch; if it comes back, a person has to merge.',
  ],
  environment: [
    "The worktree's environment is not ready (setup, network, registry or an installed dependency): fix it, then retry or resume; no agent attempt can.",
  ],
  sandbox_violation: [
    "The agent's files tried to steer Ratchet's own processes outside the sandbox (a rewritten .git file or a nested repository): nothing of the attempt was staged or run.",
  ],
  no_change: [],
  empty_attempt: ["The step's change has to be made in the worktree's files: edit them (a description of the change is not the change)."],
  tdd_violation: [
    'This step is test first: its first attempt adds a test for the change and nothing that makes it pass; the gates must fail on that test before the change is implemented.',
  ],
};

// Seed 002's analyze_failure hints, in its wording. Its tests are substrings ('null' in text); these are narrower
// because "null", "signal" or "timeout" alone appear in too much ordinary output.
export const NULL_REFERENCE_HINT = 'Looks like a null reference - check object initialization';
export const SIGNAL_HINT = 'Signal not emitted/connected - verify signal declaration and emission';
export const MISMATCH_HINT = 'Value mismatch - check your calculations and logic';
export const TEST_TIMEOUT_HINT = 'Test timed out - might be infinite loop or waiting for event that never happens';
export const FALLBACK_HINT = 'Review the error message above and the test expectations';
// Two words on one line are tested word by word: one regex spanning the line ("expected[^\n]*got") is quadratic on a
// long line that repeats the first word.
const onOneLine = (text: string, a: RegExp, b: RegExp): boolean => text.split('\n').some((l) => a.test(l) && b.test(l));
const ANALYSIS: ReadonlyArray<readonly [(text: string) => boolean, string]> = [
  [
    (t) =>
      /\bnull (?:reference|instance|value|pointer)\b|\bNull(?:Pointer|Reference)Exception\b|Cannot read propert(?:y|ies) of (?:null|undefined)|'NoneType' object has no attribute|nil pointer dereference|base(?: object of type)?:? '(?:Nil|null instance)'/i.test(
        t,
      ),
    NULL_REFERENCE_HINT,
  ],
  [
    (t) => /\bto have (?:been )?emitted signal\b|\bnonexistent signal\b/i.test(t) || onOneLine(t, /\bsignal\b/i, /\bnot (?:been )?(?:emitted|connected)\b/i),
    SIGNAL_HINT,
  ],
  [(t) => onOneLine(t, /\bexpected\b/i, /\bgot\b/i), MISMATCH_HINT],
  [(t) => /\btim(?:ed|e) ?out\b|\bexceeded timeout\b/i.test(t), TEST_TIMEOUT_HINT],
];

/** The classification's own hints, then seed 002's analysis of the text, then the class's standing hints. */
export function withHints(c: Classification, out: string, failures: FailedTest[]): Classification {
  const text = [out, ...failures.map((f) => f.message ?? '')].join('\n');
  const analysis = ANALYSIS.filter(([applies]) => applies(text)).map(([, hint]) => hint);
  // A gate timeout's own hints already say what the test-timeout hint says.
  const seeded = c.errorClass === 'timeout' ? analysis.filter((h) => h !== TEST_TIMEOUT_HINT) : analysis;
  if (seeded.length === 0 && c.errorClass === 'test_failure') seeded.push(FALLBACK_HINT);
  const wait = c.errorClass === 'rate_limit' ? retryAfterFromText(out) : null;
  const waitHint = wait !== null ? [`The API asked to wait ${wait} s before retrying (Retry-After).`] : [];
  const hints = [...new Set([...c.hints, ...waitHint, ...seeded, ...HINTS[c.errorClass]])];
  return { ...c, hints };
}

/** Seed 002's analysis of a failure's text: the hints (NULL_REFERENCE_HINT, SIGNAL_HINT, …) whose pattern it matches. */
export function seedAnalysis(text: string): string[] {
  return ANALYSIS.filter(([applies]) => applies(text)).map(([, hint]) => hint);
}

/** The hints a failure of `errorClass` gets from its text alone (seed 002's analysis and the class's own): for a failure rebuilt from the store. */
export function hintsFor(errorClass: ErrorClass, output: string, failures: FailedTest[]): string[] {
  return withHints({ errorClass, message: '', hints: [] }, stripAnsi(output), failures).hints;
}
