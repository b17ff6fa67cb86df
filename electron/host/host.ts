// The headless host (`ratchet serve`): serves the built renderer and the contract over a WebSocket, on 127.0.0.1 only, behind a per-launch token.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { dispatch } from '../../shared/contract';
import { CONTENT_SECURITY_POLICY } from '../../shared/content-policy';
import { toCallError, type Service } from '../engine/service';
import { COOKIE, guardHttp, guardUpgrade } from './http-guard';

export interface HostOptions {
  service: Service;
  staticDir: string;
  port?: number;
  token?: string;
}

export interface Host {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.json': 'application/json', '.woff2': 'font/woff2', '.ico': 'image/x-icon', '.map': 'application/json',
};

function send(res: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Security-Policy': CONTENT_SECURITY_POLICY, 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store', ...headers });
  res.end(body);
}

/** A file under `root` for a URL path, or null; anything resolving outside `root` is refused. */
export function staticFile(root: string, urlPath: string): string | null {
  const rel = normalize(decodeURIComponent(urlPath)).replace(/^([/\\])+/, '');
  const full = resolve(root, rel);
  if (full !== resolve(root) && !full.startsWith(resolve(root) + sep)) return null;
  if (existsSync(full) && statSync(full).isFile()) return full;
  return null;
}

export async function startHost(opts: HostOptions): Promise<Host> {
  const token = opts.token ?? randomBytes(24).toString('base64url');
  let port = opts.port ?? 0;
  const wss = new WebSocketServer({ noServer: true, maxPayload: 8 * 1024 * 1024 });
  const clients = new Set<WebSocket>();

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const verdict = guardHttp({ host: req.headers.host, url: req.url ?? '/', cookie: req.headers.cookie }, port, token);
    if (!verdict.ok) return send(res, verdict.status, verdict.reason, { 'Content-Type': 'text/plain; charset=utf-8' });
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    if (verdict.setCookie) {
      // The token moves into an HttpOnly cookie, and the address bar loses it.
      url.searchParams.delete('token');
      return send(res, 302, '', { Location: `${url.pathname}${url.search}${url.hash}`, 'Set-Cookie': `${COOKIE}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/` });
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'Method not allowed', { Allow: 'GET, HEAD' });
    if (!existsSync(join(opts.staticDir, 'index.html'))) {
      return send(res, 503, 'The app is not built yet: run `npm run build`, then reload.', { 'Content-Type': 'text/plain; charset=utf-8' });
    }
    const file = staticFile(opts.staticDir, url.pathname === '/' ? '/index.html' : url.pathname) ?? (extname(url.pathname) ? null : join(opts.staticDir, 'index.html'));
    if (!file) return send(res, 404, 'Not found', { 'Content-Type': 'text/plain; charset=utf-8' });
    return send(res, 200, readFileSync(file), { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
  });

  server.on('upgrade', (req, socket, head) => {
    const verdict = guardUpgrade({ host: req.headers.host, origin: req.headers.origin, url: req.url ?? '/', cookie: req.headers.cookie }, port, token);
    if (!verdict.ok) {
      socket.write(`HTTP/1.1 ${verdict.status} ${verdict.status === 401 ? 'Unauthorized' : verdict.status === 404 ? 'Not Found' : 'Forbidden'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      clients.add(ws);
      ws.on('close', () => clients.delete(ws));
      ws.on('message', async (data) => {
        let msg: { id?: unknown; method?: unknown; input?: unknown };
        try {
          msg = JSON.parse(String(data)) as typeof msg;
        } catch {
          ws.send(JSON.stringify({ id: null, result: { ok: false, error: { code: 'bad_message', message: 'Messages are JSON: { id, method, input }.' } } }));
          return;
        }
        const result = await dispatch(opts.service.handlers, msg.method, msg.input, toCallError);
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ id: msg.id ?? null, result }));
      });
    });
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
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    async close() {
      clearInterval(wake);
      unsubscribe();
      for (const ws of clients) ws.terminate();
      wss.close();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}
