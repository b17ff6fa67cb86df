// Test helper: a real local HTTP server (node:http) that records every request and answers as told: status codes in turn, or never.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Captured {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface CaptureServer {
  /** http://127.0.0.1:<port> */
  url: string;
  requests: Captured[];
  /** Resolves once `n` requests have arrived (or rejects after `ms`). */
  waitFor(n: number, ms?: number): Promise<Captured[]>;
  close(): Promise<void>;
}

export interface CaptureOptions {
  /** Status codes for the first requests, in order; after them, `then` (default 200). */
  statuses?: number[];
  then?: number;
  /** Never answer (a server that hangs). */
  hang?: boolean;
}

export async function startCaptureServer(opts: CaptureOptions = {}): Promise<CaptureServer> {
  const requests: Captured[] = [];
  const statuses = [...(opts.statuses ?? [])];
  const waiters: Array<() => void> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      for (const w of waiters.splice(0)) w();
      if (opts.hang) return;
      res.statusCode = statuses.shift() ?? opts.then ?? 200;
      res.end(res.statusCode < 300 ? '{"id":"ok"}' : 'nope');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async waitFor(n, ms = 10_000) {
      const deadline = Date.now() + ms;
      while (requests.length < n) {
        if (Date.now() > deadline) throw new Error(`expected ${n} requests, got ${requests.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (bound, then closed). */
export async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}
