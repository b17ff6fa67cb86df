// The "Improvement suggestions": what the period's recorded attempts say about the retry policy, as findings with an action each (pure).
import type { ErrorClass } from '../../../shared/domain';
import type { Limits } from '../policy/policy';
import { money } from '../../../shared/money';

export interface Improvement {
  /** What the history shows, e.g. "Test failures were retried 4.2 times on average and fixed 30 % of the time". */
  finding: string;
  /** What to change, e.g. "lower max retries for test_failure to 2". */
  action: string;
  /** The error class the finding is about, when it is about one. */
  errorClass: ErrorClass | null;
}

/** Per error class over the period (from the summary tables, stats-load's classRecords): how the steps that failed with it fared. */
export interface ClassRecord {
  errorClass: ErrorClass;
  /** Steps with at least one failure of this class. */
  steps: number;
  /** The engine's retries after a failure of this class. */
  retries: number;
  /** Of those steps, the ones that passed later. */
  fixed: number;
  /** Fixed steps by the tries from their first failure of this class to the pass: 1, 2, 3, 4 or more. */
  fixedAfter: [number, number, number, number];
  /** Failures of this class that were not retried (the limit reached, or a class that is not retried). */
  givenUp: number;
}

export interface ImprovementInput {
  classes: readonly ClassRecord[];
  /** Steps that succeeded and the attempts they took (the summary's first-try rate). */
  successSteps: number;
  avgAttemptsPerSuccess: number | null;
  /** The retry limits in force (Settings' preset). */
  limits: Limits;
  /** Days in the period that cost more than the daily budget, and that budget (null: none set). */
  daysOverBudget?: number;
  dailyBudgetUsd?: number | null;
}

const LABEL: Partial<Record<ErrorClass, string>> = {
  test_failure: 'Test failures',
  compilation_error: 'Compilation errors',
  crash: 'Crashes',
  timeout: 'Timeouts',
  api_error: 'API errors',
  rate_limit: 'Rate limits',
  git_conflict: 'Git conflicts',
  empty_attempt: 'Attempts that changed nothing',
  tdd_violation: 'Test-first violations',
};
const label = (c: ErrorClass) => LABEL[c] ?? c.replace(/_/g, ' ').replace(/^./, (x) => x.toUpperCase());

/** The "→ consider …" advice for a class that keeps failing the same way. */
const ADVICE: Partial<Record<ErrorClass, string>> = {
  test_failure: 'give those steps the expected values and the test names they must satisfy',
  compilation_error: 'add a build or typecheck gate before the tests, and say in the step prompt which files compile together',
  timeout: 'raise the gate timeout or split slow suites',
  crash: 'give the crashing gate a `restart` command',
  api_error: 'check the API status page and lower concurrency',
  rate_limit: 'spread runs over time or raise your rate limits',
  git_conflict: 'rebase the base branch before starting, or split the step',
  empty_attempt: 'say in the step prompt which files the step must change',
  tdd_violation: 'say in those steps what the new test checks and where test files go (`tdd: { tests: [...] }`)',
};

const percent = (x: number) => `${Math.round(x * 100)} %`;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Steps with at least this many failures of one class are worth a suggestion. */
const MIN_STEPS = 3;

/**
 * Pure: the improvement suggestions, most useful first.
 * - A class retried a lot and rarely fixed, whose fixes all came within fewer retries than its limit: lower the limit to that.
 * - A class fixed almost always, with steps given up at the limit: raise the limit by one.
 * - Steps that failed on one class and were never fixed: the class's advice ("3 tasks repeatedly failed on … → consider …").
 * - A good first-try rate (≤ 1.8 attempts per successful step): keep the current task format ("Average 1.8 attempts
 *   suggests good first-try rate"); 2.5 or more: clearer acceptance criteria.
 * - Days over the daily budget: raise it or use a cheaper preset.
 */
export function improvementSuggestions(input: ImprovementInput): Improvement[] {
  const out: Improvement[] = [];
  const classes = [...input.classes].sort((x, y) => y.retries - x.retries || x.errorClass.localeCompare(y.errorClass));
  for (const r of classes) {
    if (r.steps < MIN_STEPS) continue;
    const limit = input.limits[r.errorClass];
    const avg = r.retries / r.steps;
    const rate = r.fixed / r.steps;
    const seen = `${label(r.errorClass)} were retried ${avg.toFixed(1)} times on average and fixed ${percent(rate)} of the time`;
    // The most retries a fix took (4 stands for 4 or more).
    const needed = r.fixedAfter.reduce((m, n, i) => (n > 0 ? i + 1 : m), 0);
    if (rate < 0.5 && limit > 0 && r.retries > 0) {
      const to = Math.max(needed, r.fixed ? 1 : 0);
      if (to < limit) {
        out.push({
          finding: `${seen}${r.fixed ? `; every fix came within ${plural(needed, 'retry', 'retries')}` : ''}`,
          action: to === 0 ? `stop retrying ${r.errorClass} (limit 0) and revise those steps instead` : `lower max retries for ${r.errorClass} to ${to}`,
          errorClass: r.errorClass,
        });
        continue;
      }
    }
    if (rate >= 0.8 && r.givenUp > 0 && limit > 0) {
      out.push({
        finding: `${seen}, but ${plural(r.givenUp, 'failure was', 'failures were')} given up at the limit of ${limit}`,
        action: `raise max retries for ${r.errorClass} to ${limit + 1}`,
        errorClass: r.errorClass,
      });
      continue;
    }
    const stuck = r.steps - r.fixed;
    if (stuck >= MIN_STEPS && ADVICE[r.errorClass]) {
      out.push({
        finding: `${plural(stuck, 'step')} that failed on ${label(r.errorClass).toLowerCase()} ${stuck === 1 ? 'was' : 'were'} never fixed`,
        action: `consider: ${ADVICE[r.errorClass]}`,
        errorClass: r.errorClass,
      });
    }
  }
  const avg = input.avgAttemptsPerSuccess;
  if (avg !== null && input.successSteps >= 5) {
    if (avg <= 1.8)
      out.push({
        finding: `Average ${avg.toFixed(1)} attempts per successful step suggests a good first-try rate`,
        action: 'continue the current task description format',
        errorClass: null,
      });
    else if (avg >= 2.5)
      out.push({
        finding: `Average ${avg.toFixed(1)} attempts per successful step: most steps need retries`,
        action: 'give steps clearer acceptance criteria (expected values, test names, file names)',
        errorClass: null,
      });
  }
  if (input.daysOverBudget && input.dailyBudgetUsd != null) {
    out.push({
      finding: `The daily budget of ${money(input.dailyBudgetUsd)} was exceeded on ${plural(input.daysOverBudget, 'day')}`,
      action: 'raise the daily budget in Settings, or use the minimal preset for large tasks',
      errorClass: null,
    });
  }
  return out;
}

/** One suggestion as the report writes it: the finding, then "→ action". */
export const improvementText = (i: Improvement) => `${i.finding} → ${i.action}`;
