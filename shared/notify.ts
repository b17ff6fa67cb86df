// Notifications to ntfy and webhooks: the targets (workflow `notify:` and Settings), the closed set of events, and the webhook's JSON body.
import { z } from 'zod';
import { RunStatus } from './domain';

function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/** An http(s) URL; null switches the target off (in a workflow: off for its runs, whatever Settings say). */
const targetUrl = (what: string, example: string) =>
  z
    .string({ error: `${what} is a URL in quotes, e.g. "${example}" (or null for none)` })
    .trim()
    .refine(isHttpUrl, `${what} must be a full http:// or https:// URL, e.g. ${example}`)
    .nullable();

export const NtfyUrl = targetUrl('the ntfy topic URL', 'https://ntfy.example.com/my-ratchet-runs').refine(
  (u) => u === null || !isHttpUrl(u) || new URL(u).pathname.replace(/\/+$/, '') !== '',
  'the ntfy URL names its topic after the server, e.g. https://ntfy.example.com/my-ratchet-runs',
);
export const WebhookUrl = targetUrl('the webhook URL', 'https://hooks.example.com/ratchet');

/** The workflow's `notify:` key: each target given here replaces the one in Settings for that run. */
export const WorkflowNotify = z.object({ ntfy: NtfyUrl.optional(), webhook: WebhookUrl.optional() }).strict();
export type WorkflowNotify = z.infer<typeof WorkflowNotify>;

/** The user's targets in Settings (null: none). */
export const NotifySettings = z.object({ ntfy: NtfyUrl.default(null), webhook: WebhookUrl.default(null) }).strict();
export type NotifySettings = z.infer<typeof NotifySettings>;

/** The closed set of events Ratchet notifies about. */
export const NotifyEvent = z.enum(['run.failed', 'run.succeeded', 'run.needs_you', 'step.succeeded_after_retry', 'budget.alert']);
export type NotifyEvent = z.infer<typeof NotifyEvent>;

/** ntfy's priorities (its documented names); Ratchet uses `high` for failures and `default` for everything else. */
export type NtfyPriority = 'min' | 'low' | 'default' | 'high' | 'max';

/** The webhook's JSON body, exactly these keys. */
export const WebhookPayload = z
  .object({
    event: NotifyEvent,
    runId: z.string(),
    task: z.string(),
    /** The repository's path. */
    repo: z.string(),
    status: RunStatus,
    /** The step the event is about (1-based), null for a run-wide event with no step. */
    step: z.number().int().nullable(),
    /** Attempts the step made in this round, and the most its policy allows (null when not about a step's attempts). */
    attempts: z.number().int().nullable(),
    maxAttempts: z.number().int().nullable(),
    costUsd: z.number().nullable(),
    /** The same sentence the ntfy message carries. */
    message: z.string(),
  })
  .strict();
export type WebhookPayload = z.infer<typeof WebhookPayload>;

export type NotifyTarget = 'ntfy' | 'webhook';
