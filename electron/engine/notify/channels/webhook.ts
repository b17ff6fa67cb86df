// The webhook's sender: the notice's JSON body (WebhookPayload in shared/notify.ts, exactly its keys) to the URL.
import { withCredentials, type HttpRequest } from '../deliver';
import type { Notice } from '../messages';

export function webhookRequest(url: string, n: Notice): HttpRequest {
  const c = withCredentials(url);
  return { target: 'webhook', url: c.url, body: JSON.stringify(n.webhook), headers: { 'content-type': 'application/json', ...c.headers } };
}
