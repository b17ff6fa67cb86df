// What a notification channel is, as data both sides of the process boundary read: its key, its target's schema, its words.
import { z } from 'zod';

/**
 * One channel (ntfy, the webhook, …). The workflow's `notify:` key, Settings' `notify`, the `notify.*` events' `target`,
 * the trust prompt, the Activity log and the Settings form are all derived from the list in `index.ts`; how a channel
 * sends is its engine half, in `electron/engine/notify/channels/`.
 */
export interface NotifyChannel<N extends string = string> {
  /** The key in `notify:`, in Settings' `notify` and the events' `target` (a stored shape: never renamed). */
  name: N;
  /** Its target, null for none (in a workflow: off for its runs, whatever Settings say); the messages are the user's. */
  target: z.ZodType<string | null>;
  /** How a sentence names it: "Notification sent to {to}". */
  to: string;
  /** Its field in Settings › Notifications. `help` may quote code between backticks. */
  field: { label: string; placeholder: string; help: string; invalid: string };
}

export function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/** An http(s) URL, or null; `what` names it in the refusal ("the webhook URL must be a full http:// or https:// URL, …"). */
export const targetUrl = (what: string, example: string) =>
  z
    .string({ error: `${what} is a URL in quotes, e.g. "${example}" (or null for none)` })
    .trim()
    .refine(isHttpUrl, `${what} must be a full http:// or https:// URL, e.g. ${example}`)
    .nullable();
