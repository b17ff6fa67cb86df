// Test helpers for the headless host: a host over a fresh engine, plain HTTP gets, raw TCP requests and WebSocket connects.
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect as tcpConnect } from 'node:net';
import { join } from 'node:path';
import WebSocket from 'ws';
import { createEngine } from '../../engine/engine';
import { createService, type Service } from '../../engine/service/service';
import { TEST_SANDBOX_MODE } from '../../engine/testing/sandbox-mode';
import { tempDir } from '../../engine/testing/temp-repo';
import { startHost, type Host } from '../host';

export interface TestHost {
  host: Host;
  /** The app folder the host serves. */
  staticDir: string;
  service: Service;
  home: string;
  close(): Promise<void>;
}

/** A host serving a tiny app folder, over an engine in a fresh RATCHET_HOME (or `home`). */
export async function startTestHost(opts: { home?: string; port?: number } = {}): Promise<TestHost> {
  const staticDir = tempDir();
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Ratchet</title>');
  mkdirSync(join(staticDir, 'assets'));
  writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log(1)');
  const home = opts.home ?? tempDir();
  const engine = createEngine({ sandbox: TEST_SANDBOX_MODE, home, env: {} });
  const service = createService(engine, { host: 'headless', version: '0.0.0', env: {} });
  const host = await startHost({ service, staticDir, home, port: opts.port });
  return {
    host,
    service,
    home,
    staticDir,
    async close() {
      await host.close();
      await service.close();
      engine.close();
    },
  };
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function get(port: number, path: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += String(d)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Sends `text` as is over TCP and resolves with everything the host answered until it closed (or 3 s passed). */
export function raw(port: number, text: string): Promise<{ text: string; status: number | null }> {
  return new Promise((resolve) => {
    const socket = tcpConnect(port, '127.0.0.1');
    let got = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      const m = /^HTTP\/1\.1 (\d{3})/.exec(got);
      resolve({ text: got, status: m ? Number(m[1]) : null });
    };
    const timer = setTimeout(done, 3_000);
    socket.on('data', (d) => {
      got += String(d);
      // One complete answer is enough: the status line and the end of the headers.
      if (got.includes('\r\n\r\n')) setTimeout(done, 50);
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.write(text);
  });
}

export function connect(port: number, headers: Record<string, string>, path = '/api'): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`refused ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

/** Sends one message and resolves with the next one received. */
export function ask(ws: WebSocket, message: string): Promise<unknown> {
  return new Promise((resolve) => {
    ws.once('message', (d) => resolve(JSON.parse(String(d))));
    ws.send(message);
  });
}
