// The headless host's gatekeeping, as pure functions: exact Host allowlist, Origin check, token from the URL or this instance's cookie.
import { timingSafeEqual } from 'node:crypto';

/** Every cookie name of the host starts with this; the rest names the instance (port and install id). */
export const COOKIE_PREFIX = 'ratchet_token';

/**
 * The cookie of one host instance. Browsers send a 127.0.0.1 cookie to every port, so the name carries the port and the
 * install's id: two `ratchet serve` (two ports, or two RATCHET_HOMEs) never overwrite or read each other's token.
 */
export function cookieName(port: number, installId: string): string {
  return `${COOKIE_PREFIX}_${port}_${installId}`;
}

/** Who a request must prove it talks to: this port, this token, this cookie. */
export interface HostIdentity {
  port: number;
  token: string;
  cookie: string;
}

export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

export function allowedOrigins(port: number): Set<string> {
  return new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
}

export function sameToken(given: string | null | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** decodeURIComponent that answers null for a malformed escape (`%E0`) instead of throwing. */
export function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** The value of cookie `name` in a Cookie header, or null (absent or malformed). */
export function cookieToken(cookieHeader: string | undefined, name: string): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return safeDecode(v.join('='));
  }
  return null;
}

/** The request target as a URL with a decodable path, or null when it is malformed (`http://[`, `/%E0%A4%A`). */
export function parseTarget(target: string, host: string): URL | null {
  let url: URL;
  try {
    url = new URL(target, `http://${host}`);
  } catch {
    return null;
  }
  return safeDecode(url.pathname) === null ? null : url;
}

export type GuardVerdict = { ok: true; setCookie: boolean; url: URL } | { ok: false; status: number; reason: string };

const MALFORMED = { ok: false, status: 400, reason: 'Malformed request.' } as const;

/** Decides an HTTP request: Host must be ours; the token comes from `?token=` (then set as a cookie) or the cookie. */
export function guardHttp(req: { host: string | undefined; url: string; cookie: string | undefined }, id: HostIdentity): GuardVerdict {
  if (!req.host || !allowedHosts(id.port).has(req.host))
    return { ok: false, status: 403, reason: 'This address is not allowed (Host header). Use the URL that `ratchet serve` printed.' };
  const url = parseTarget(req.url, req.host);
  if (!url) return MALFORMED;
  if (sameToken(url.searchParams.get('token'), id.token)) return { ok: true, setCookie: true, url };
  if (sameToken(cookieToken(req.cookie, id.cookie), id.token)) return { ok: true, setCookie: false, url };
  return { ok: false, status: 401, reason: 'Open the link that `ratchet serve` printed: it carries the access token for this session.' };
}

/** Decides a WebSocket upgrade: Host and Origin must be ours, and the token must come with it (this instance's cookie, or `?token=`). */
export function guardUpgrade(
  req: { host: string | undefined; origin: string | undefined; url: string; cookie: string | undefined },
  id: HostIdentity,
): GuardVerdict {
  if (!req.host || !allowedHosts(id.port).has(req.host)) return { ok: false, status: 403, reason: 'foreign Host' };
  if (!req.origin || !allowedOrigins(id.port).has(req.origin)) return { ok: false, status: 403, reason: 'foreign Origin' };
  const url = parseTarget(req.url, req.host);
  if (!url) return MALFORMED;
  if (url.pathname !== '/api') return { ok: false, status: 404, reason: 'no such endpoint' };
  if (!sameToken(cookieToken(req.cookie, id.cookie), id.token) && !sameToken(url.searchParams.get('token'), id.token))
    return { ok: false, status: 401, reason: 'no token' };
  return { ok: true, setCookie: false, url };
}
