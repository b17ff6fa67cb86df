// The retry policy as data: seed 002's per-class limits, the presets, and how a workflow's settings combine with them.
import { ERROR_CLASSES, type ErrorClass } from '../../../shared/domain';
import type { Backoff, RetryEntry, Workflow } from '../workflow/schema';

export type Limits = Record<ErrorClass, number>;

/** Seed 002's table (max retries per error class). Non-retriable classes are 0. */
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
  no_change: 0,
  unknown: 0,
};

/** Classes no agent attempt can fix: fail at once. */
export const NON_RETRIABLE: ReadonlySet<ErrorClass> = new Set(['missing_dependency', 'permission_error', 'resource_exhaustion', 'no_change']);
/** Classes that, once out of retries, hand the run to the user (paused) instead of failing it. */
export const ESCALATE_TO_USER: ReadonlySet<ErrorClass> = new Set(['unknown', 'git_conflict']);

export interface Preset {
  max_retries: number;
  gate_timeout_s: number;
  backoff: Backoff;
  daily_usd: number;
}

/** Seed 002's presets. */
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
  onRepeat: { after: number; action: 'stop' | 'escalate' | 'retry' };
  parkAfterS: number;
  rules: ReadonlyArray<{ pattern: string; class: ErrorClass }>;
}

/** Hard cap whatever the settings say, so no mix of classes can loop for ever. */
export const MAX_ATTEMPTS_PER_STEP = 25;

/**
 * Built-in defaults < preset < the workflow's own keys. `max_retries` sets test_failure and every class that
 * has no entry in seed 002's table; `limits` sets any class explicitly.
 */
export function resolvePolicy(w: Workflow): Policy {
  const preset = w.preset ? PRESETS[w.preset] : null;
  const maxRetries = w.max_retries ?? preset?.max_retries ?? DEFAULT_LIMITS.test_failure;
  const limits: Limits = { ...DEFAULT_LIMITS, test_failure: maxRetries };
  for (const c of ERROR_CLASSES) {
    const v = w.limits?.[c];
    if (v !== undefined) limits[c] = v;
  }
  const base = preset?.backoff ?? { base_s: 60, max_s: 300, jitter: 0.1 };
  const exits = (w.retry ?? []).map((e) => e.exit).filter((x): x is number => x !== undefined);
  return {
    limits,
    maxRetries: limits.test_failure,
    backoff: { base_s: w.backoff?.base_s ?? base.base_s, max_s: w.backoff?.max_s ?? base.max_s, jitter: w.backoff?.jitter ?? base.jitter },
    allowRetryOn: w.allow_retry_on ? new Set(w.allow_retry_on) : null,
    entries: w.retry ?? [],
    exitAt: exits.length ? Math.min(...exits) : null,
    budget: {
      taskUsd: w.budget?.task_usd ?? null,
      dailyUsd: w.budget?.daily_usd ?? preset?.daily_usd ?? null,
      alertAt: w.budget?.alert_at ?? 0.8,
    },
    flakyCheck: w.flaky_check,
    onRepeat: w.on_repeat,
    parkAfterS: w.park_after_s,
    rules: w.rules ?? [],
  };
}

/** The gate timeout a preset gives gates that do not set one. */
export function presetGateTimeout(w: Workflow): number | null {
  return w.preset ? PRESETS[w.preset].gate_timeout_s : null;
}
