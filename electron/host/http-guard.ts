// The headless host's gatekeeping, as pure functions: exact Host allowlist, Origin check, token from the URL or the cookie.
import { timingSafeEqual } from 'node:crypto';

export const COOKIE = 'ratchet_token';

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

export function cookieToken(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === COOKIE) return decodeURIComponent(v.join('='));
  }
  return null;
}

export type GuardVerdict = { ok: true; setCookie: boolean } | { ok: false; status: number; reason: string };

/** Decides an HTTP request: Host must be ours; the token comes from `?token=` (then set as a cookie) or the cookie. */
export function guardHttp(req: { host: string | undefined; url: string; cookie: string | undefined }, port: number, token: string): GuardVerdict {
  if (!req.host || !allowedHosts(port).has(req.host)) return { ok: false, status: 403, reason: 'This address is not allowed (Host header). Use the URL that `ratchet serve` printed.' };
  const url = new URL(req.url, `http://${req.host}`);
  if (sameToken(url.searchParams.get('token'), token)) return { ok: true, setCookie: true };
  if (sameToken(cookieToken(req.cookie), token)) return { ok: true, setCookie: false };
  return { ok: false, status: 401, reason: 'Open the link that `ratchet serve` printed: it carries the access token for this session.' };
}

/** Decides a WebSocket upgrade: Host and Origin must be ours, and the cookie must carry the token. */
export function guardUpgrade(req: { host: string | undefined; origin: string | undefined; url: string; cookie: string | undefined }, port: number, token: string): GuardVerdict {
  if (!req.host || !allowedHosts(port).has(req.host)) return { ok: false, status: 403, reason: 'foreign Host' };
  if (!req.origin || !allowedOrigins(port).has(req.origin)) return { ok: false, status: 403, reason: 'foreign Origin' };
  if (new URL(req.url, `http://${req.host}`).pathname !== '/api') return { ok: false, status: 404, reason: 'no such endpoint' };
  if (!sameToken(cookieToken(req.cookie), token)) return { ok: false, status: 401, reason: 'no token' };
  return { ok: true, setCookie: false };
}
