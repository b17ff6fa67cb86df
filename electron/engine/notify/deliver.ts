// Delivers one notification request (a channel's sender builds it, channels/) over HTTP (Node's fetch): a short timeout per request, a few retries with backoff for network errors, 429 and 5xx.
import { setTimeout as delay } from 'node:timers/promises';
import type { NotifyTarget } from '../../../shared/notify';

export interface HttpRequest {
  target: NotifyTarget;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** A header value ntfy reads as UTF-8: plain ASCII as it is, anything else as an RFC 2047 encoded word (which ntfy decodes). */
export function headerText(text: string): string {
  const oneLine = text.replace(/[\r\n]+/g, ' ');
  return /^[\x20-\x7e]*$/.test(oneLine) ? oneLine : `=?UTF-8?B?${Buffer.from(oneLine, 'utf8').toString('base64')}?=`;
}

/**
 * fetch refuses a URL with credentials in it; `https://user:password@host/…` (ntfy's access control, a protected
 * webhook) becomes the same URL without them and a Basic Authorization header.
 */
export function withCredentials(url: string): { url: string; headers: Record<string, string> } {
  const u = new URL(url);
  if (!u.username && !u.password) return { url, headers: {} };
  const auth = `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`;
  u.username = '';
  u.password = '';
  return { url: u.toString(), headers: { authorization: `Basic ${Buffer.from(auth, 'utf8').toString('base64')}` } };
}

/**
 * What may be written about a target: its scheme and host. Paths, queries and credentials often are the secret
 * (an ntfy topic, a webhook's token), so they are never logged.
 */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname !== '/' || u.search ? '/…' : ''}`;
  } catch {
    return '(not a URL)';
  }
}

export interface DeliveryTuning {
  /** Per request (default 3 s). */
  timeoutMs: number;
  /** Retries after the first try, for network errors, timeouts, 429 and 5xx (default 2). */
  retries: number;
  /** Wait before retry k (1-based). */
  backoffMs: (k: number) => number;
}

export const DEFAULT_TUNING: DeliveryTuning = { timeoutMs: 3000, retries: 2, backoffMs: (k) => 250 * 3 ** (k - 1) };

export type Delivery = { ok: true; tries: number } | { ok: false; tries: number; reason: string };

class Permanent extends Error {}

function describe(err: unknown, timeoutMs: number, url: string): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError') return `no answer within ${(timeoutMs / 1000).toFixed(1)} s`;
  const cause = e?.cause;
  const text = cause?.code ? `${cause.code}${cause.message ? ` (${cause.message})` : ''}` : (cause?.message ?? e?.message ?? String(err));
  // Whatever the error says, the URL's path and query (the secret part) never reach the log.
  return text.split(url).join(redactUrl(url));
}

/** Sends `req`; resolves (never rejects) with whether it was delivered. `signal` abandons it (the run ended and will not wait longer). */
export async function deliver(
  req: HttpRequest,
  signal: AbortSignal,
  tuning: DeliveryTuning = DEFAULT_TUNING,
  fetchFn: typeof fetch = fetch,
): Promise<Delivery> {
  let reason = 'not tried';
  for (let tries = 1; tries <= tuning.retries + 1; tries++) {
    if (signal.aborted) return { ok: false, tries: tries - 1, reason: `${reason}; given up when the run ended` };
    try {
      const res = await fetchFn(req.url, {
        method: 'POST',
        headers: req.headers,
        body: req.body,
        signal: AbortSignal.any([signal, AbortSignal.timeout(tuning.timeoutMs)]),
        redirect: 'manual',
      });
      // The answer's body is not needed; reading it frees the connection.
      await res.arrayBuffer().catch(() => undefined);
      if (res.ok) return { ok: true, tries };
      reason = `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`;
      // A POST is not followed through a redirect (it would arrive as a GET, or not at all): the URL needs fixing.
      if (res.status >= 300 && res.status < 400) reason += '; the server redirects: write the address it redirects to (https?)';
      if (res.status !== 429 && res.status < 500) throw new Permanent(reason);
    } catch (err) {
      if (err instanceof Permanent) return { ok: false, tries, reason };
      if (signal.aborted) return { ok: false, tries, reason: 'not delivered before Ratchet stopped waiting for it (the run had ended)' };
      reason = describe(err, tuning.timeoutMs, req.url);
      // fetch refuses some ports outright (the Fetch standard's "bad ports"): trying again cannot help.
      if ((err as { cause?: { message?: string } }).cause?.message === 'bad port') {
        return { ok: false, tries, reason: `port ${new URL(req.url).port} is one fetch refuses to connect to; give the target another port` };
      }
      // A request that cannot even be built (a TypeError with no network cause) fails the same way every time.
      if (err instanceof TypeError && (err as { cause?: unknown }).cause === undefined) return { ok: false, tries, reason };
    }
    if (tries <= tuning.retries) await delay(tuning.backoffMs(tries), undefined, { signal }).catch(() => undefined);
  }
  return { ok: false, tries: tuning.retries + 1, reason };
}
