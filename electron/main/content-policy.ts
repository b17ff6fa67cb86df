// The app:// origin the renderer is served from, and the shared Content-Security-Policy; no electron import, so tests can use it.

/** Sent as a response header by the protocol handler; renderer/index.html carries the same policy in a <meta> as a fallback. */
export { CONTENT_SECURITY_POLICY } from '../../shared/content-policy';

export const APP_SCHEME = 'app';
export const APP_HOST = 'ratchet';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/**
 * True for URLs on our own app:// origin. WHATWG URL gives non-special schemes an opaque origin ("null"),
 * so scheme and host are compared instead of `.origin`.
 */
export function isAppUrl(url: string | null | undefined): boolean {
  if (!url) return false;
  try {
    const u = new URL(url);
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST && u.username === '' && u.password === '' && u.port === '';
  } catch {
    return false;
  }
}
