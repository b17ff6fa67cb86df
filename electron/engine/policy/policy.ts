// The retry policy as data: the per-class limits, the presets, and how a workflow's settings combine with them.
import { ERROR_CLASSES, type ErrorClass } from '../../../shared/domain';
import type { Backoff, RetryEntry, Workflow } from '../workflow/schema';

export type Limits = Record<ErrorClass, number>;

/** The built-in table (max retries per error class). Non-retriable classes are 0. */
export const DEFAULT_LIMITS: Limits = {
  test_failure: 3,
  compilation_error: 2,
  crash: 2,
  timeout: 1,
  api_error: 5,
  rate_limit: 5,
  git_conflict: 1,
  missing_dependency: 0,
  permission_error: 0,
  resource_exhaustion: 0,
  /** The worktree's environment (setup, network, registry, a dependency declared but not installed): no agent attempt can fix it. */
  environment: 0,
  /** The agent tried to steer Ratchet's own processes (a rewritten .git file, a nested repository): never retried. */
  sandbox_violation: 0,
  no_change: 0,
  /** An attempt that changed no file: the agent is told once; a second attempt changing nothing is `no_change`. */
  empty_attempt: 1,
  /** A test-first step's test attempt broke its rule: retried like a test failure (its limit follows test_failure's). */
  tdd_violation: 3,
  unknown: 0,
};

/** Classes no agent attempt can fix: fail at once. */
export const NON_RETRIABLE: ReadonlySet<ErrorClass> = new Set([
  'missing_dependency',
  'permission_error',
  'resource_exhaustion',
  'environment',
  'sandbox_violation',
  'no_change',
]);
/** Classes that, once out of retries, hand the run to the user (paused) instead of failing it. */
export const ESCALATE_TO_USER: ReadonlySet<ErrorClass> = new Set(['unknown', 'git_conflict']);

export interface Preset {
  max_retries: number;
  gate_timeout_s: number;
  backoff: Backoff;
  daily_usd: number;
}

/** The built-in presets. */
export const PRESETS: Record<'conservative' | 'aggressive' | 'minimal', Preset> = {
  conservative: { max_retries: 3, gate_timeout_s: 300, backoff: { base_s: 60, max_s: 300, jitter: 0.1 }, daily_usd: 50 },
  aggressive: { max_retries: 5, gate_timeout_s: 600, backoff: { base_s: 30, max_s: 300, jitter: 0.1 }, daily_usd: 100 },
  minimal: { max_retries: 1, gate_timeout_s: 180, backoff: { base_s: 120, max_s: 300, jitter: 0.1 }, daily_usd: 20 },
};

export interface Policy {
  limits: Limits;
  /** Max retries for test failures (what "retry k/n" counts against). */
  maxRetries: number;
  backoff: Backoff;
  allowRetryOn: ReadonlySet<ErrorClass> | null;
  entries: readonly RetryEntry[];
  /** From the retry entries' `exit`: the attempt number at which the step is fatal. */
  exitAt: number | null;
  budget: { taskUsd: number | null; dailyUsd: number | null; alertAt: number };
  flakyCheck: boolean;
  onRepeat: { after: number; action: 'new_session' | 'stop' | 'escalate' | 'retry' };
  parkAfterS: number;
  rules: ReadonlyArray<{ pattern: string; class: ErrorClass }>;
}

/** The classes of a failing gate the agent's code can fix: a retry list's `exit` decides their retries when nothing else does. */
const EXIT_DECIDES: readonly ErrorClass[] = ['test_failure', 'compilation_error', 'crash', 'tdd_violation'];

/** Hard cap whatever the settings say, so no mix of classes can loop for ever. */
export const MAX_ATTEMPTS_PER_STEP = 25;

/**
 * Built-in defaults < preset < the workflow's own keys. `max_retries` sets test_failure and every class that
 * has no entry in the built-in table; `limits` sets any class explicitly.
 */
