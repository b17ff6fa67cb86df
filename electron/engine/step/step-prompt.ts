// Pure parts of an attempt's start: the "attempt k of n" label, the prompt (step prompt, retry context or an entry's template) and the remaining issues of a failure.
import type { ErrorClass } from '../../../shared/domain';
import { outputForAgent } from '../gates/bounded-output';
import { formatFailures } from '../gates/format-failures';
import type { FailedTest } from '../gates/parse-failures';
import type { StepConfig } from '../workflow/schema';
import type { Failure } from '../failures/failure';
import { MAX_ATTEMPTS_PER_STEP, type Policy } from '../policy/policy';
import { renderTemplate, retryContext, stepPrompt, type TemplateState } from '../prompts/prompts';
import type { Accounting, MachineConfig, StepState } from './step-state';

const MAX_TEMPLATE_OUTPUT = 24_000;

/**
 * The n of "attempt k of n": the most attempts the policy can give the step in this round, given the classes that
 * failed so far (one initial attempt plus each class's retries, plus a test-first step's test attempt; the retry list's
 * `exit` and the hard cap bound it).
 * Never below k.
 */
export function attemptsLimit(policy: Policy, acct: Accounting, k: number, testFirst = 0): number {
  const seen: readonly ErrorClass[] = acct.classesSeen.length ? acct.classesSeen : ['test_failure'];
  // `testFirst`: a test-first step's test attempt, which is not a retry, comes before the implementation's first attempt.
  let n = 1 + testFirst + seen.reduce((sum, c) => sum + policy.limits[c], 0);
  // `exit: N` ends the step at attempt N, counting attempts that were not API faults.
  if (policy.entries.length && policy.exitAt !== null) n = Math.min(n, policy.exitAt - 1 + (acct.attempts - acct.entryAttempts));
  return Math.max(Math.min(n, MAX_ATTEMPTS_PER_STEP), k);
}

/** The failure's remaining issues, one line each (failing tests with expected/actual, else the error). */
export function remainingIssues(f: Failure): string[] {
  if (!f.failures.length) return [`${f.errorClass}: ${f.message}`];
  return f.failures.map((t: FailedTest) => {
    if (t.expected !== null || t.actual !== null) return `${t.name}: expected ${t.expected ?? '?'}, got ${t.actual ?? '?'}`;
    return t.message ? `${t.name}: ${t.message.split('\n')[0]}` : t.name;
  });
}

function templateState(
  f: Failure,
  diff: string | null,
  k: number,
  of: number,
  step: StepConfig,
  prev: TemplateState | undefined,
  errors: readonly string[],
): TemplateState {
  const gate: TemplateState = {};
  for (const [name, out] of Object.entries(f.outputs)) gate[name] = outputForAgent(out, MAX_TEMPLATE_OUTPUT);
  return {
    error: `${f.errorClass}: ${f.message}`,
    /** This attempt's failing tests and errors as entries (- **name** / Expected / Got / Location). */
    failures: formatFailures(f.failures),
    diff: diff ?? '',
    gate,
    attempt: k,
    max_attempts: of,
    step: { title: step.title, prompt: step.prompt },
    /** Every failure of this step so far, oldest first (the accumulated error context). */
    errors: errors.join('\n\n'),
    prev,
  };
}

export interface AttemptPrompt {
  prompt: string;
  /** The template state of this attempt (the next one sees it as {prev.*}); undefined without a previous failure. */
  state: TemplateState | undefined;
  errorLog: string[];
}

/**
 * The prompt of attempt `n` (k of `of` in its round). Without a previous failure it is the step's prompt; after one,
 * the retry context (or the active entry's template), after the step's prompt unless the session continues.
 */
export function attemptPrompt(cfg: MachineConfig, s: StepState, n: number, k: number, of: number, session: 'new' | 'continue'): AttemptPrompt {
  const base = stepPrompt(cfg.index, cfg.totalSteps, cfg.step, cfg.gateCommands);
  const f = s.lastFailure;
  if (!f) return { prompt: base, state: undefined, errorLog: s.errorLog };
  // The accumulated context: each failed attempt's failing tests (name / Expected / Got / Location) first, then
  // a bounded piece of the raw output.
  const parsed = f.failures.length ? `${formatFailures(f.failures)}\n` : '';
  const errorLog = [
    ...s.errorLog,
    `Attempt ${n - 1}: ${f.errorClass}: ${f.message}\n${parsed}${outputForAgent(f.gate?.output ?? '', f.failures.length ? 2000 : 4000)}`,
  ];
  const state = templateState(f, s.lastDiff, k, of, cfg.step, s.prev, errorLog);
  const active = s.acct.active;
  const notes = [...s.notes, ...(s.strategy ? [s.strategy.hint] : [])];
  const retry = active.prompt
    ? renderTemplate(active.prompt, state)
    : retryContext({
        attempt: k,
        maxAttempts: of,
        errorClass: f.errorClass,
        message: f.message,
        gateLabel: f.gate ? `the \`${f.gate.name}\` gate (\`${f.gate.command}\`, exit ${f.gate.exitCode ?? f.gate.signal ?? 'none'})` : 'the agent',
        output: f.gate?.output ?? f.message,
        failures: f.failures,
        hints: f.hints,
        previousDiff: s.lastDiff,
        notes,
        sinceResume: s.round > 0,
      });
  // A continued session already has the step's prompt; a new one needs it again (unless the entry replaced the prompt).
  const prompt = session === 'continue' || active.prompt ? retry : `${base}\n\n${retry}`;
  return { prompt, state, errorLog };
}

/** Files git names in conflict in a failure's output ("CONFLICT (content): Merge conflict in a.txt"). */
export function conflictFilesIn(text: string): string[] {
  const files = new Set<string>();
  for (const m of text.matchAll(/Merge conflict in (\S+)/g)) files.add(m[1]!);
  for (const m of text.matchAll(/CONFLICT \([^)]*\): (?!Merge conflict)(\S+)/g)) files.add(m[1]!);
  return [...files];
}
