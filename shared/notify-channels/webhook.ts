// The webhook channel's shareable half: any http(s) URL, how Ratchet names it, its Settings field.
import { targetUrl, type NotifyChannel } from './channel';

export const WebhookUrl = targetUrl('the webhook URL', 'https://hooks.example.com/ratchet');

export const webhook: NotifyChannel<'webhook'> = {
  name: 'webhook',
  target: WebhookUrl,
  to: 'the webhook',
  field: {
    label: 'Webhook URL',
    placeholder: 'none — e.g. https://hooks.example.com/ratchet',
    help: 'The same events as JSON: `{ event, runId, task, repo, status, step, attempts, maxAttempts, costUsd, message }`.',
    invalid: 'Give a valid webhook URL, or leave it empty.',
  },
};
