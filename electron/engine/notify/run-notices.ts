// One run's notifications: the engine calls these where a run ends, pauses, crosses alert_at or recovers; each reads the run's facts and sends, never throwing.
import type { Store } from '../store/store';
import { buildNotice, type FailureCause, type NeedsYouKind, type NoticeFacts, type StepRef } from './messages';
import { lastErrorClass } from './run-facts';
import { createNotifier, type Notifier, type NotifierOptions, type Targets } from './notifier';

/** How long the end of a run may wait for deliveries still in flight (the CLI exits right after). */
export const FLUSH_MS = 4000;

export interface RunNoticesOptions {
  store: Store;
  runId: string;
  targets: Targets;
  /** The run's cost so far (null when a price is unknown). */
  costUsd(): number | null;
  tuning?: NotifierOptions['tuning'];
  flushMs?: number;
  fetch?: typeof fetch;
}

type Rest<E extends NoticeFacts['event']> = Omit<Extract<NoticeFacts, { event: E }>, 'runId' | 'task' | 'repo' | 'status' | 'costUsd' | 'event'>;

export function createRunNotices(o: RunNoticesOptions) {
  const notifier: Notifier = createNotifier({
    targets: o.targets,
    fetch: o.fetch,
    tuning: o.tuning,
    report: ({ event, target, url, result }) => {
      if (result.ok) o.store.event(o.runId, 'notify.sent', { event, target, url, tries: result.tries });
      else o.store.event(o.runId, 'notify.failed', { event, target, url, tries: result.tries, reason: result.reason });
    },
  });

  function send<E extends NoticeFacts['event']>(event: E, rest: Rest<E>): void {
    if (!notifier.active) return;
    try {
      const run = o.store.getRun(o.runId);
      if (!run) return;
      const facts = {
        event,
        runId: o.runId,
        task: run.task_title,
        repo: run.repo_path,
        status: run.status,
        costUsd: o.costUsd(),
        ...rest,
      } as unknown as NoticeFacts;
      notifier.send(buildNotice(facts));
    } catch {
      // A notification is a courtesy: nothing about it may disturb the run.
    }
  }

  return {
    /** `cause`: the step's error class when the caller knows it (else the step's last attempt's), or 'internal'. */
    runFailed: (step: StepRef | null, attempts: number | null, maxAttempts: number | null, cause?: FailureCause) =>
      send('run.failed', { step, attempts, maxAttempts, cause: cause ?? (step ? lastErrorClass(o.store, o.runId, step.index) : null) }),
    runSucceeded: () => {
      const steps = o.store.getSteps(o.runId).filter((s) => s.status !== 'skipped');
      send('run.succeeded', {
        stepsDone: steps.filter((s) => s.status === 'succeeded').length,
        stepsTotal: steps.length,
        branch: o.store.getRun(o.runId)?.branch ?? '',
      });
    },
    needsYou: (step: StepRef | null, kind: NeedsYouKind, extra: { attempts?: number | null; maxAttempts?: number | null; wakeAt?: string | null } = {}) =>
      send('run.needs_you', {
        step,
        kind,
        attempts: extra.attempts ?? null,
        maxAttempts: extra.maxAttempts ?? null,
        wakeAt: extra.wakeAt ?? null,
        cause: kind === 'escalated' && step ? lastErrorClass(o.store, o.runId, step.index) : null,
      }),
    stepSucceededAfterRetry: (step: StepRef, attempts: number, maxAttempts: number) => send('step.succeeded_after_retry', { step, attempts, maxAttempts }),
    budgetAlert: (step: StepRef | null, budget: 'task' | 'daily', spentUsd: number, limitUsd: number) =>
      send('budget.alert', { step, budget, spentUsd, limitUsd }),
    /** Waits (bounded) for deliveries in flight, so a CLI run does not exit before they are sent or reported. */
    flush: () => notifier.flush(o.flushMs ?? FLUSH_MS).catch(() => undefined),
  };
}

export type RunNotices = ReturnType<typeof createRunNotices>;
