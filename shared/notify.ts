// Notifications: the targets (workflow `notify:` and Settings, derived from the channels in notify-channels/), the closed set of events, and the webhook's JSON body.
import { z } from 'zod';
import { RunStatus } from './domain';
import { NOTIFY_CHANNELS } from './notify-channels';

/** A channel's key: `ntfy`, `webhook` (the list is `NOTIFY_CHANNELS` in `shared/notify-channels/`). */
export type NotifyTarget = (typeof NOTIFY_CHANNELS)[number]['name'];
/** Each channel's target (null: none). */
export type NotifyTargets = { [K in NotifyTarget]: string | null };

const names = NOTIFY_CHANNELS.map((c) => c.name as NotifyTarget);
const byChannel = <T extends z.ZodType>(schema: (c: (typeof NOTIFY_CHANNELS)[number]) => T) =>
  Object.fromEntries(NOTIFY_CHANNELS.map((c) => [c.name, schema(c)]));

/** The `target` of the `notify.*` events. */
export const NotifyTargetName = z.enum(names as [NotifyTarget, ...NotifyTarget[]]);

/** No target at all (every channel null). */
export const NO_TARGETS = Object.freeze(Object.fromEntries(names.map((n) => [n, null]))) as NotifyTargets;

/** The workflow's `notify:` key: each target given here replaces the one in Settings for that run. */
export const WorkflowNotify = z.object(byChannel((c) => c.target.optional())).strict() as unknown as z.ZodObject<
  { [K in NotifyTarget]: z.ZodOptional<z.ZodType<string | null>> },
  z.core.$strict
>;
export type WorkflowNotify = z.infer<typeof WorkflowNotify>;

/** The user's targets in Settings (null: none). */
export const NotifySettings = z.object(byChannel((c) => c.target.default(null))).strict() as unknown as z.ZodObject<
  { [K in NotifyTarget]: z.ZodDefault<z.ZodType<string | null>> },
  z.core.$strict
>;
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
