// The app:// scheme that serves the built renderer from out/renderer: a real origin for the CSP, no file:// and no path outside that folder.
import { protocol } from 'electron';
import { readFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { isBelow } from '../engine';
import { APP_HOST, APP_SCHEME, CONTENT_SECURITY_POLICY } from './content-policy';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

/**
 * Must run before app `ready`. `standard` gives app://ratchet a real origin (so 'self' in the CSP and relative
 * URLs work), `secure` makes it a secure context. Deliberately not `corsEnabled` (it would let other origins read
 * our files) and not `bypassCSP`.
 */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } }]);
}

/** After `ready`: answers every app:// request from `root` (out/renderer). */
export function handleAppProtocol(root: string): void {
  protocol.handle(APP_SCHEME, (request) => serveAppRequest(root, request));
}

/**
 * The file inside `root` that an app:// URL names, or null when the URL is not ours or would leave `root`
 * (`..`, encoded `%2e%2e` or `%2f`, backslashes on Windows, NUL bytes).
 */
export function resolveAppPath(root: string, url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(parsed.pathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0')) return null;
  if (pathname === '/' || pathname === '') pathname = '/index.html';
  const base = resolve(root);
  const file = resolve(base, `.${pathname.startsWith('/') ? pathname : `/${pathname}`}`);
  // Decoding happens before resolving, so an encoded `..` is caught here like a literal one.
  if (!isBelow(base, file)) return null;
  return file;
}

function headers(contentType: string): Headers {
  return new Headers({
    'Content-Type': contentType,
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-cache',
  });
}

function notFound(status = 404): Response {
  return new Response(status === 404 ? 'Not found' : 'Not allowed', { status, headers: headers('text/plain; charset=utf-8') });
}

async function readOrNull(file: string): Promise<Buffer | null> {
  try {
    return await readFile(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null;
    throw err;
  }
}

/** Serves one request; every answer, errors included, carries the CSP. */
export async function serveAppRequest(root: string, request: Request): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return notFound(405);
  const file = resolveAppPath(root, request.url);
  if (!file) return notFound(404);
  let body = await readOrNull(file);
  let type = CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
  if (!body && extname(file) === '') {
    // A reload on a client-side route (no extension) gets the app shell, as a web server for an SPA would.
    body = await readOrNull(resolve(root, 'index.html'));
    type = CONTENT_TYPES['.html']!;
  }
  if (!body) return notFound(404);
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers: headers(type) });
}
