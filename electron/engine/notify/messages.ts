// Pure: what a notification says (title, sentence, ntfy priority and tags, the webhook's JSON) for each event, from the run's state.
// Only Ratchet's own words: run, task title, status, step number and title, error class label, counts and cost. Nothing a
// sandboxed process produced (gate output, the agent's text, file names) is ever a field here: a notification leaves
// from Ratchet's own process, to hosts the sandbox cannot reach, so free text in it would be a way out for a secret.
import type { ErrorClass, RunStatus } from '../../../shared/domain';
import { errorClassLabel } from '../../../shared/error-classes';
import { money } from '../../../shared/money';
import type { NotifyEvent, NtfyPriority, WebhookPayload } from '../../../shared/notify';

/** Why a run waits for its user (`run.needs_you`). */
export type NeedsYouKind = 'escalated' | 'task_budget' | 'daily_budget' | 'approval';

interface RunFacts {
  runId: string;
  task: string;
  repo: string;
  status: RunStatus;
  costUsd: number | null;
}

export type NoticeFacts = RunFacts &
  (
    | { event: 'run.failed'; step: StepRef | null; attempts: number | null; maxAttempts: number | null; cause: FailureCause }
    | { event: 'run.succeeded'; stepsDone: number; stepsTotal: number; branch: string }
    | {
        event: 'run.needs_you';
        step: StepRef | null;
        attempts: number | null;
        maxAttempts: number | null;
        kind: NeedsYouKind;
        cause: FailureCause;
        wakeAt?: string | null;
      }
    | { event: 'step.succeeded_after_retry'; step: StepRef; attempts: number; maxAttempts: number }
    | { event: 'budget.alert'; step: StepRef | null; budget: 'task' | 'daily'; spentUsd: number; limitUsd: number }
  );

/** Why a step failed or stopped, as Ratchet names it: its error class, Ratchet's own internal error, or not known. */
export type FailureCause = ErrorClass | 'internal' | null;

export interface StepRef {
  index: number;
  title: string;
}

export interface Notice {
  event: NotifyEvent;
  /** ntfy's Title header. */
  title: string;
  /** The person's sentence: ntfy's body and the webhook's `message`. */
  body: string;
  priority: NtfyPriority;
  /** ntfy tags; names of emoji shortcodes show as the emoji. */
  tags: string[];
  webhook: WebhookPayload;
}

const usd = (n: number) => money(n);
const cost = (n: number | null, suffix = '') => (n === null ? `cost unknown${suffix}` : `${usd(n)}${suffix}`);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const stepName = (s: StepRef) => `step ${s.index} '${s.title}'`;
const causeText = (c: FailureCause, otherwise: string) =>
  c === 'internal' ? 'an internal error in Ratchet stopped it (ratchet status says more)' : c ? errorClassLabel(c) : otherwise;
/** What the user is waiting for, in Ratchet's words (the escalated step's class; the budget or the plan otherwise). */
const NEEDS_YOU_WHY: Record<NeedsYouKind, string> = {
  escalated: 'its attempts need a look',
  task_budget: 'it reached its task budget',
  daily_budget: "today's runs reached the daily budget",
  approval: 'the agent drafted its plan and nothing runs until you approve it',
};

/** Builds the notification for an event; every field comes from `facts`, nothing from the clock or the network. */
export function buildNotice(f: NoticeFacts): Notice {
  const run = `Run '${f.task}'`;
  let title: string;
  let body: string;
  let priority: NtfyPriority = 'default';
  let tags: string[];
  let step: number | null = null;
  let attempts: number | null = null;
  let maxAttempts: number | null = null;
  switch (f.event) {
    case 'run.failed': {
      title = `Ratchet: '${f.task}' failed`;
      priority = 'high';
      tags = ['x'];
      step = f.step?.index ?? null;
      attempts = f.attempts;
      maxAttempts = f.maxAttempts;
      const where = f.step ? ` at ${stepName(f.step)}${f.attempts !== null ? ` after ${plural(f.attempts, 'attempt')}` : ''}` : '';
      body = `${run} failed${where} (${cost(f.costUsd)}): ${causeText(f.cause, 'it failed')}. Next: ratchet retry ${f.runId}`;
      break;
    }
    case 'run.succeeded':
      title = `Ratchet: '${f.task}' succeeded`;
      tags = ['white_check_mark'];
      body = `${run} succeeded: ${f.stepsDone} of ${plural(f.stepsTotal, 'step')} committed on ${f.branch} (${cost(f.costUsd)}). Next: review the branch and merge it.`;
      break;
    case 'run.needs_you': {
      title = `Ratchet: '${f.task}' needs you`;
      tags = ['raising_hand'];
      step = f.step?.index ?? null;
      attempts = f.attempts;
      maxAttempts = f.maxAttempts;
      const at = f.step ? ` at ${stepName(f.step)}` : '';
      const next: Record<NeedsYouKind, string> = {
        escalated: `look at its attempts, fix the cause or revise the plan (ratchet plan ${f.runId} --edit <file>), then ratchet resume ${f.runId}`,
        task_budget: `ratchet resume ${f.runId} --budget <usd> gives it more and it continues where it paused`,
        daily_budget: `it waits for the next day${f.wakeAt ? ` (${f.wakeAt})` : ''}; raise the daily budget to continue sooner`,
        approval: `review the drafted plan, then ratchet resume ${f.runId} --approve`,
      };
      body = `${run} needs you${at} (${cost(f.costUsd)}): ${f.kind === 'escalated' ? causeText(f.cause, NEEDS_YOU_WHY.escalated) : NEEDS_YOU_WHY[f.kind]}. Next: ${next[f.kind]}`;
      break;
    }
    case 'step.succeeded_after_retry':
      title = `Ratchet: '${f.task}' recovered`;
      tags = ['white_check_mark', 'arrows_counterclockwise'];
      step = f.step.index;
      attempts = f.attempts;
      maxAttempts = f.maxAttempts;
      body = `${run}: ${stepName(f.step)} succeeded on attempt ${f.attempts}/${f.maxAttempts} (${cost(f.costUsd, ' so far')}). The run goes on.`;
      break;
    case 'budget.alert': {
      title = `Ratchet: budget alert`;
      tags = ['warning'];
      step = f.step?.index ?? null;
      const pct = f.limitUsd > 0 ? Math.round((f.spentUsd / f.limitUsd) * 100) : 0;
      body =
        f.budget === 'task'
          ? `${run} has spent ${usd(f.spentUsd)} of its ${usd(f.limitUsd)} task budget (${pct} %). It pauses when the budget is reached; ratchet resume ${f.runId} --budget <usd> then gives it more.`
          : `Today's runs have spent ${usd(f.spentUsd)} of the ${usd(f.limitUsd)} daily budget (${pct} %), the latest in run '${f.task}'. Runs wait for the next day when it is reached.`;
      break;
    }
  }
  return {
    event: f.event,
    title,
    body,
    priority,
    tags,
    webhook: { event: f.event, runId: f.runId, task: f.task, repo: f.repo, status: f.status, step, attempts, maxAttempts, costUsd: f.costUsd, message: body },
  };
}