export function resolvePolicy(w: Workflow, over: PolicyOverrides = {}): ResolvedPolicy {
  const preset = w.preset ? PRESETS[w.preset] : null;
  const maxRetries = w.max_retries ?? preset?.max_retries ?? DEFAULT_LIMITS.test_failure;
  const limits: Limits = { ...DEFAULT_LIMITS, test_failure: maxRetries };
  for (const c of ERROR_CLASSES) {
    const v = w.limits?.[c];
    if (v !== undefined) limits[c] = v;
  }
  // The task's block, then the step, override the workflow's values for that task or step.
  const taskMax = over.task?.max_retries;
  const stepMax = over.step?.max_retries;
  if (taskMax !== undefined) limits.test_failure = taskMax;
  if (stepMax !== undefined) limits.test_failure = stepMax;
  // A retry list's `exit: N` is where gate failures stop. When nothing else sets how many retries the code's
  // own failures get (no max_retries or limits in the workflow, task or step), exit decides it, so a list
  // (attempts 1-2, 3-4, 5-7, exit 8) runs as written instead of stopping at the built-in default of 3 retries.
  const exits = (w.retry ?? []).map((e) => e.exit).filter((x): x is number => x !== undefined);
  const exitAt = exits.length ? Math.min(...exits) : null;
  if (exitAt !== null && w.max_retries === undefined && !preset && taskMax === undefined && stepMax === undefined) {
    for (const c of EXIT_DECIDES) if (w.limits?.[c] === undefined) limits[c] = Math.max(limits[c], exitAt - 1);
  }
  // A test-first violation is retried like a test failure: the same limit, unless `limits` names it.
  if (w.limits?.tdd_violation === undefined) limits.tdd_violation = limits.test_failure;
  const allow = over.task?.allow_retry_on ?? w.allow_retry_on;
  const taskUsd = over.raisedTaskUsd ?? w.budget?.task_usd ?? null;
  const base = preset?.backoff ?? { base_s: 60, max_s: 300, jitter: 0.1 };
  return {
    limits,
    maxRetries: limits.test_failure,
    backoff: { base_s: w.backoff?.base_s ?? base.base_s, max_s: w.backoff?.max_s ?? base.max_s, jitter: w.backoff?.jitter ?? base.jitter },
    allowRetryOn: allow ? new Set(allow) : null,
    entries: w.retry ?? [],
    exitAt,
    budget: {
      taskUsd,
      dailyUsd: w.budget?.daily_usd ?? preset?.daily_usd ?? null,
      alertAt: w.budget?.alert_at ?? 0.8,
    },
    flakyCheck: w.flaky_check,
    onRepeat: w.on_repeat,
    parkAfterS: w.park_after_s,
    rules: w.rules ?? [],
    timeoutSeconds: over.task?.timeout_seconds ?? w.timeout_seconds,
    sources: {
      max_retries:
        stepMax !== undefined
          ? 'step'
          : taskMax !== undefined
            ? 'task'
            : w.limits?.test_failure !== undefined || w.max_retries !== undefined
              ? 'workflow'
              : preset
                ? 'preset'
                : 'default',
      timeout_seconds: over.task?.timeout_seconds !== undefined ? 'task' : w.timeout_seconds !== DEFAULT_TIMEOUT_S ? 'workflow' : 'default',
      allow_retry_on: over.task?.allow_retry_on ? 'task' : w.allow_retry_on ? 'workflow' : 'default',
      backoff: w.backoff ? 'workflow' : preset ? 'preset' : 'default',
      task_usd: over.raisedTaskUsd !== undefined && over.raisedTaskUsd !== null ? 'raised' : w.budget?.task_usd !== undefined ? 'workflow' : 'default',
      daily_usd: w.budget?.daily_usd !== undefined ? 'workflow' : preset ? 'preset' : 'default',
      alert_at: w.budget ? 'workflow' : 'default',
    },
  };
}

/** Where a value of the policy came from, least to most specific; `raised`: `ratchet resume --budget` (or the app). */
export type PolicySource = 'default' | 'preset' | 'workflow' | 'task' | 'step' | 'raised';
export type PolicyKey = 'max_retries' | 'timeout_seconds' | 'allow_retry_on' | 'backoff' | 'task_usd' | 'daily_usd' | 'alert_at';

/** What overrides the workflow for one task or step (the per-task retry configuration). */
export interface PolicyOverrides {
  task?: { max_retries?: number; timeout_seconds?: number; allow_retry_on?: readonly ErrorClass[] } | null;
  step?: { max_retries?: number } | null;
  /** A task budget raised for this run after it paused for its budget. */
  raisedTaskUsd?: number | null;
}

/** The policy for one step, with the agent's per-attempt timeout and where each value came from. */
export interface ResolvedPolicy extends Policy {
  timeoutSeconds: number;
  sources: Record<PolicyKey, PolicySource>;
}

/** The schema's default for `timeout_seconds`. */
export const DEFAULT_TIMEOUT_S = 1800;

/** The gate timeout a preset gives gates that do not set one. */
export function presetGateTimeout(w: Workflow): number | null {
  return w.preset ? PRESETS[w.preset].gate_timeout_s : null;
}

/** A pull request's rounds (forge/pr-loop.ts): fix rounds per failing check, flaky failures tolerated, infrastructure re-runs per commit. */
export const CI_LIMIT_DEFAULTS = { ci_failure: 2, ci_flaky: 3, ci_infrastructure: 1 } as const;
export type CiLimits = { -readonly [K in keyof typeof CI_LIMIT_DEFAULTS]: number };

export function ciLimits(w: Pick<Workflow, 'limits'>): CiLimits {
  return {
    ci_failure: w.limits?.ci_failure ?? CI_LIMIT_DEFAULTS.ci_failure,
    ci_flaky: w.limits?.ci_flaky ?? CI_LIMIT_DEFAULTS.ci_flaky,
    ci_infrastructure: w.limits?.ci_infrastructure ?? CI_LIMIT_DEFAULTS.ci_infrastructure,
  };
}
