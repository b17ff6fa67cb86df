import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createEngine } from '../engine/engine';
import { createService, type Service } from '../engine/service';
import { tempDir } from '../engine/testing/temp-repo';
import { guardHttp, guardUpgrade } from './http-guard';
import { startHost, staticFile, type Host } from './host';
import { TEST_SANDBOX_MODE } from '../engine/testing/sandbox-mode';

let host: Host | undefined;
let service: Service | undefined;
afterEach(async () => {
  await host?.close();
  await service?.close();
  host = undefined;
});

async function start() {
  const staticDir = tempDir();
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Ratchet</title>');
  mkdirSync(join(staticDir, 'assets'));
  writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log(1)');
  const engine = createEngine({ sandbox: TEST_SANDBOX_MODE, home: tempDir(), env: {} });
  service = createService(engine, { host: 'headless', version: '0.0.0', env: {} });
  host = await startHost({ service, staticDir });
  return host;
}

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
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

function connect(port: number, headers: Record<string, string>): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api`, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`refused ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

describe('headless host', () => {
  it('binds 127.0.0.1, trades the URL token for an HttpOnly SameSite cookie, then serves the app with a strict CSP', async () => {
    const h = await start();
    expect(h.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}$/);
    const first = await get(h.port, `/?token=${h.token}`);
    expect(first.status).toBe(302);
    expect(first.headers.location).toBe('/');
    expect(first.headers['set-cookie']?.[0]).toMatch(/^ratchet_token=[\w%-]+; HttpOnly; SameSite=Strict; Path=\/$/);
    const cookie = `ratchet_token=${h.token}`;
    const page = await get(h.port, '/', { cookie });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Ratchet</title>');
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['access-control-allow-origin']).toBeUndefined();
    expect((await get(h.port, '/assets/app.js', { cookie })).body).toBe('console.log(1)');
    expect((await get(h.port, '/runs/abc', { cookie })).body).toContain('<title>Ratchet</title>');
  });

  it('refuses requests without the token, with a foreign Host, and path traversal', async () => {
    const h = await start();
    expect((await get(h.port, '/')).status).toBe(401);
    expect((await get(h.port, '/?token=wrong')).status).toBe(401);
    expect((await get(h.port, `/?token=${h.token}`, { host: 'evil.example:80' })).status).toBe(403);
    expect((await get(h.port, `/?token=${h.token}`, { host: `attacker.test:${h.port}` })).status).toBe(403);
    // Dot segments never leave the app folder: the worst a traversal gets is the app page or a 404.
    const traversal = await get(h.port, '/%2e%2e/%2e%2e/etc/passwd', { cookie: `ratchet_token=${h.token}` });
    expect(traversal.body).not.toContain('root:');
    expect(traversal.body).toContain('<title>Ratchet</title>');
    expect((await get(h.port, '/assets/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fhosts.js', { cookie: `ratchet_token=${h.token}` })).status).toBe(404);
  });

  it('serves the contract over the WebSocket, and refuses a foreign Origin, a foreign Host, or no token', async () => {
    const h = await start();
    const good = { origin: `http://127.0.0.1:${h.port}`, cookie: `ratchet_token=${h.token}` };
    await expect(connect(h.port, { ...good, origin: 'http://evil.example' })).rejects.toThrow('refused 403');
    await expect(connect(h.port, { ...good, host: 'evil.example' })).rejects.toThrow('refused 403');
    await expect(connect(h.port, { origin: good.origin })).rejects.toThrow('refused 401');
    const ws = await connect(h.port, good);
    const answer = await new Promise<unknown>((resolve) => {
      ws.once('message', (d) => resolve(JSON.parse(String(d))));
      ws.send(JSON.stringify({ id: 7, method: 'app.info', input: {} }));
    });
    expect(answer).toMatchObject({ id: 7, result: { ok: true, value: { host: 'headless', demo: false } } });
    const bad = await new Promise<unknown>((resolve) => {
      ws.once('message', (d) => resolve(JSON.parse(String(d))));
      ws.send(JSON.stringify({ id: 8, method: 'runs.get', input: { runId: 42 } }));
    });
    expect(bad).toMatchObject({ id: 8, result: { ok: false, error: { code: 'bad_input' } } });
    ws.close();
  });
});

describe('guards (pure)', () => {
  it('accepts only exact hosts and origins', () => {
    expect(guardHttp({ host: '127.0.0.1:5', url: '/?token=t', cookie: undefined }, 5, 't')).toEqual({ ok: true, setCookie: true });
    expect(guardHttp({ host: 'localhost:5', url: '/', cookie: 'a=b; ratchet_token=t' }, 5, 't')).toEqual({ ok: true, setCookie: false });
    expect(guardHttp({ host: '127.0.0.1:6', url: '/?token=t', cookie: undefined }, 5, 't')).toMatchObject({ ok: false, status: 403 });
    expect(guardUpgrade({ host: '127.0.0.1:5', origin: 'http://127.0.0.1:5', url: '/api', cookie: 'ratchet_token=t' }, 5, 't')).toMatchObject({ ok: true });
    expect(guardUpgrade({ host: '127.0.0.1:5', origin: 'http://127.0.0.1:5.evil.com', url: '/api', cookie: 'ratchet_token=t' }, 5, 't')).toMatchObject({ ok: false, status: 403 });
    expect(guardUpgrade({ host: '127.0.0.1:5', origin: 'null', url: '/api', cookie: 'ratchet_token=t' }, 5, 't')).toMatchObject({ ok: false });
  });
  it('keeps static files inside the root', () => {
    const root = tempDir();
    writeFileSync(join(root, 'a.txt'), 'a');
    expect(staticFile(root, '/a.txt')).toBe(join(root, 'a.txt'));
    expect(staticFile(root, '/../../etc/passwd')).toBeNull();
  });
});
