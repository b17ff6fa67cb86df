// The headless host (`ratchet serve`): serves the built renderer and the contract over a WebSocket, on 127.0.0.1 only, behind a per-launch token.
// Nothing a client sends can take it down: a malformed request gets a 4xx, a handler that throws gets a 500, and it keeps serving.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { extname, join, normalize, resolve } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { dispatch } from '../../shared/contract';
import { CONTENT_SECURITY_POLICY } from '../../shared/content-policy';
import { isWithin, toCallError, type Service } from '../engine';
import { cookieName, guardHttp, guardUpgrade, safeDecode, type HostIdentity } from './http-guard';
import { installId } from './install-id';

export interface HostOptions {
  service: Service;
  staticDir: string;
  port?: number;
  token?: string;
  /** RATCHET_HOME: its install id goes into the cookie's name (without it, a per-launch id is used). */
  home?: string;
}

export interface Host {
  url: string;
  port: number;
  token: string;
  /** The name of this instance's token cookie: `ratchet_token_<port>_<install id>`. */
  cookie: string;
  close(): Promise<void>;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
};

/** Answers a raw socket (an upgrade or a parse error) with a bodiless status, then closes it. */
function refuseSocket(socket: Duplex, status: number): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(`HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  // end() flushes the answer first; a peer that never reads does not keep the socket.
  setTimeout(() => socket.destroy(), 1_000).unref();
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
  '.map': 'application/json',
};

function send(res: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(body);
}

/** A file under `root` for a URL path, or null; anything resolving outside `root` is refused. */
export function staticFile(root: string, urlPath: string): string | null {
  const decoded = safeDecode(urlPath);
  if (decoded === null) return null;
  const rel = normalize(decoded).replace(/^([/\\])+/, '');
  const full = resolve(root, rel);
  if (!isWithin(resolve(root), full)) return null;
  if (existsSync(full) && statSync(full).isFile()) return full;
  return null;
}

export async function startHost(opts: HostOptions): Promise<Host> {
  const token = opts.token ?? randomBytes(24).toString('base64url');
  let port = opts.port ?? 0;
  const wss = new WebSocketServer({ noServer: true, maxPayload: 8 * 1024 * 1024 });
  const clients = new Set<WebSocket>();

  const install = opts.home ? installId(opts.home) : randomBytes(8).toString('hex');
  // The port is known once listening (port 0 picks one); the cookie's name follows it.
  const id: HostIdentity = { port, token, cookie: cookieName(port, install) };

  function serveHttp(req: IncomingMessage, res: ServerResponse): void {
    const verdict = guardHttp({ host: req.headers.host, url: req.url ?? '/', cookie: req.headers.cookie }, id);
    if (!verdict.ok) return send(res, verdict.status, verdict.reason, { 'Content-Type': 'text/plain; charset=utf-8' });
    const { url } = verdict;
    if (verdict.setCookie) {
      // The token moves into an HttpOnly cookie, and the address bar loses it.
      url.searchParams.delete('token');
      return send(res, 302, '', {
        Location: `${url.pathname}${url.search}${url.hash}`,
        'Set-Cookie': `${id.cookie}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`,
      });
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'Method not allowed', { Allow: 'GET, HEAD' });
    if (!existsSync(join(opts.staticDir, 'index.html'))) {
      return send(res, 503, 'The app is not built yet: run `npm run build`, then reload.', { 'Content-Type': 'text/plain; charset=utf-8' });
    }
    // Browsers ask for /favicon.ico whatever the page names: the app's icon answers it.
    const path =
      url.pathname === '/' ? '/index.html' : url.pathname === '/favicon.ico' && !staticFile(opts.staticDir, '/favicon.ico') ? '/favicon.svg' : url.pathname;
    const file = staticFile(opts.staticDir, path) ?? (extname(url.pathname) ? null : join(opts.staticDir, 'index.html'));
    if (!file) return send(res, 404, 'Not found', { 'Content-Type': 'text/plain; charset=utf-8' });
    return send(res, 200, readFileSync(file), { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    try {
      serveHttp(req, res);
    } catch {
      // A bug must cost one request, never the host.
      if (!res.headersSent) send(res, 500, 'Internal error.', { 'Content-Type': 'text/plain; charset=utf-8' });
      else res.destroy();
    }
  });
  // Bytes that are not HTTP at all (Node's parser refuses them): 400, and the connection closes.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    refuseSocket(socket, err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400);
  });

  async function answer(ws: WebSocket, data: unknown): Promise<void> {
    let msg: unknown;
    try {
      msg = JSON.parse(String(data));
    } catch {
      msg = undefined;
    }
    if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) {
      ws.send(JSON.stringify({ id: null, result: { ok: false, error: { code: 'bad_message', message: 'Messages are JSON: { id, method, input }.' } } }));
      return;
    }
    const { id: callId, method, input } = msg as { id?: unknown; method?: unknown; input?: unknown };
    const result = await dispatch(opts.service.handlers, method, input, toCallError);
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ id: callId ?? null, result }));
  }

  server.on('upgrade', (req, socket, head) => {
    try {
      const verdict = guardUpgrade({ host: req.headers.host, origin: req.headers.origin, url: req.url ?? '/', cookie: req.headers.cookie }, id);
      if (!verdict.ok) return refuseSocket(socket, verdict.status);
      wss.handleUpgrade(req, socket, head, (ws) => {
        clients.add(ws);
        ws.on('close', () => clients.delete(ws));
        ws.on('error', () => ws.terminate());
        ws.on('message', (data) => {
          answer(ws, data).catch(() => {
            if (ws.readyState === ws.OPEN)
              ws.send(JSON.stringify({ id: null, result: { ok: false, error: { code: 'internal', message: 'The host could not answer this message.' } } }));
          });
        });
      });
    } catch {
      refuseSocket(socket, 400);
    }
  });

  const unsubscribe = opts.service.subscribe((event, payload) => {
    const text = JSON.stringify({ event, payload });
    for (const ws of clients) if (ws.readyState === ws.OPEN) ws.send(text);
  });
  const wake = setInterval(() => opts.service.wakeDue(), 15_000);
  wake.unref();
  opts.service.wakeDue();

  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => ok());
  });
  port = (server.address() as { port: number }).port;
  id.port = port;
  id.cookie = cookieName(port, install);
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    cookie: id.cookie,
    async close() {
      clearInterval(wake);
      unsubscribe();
      for (const ws of clients) ws.terminate();
      wss.close();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}
