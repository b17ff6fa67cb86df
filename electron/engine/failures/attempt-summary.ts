// The exhaustion report: one line per attempt (what failed, what each retry fixed), the remaining issues once each, and the next steps.
import { ERROR_CLASS_LABEL, errorClassLabel } from '../../../shared/error-classes';
import type { FailedTest } from '../gates/parse-failures';
import { splitNamedValues } from '../gates/failure-text';

export interface AttemptFacts {
  n: number;
  outcome: string;
  errorClass: string | null;
  message: string | null;
  /** Identities of the failing tests (see `testIdentity`). */
  failedTests: string[];
}

/**
 * What makes two failing tests the same test: its file (without line) and its name, without a timing a runner
 * appends ("adds (3 ms)", "adds # time=1.2ms") or the values a hand-written runner prints after it ("test_hp: Expected
 * 100, got -1"), so the same test failing again, with other values, is never counted as fixed and new.
 */
export function testIdentity(t: Pick<FailedTest, 'name'> & Partial<Pick<FailedTest, 'file' | 'kind'>>): string {
  const name = (splitNamedValues(t.name)?.name ?? t.name)
    .replace(/\s*#\s*time=\S+\s*$/i, '')
    .replace(/\s*[([]?\d+(?:\.\d+)?\s?(?:ns|µs|us|ms|s)[)\]]?\s*$/i, '')
    .trim();
  const file = t.file ? t.file.replace(/:\d+(?::\d+)?$/, '') : '';
  const id = file ? `${file} › ${name}` : name;
  // A compiler or linter error is not a failing test: it is counted as an error.
  return t.kind === 'compile' ? `${COMPILE}${id}` : id;
}

const COMPILE = 'compile: ';

function describeTests(now: ReadonlySet<string>, previous: ReadonlySet<string> | null): string {
  const errors = [...now].filter((t) => t.startsWith(COMPILE)).length;
  const tests = now.size - errors;
  let what = [tests ? `${tests} ${tests === 1 ? 'test' : 'tests'} failed` : '', errors ? `${errors} ${errors === 1 ? 'error' : 'errors'}` : '']
    .filter(Boolean)
    .join(', ');
  if (!previous || previous.size === 0) return what;
  const fixed = [...previous].filter((t) => !now.has(t)).length;
  const added = [...now].filter((t) => !previous.has(t)).length;
  if (fixed > 0) what += added > 0 ? ` (fixed ${fixed}, ${added} new)` : ` (fixed ${fixed})`;
  else if (added === 0) what += ' (no improvement)';
  else what += ` (${added} new)`;
  return what;
}

/** One line of the summary; `k` numbers the attempt within its round (1 = the initial attempt of that execution). */
export function describeAttempt(a: AttemptFacts, previous: AttemptFacts | undefined, k = a.n, said?: string): string {
  const label = k === 1 ? 'Initial' : `Retry ${k - 1}`;
  if (a.outcome === 'passed' || a.outcome === 'flaky') return `${k}. ${label}: passed`;
  if (a.outcome === 'red') return `${k}. Test first: the new test failed, as it should`;
  if (a.outcome === 'interrupted') return `${k}. ${label}: interrupted (the process stopped; not counted as a failure)`;
  const now = new Set(a.failedTests);
  if (now.size > 0) {
    const prev = previous && previous.failedTests.length > 0 ? new Set(previous.failedTests) : null;
    return `${k}. ${label}: ${describeTests(now, prev)}`;
  }
  const cls = a.errorClass ? errorClassLabel(a.errorClass) : 'Failed';
  // The same error again, or one the reason above already states, is named, not repeated.
  if (a.message && previous && previous.errorClass === a.errorClass && previous.message === a.message && previous.failedTests.length === 0) {
    return `${k}. ${label}: the same ${a.errorClass ? errorClassLabel(a.errorClass, { midSentence: true }) : 'error'} again`;
  }
  if (a.message && said?.includes(a.message)) return `${k}. ${label}: ${cls} (the error above)`;
  return `${k}. ${label}: ${cls}${a.message ? `: ${a.message}` : ''}`;
}

export interface SummaryOptions {
  /** Attempts of earlier rounds (before the retry or resume that started this one), kept in the run's history. */
  earlier?: number;
  /** Text shown with the summary (the run's reason): an error it already states is not repeated. */
  said?: string;
}

/** What the run's reason says the user can do next: the commands that will work for this run, with its id. */
export interface NextStepsFor {
  runId: string;
  /** `fatal`: the run failed; `escalate`: it waits for the user. */
  kind: 'fatal' | 'escalate';
  /** Steps committed on the branch: with none, Retry has nothing to continue from and Start again is the way. */
  committedSteps: number;
}

/** The next steps, made specific to the run: its id in each command, and Retry only when it can work. */
export function nextSteps(n: NextStepsFor): string[] {
  const lines = [
    'Next steps:',
    '1. Review the errors above',
    '2. Check if the task description was clear enough',
    `3. Update the task or the plan with more specific instructions (\`ratchet plan ${n.runId} --edit plan.yml\`, or Revise plan in the app)`,
  ];
  if (n.kind === 'escalate') lines.push(`4. Resume the run (\`ratchet resume ${n.runId}\`, or Resume in the app): the step gets its retries afresh`);
  else if (n.committedSteps > 0)
    lines.push(`4. Retry the run (\`ratchet retry ${n.runId}\`, or Retry in the app): it continues from this step, which gets its retries afresh`);
  else
    lines.push(
      `4. Start again (\`ratchet restart ${n.runId}\`, or Start again in the app): no step is committed yet, so there is nothing for Retry to continue from`,
    );
  return lines;
}

export function attemptsSummary(attempts: readonly AttemptFacts[], remaining: readonly string[] = [], opts: SummaryOptions = {}): string {
  const lines = ['Attempts summary:'];
  if (opts.earlier)
    lines.push(`(${opts.earlier} earlier ${opts.earlier === 1 ? 'attempt' : 'attempts'} of this step, before this retry, are in the run's history)`);
  const described = attempts.map((a, i) => describeAttempt(a, attempts[i - 1], i + 1, opts.said));
  lines.push(...described);
  const already = [opts.said ?? '', ...described].join('\n');
  // An issue the reason or an attempt line already states is not listed again; an error class reads as its label.
  const issues = [...new Set(remaining.map(readableIssue))].filter((r) => {
    const message = r.replace(/^[^:]+: /, '');
    return !already.includes(r) && !(message.length >= 20 && already.includes(message));
  });
  if (issues.length) lines.push('Remaining issues:', ...issues.slice(0, 20).map((r) => `- ${r}`));
  if (issues.length > 20) lines.push(`- … and ${issues.length - 20} more`);
  return lines.join('\n');
}

/**
 * "test_failure: 1 test failed" reads "Test failure: 1 test failed". Only an error class is rewritten: a snake_case
 * test name ("test_player_health: Expected 100, got 0", seed 002) is the test's own name and stays as written.
 */
function readableIssue(issue: string): string {
  const m = /^([a-z_]+): /.exec(issue);
  return m && m[1]! in ERROR_CLASS_LABEL ? `${errorClassLabel(m[1]!)}: ${issue.slice(m[0].length)}` : issue;
}
