import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../engine/testing/temp-repo';
import { cookieName, guardHttp, guardUpgrade } from './http-guard';
import { staticFile } from './host';
import { ask, connect, get, startTestHost, type TestHost } from './testing/test-host';

let running: TestHost | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function start() {
  running = await startTestHost();
  return running.host;
}

describe('headless host', () => {
  it('binds 127.0.0.1, trades the URL token for an HttpOnly SameSite cookie, then serves the app with a strict CSP', async () => {
    const h = await start();
    expect(h.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}$/);
    const first = await get(h.port, `/?token=${h.token}`);
    expect(first.status).toBe(302);
    expect(first.headers.location).toBe('/');
    expect(first.headers['set-cookie']?.[0]).toMatch(new RegExp(`^ratchet_token_${h.port}_[0-9a-f]{16}=[\\w%-]+; HttpOnly; SameSite=Strict; Path=/$`));
    const cookie = `${h.cookie}=${h.token}`;
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
    const cookie = `${h.cookie}=${h.token}`;
    expect((await get(h.port, '/')).status).toBe(401);
    expect((await get(h.port, '/?token=wrong')).status).toBe(401);
    expect((await get(h.port, `/?token=${h.token}`, { host: 'evil.example:80' })).status).toBe(403);
    expect((await get(h.port, `/?token=${h.token}`, { host: `attacker.test:${h.port}` })).status).toBe(403);
    // Dot segments never leave the app folder: the worst a traversal gets is the app page or a 404.
    const traversal = await get(h.port, '/%2e%2e/%2e%2e/etc/passwd', { cookie });
    expect(traversal.body).not.toContain('root:');
    expect(traversal.body).toContain('<title>Ratchet</title>');
    expect((await get(h.port, '/assets/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fhosts.js', { cookie })).status).toBe(404);
  });

  it('serves the contract over the WebSocket, and refuses a foreign Origin, a foreign Host, or no token', async () => {
    const h = await start();
    const good = { origin: `http://127.0.0.1:${h.port}`, cookie: `${h.cookie}=${h.token}` };
    await expect(connect(h.port, { ...good, origin: 'http://evil.example' })).rejects.toThrow('refused 403');
    await expect(connect(h.port, { ...good, host: 'evil.example' })).rejects.toThrow('refused 403');
    await expect(connect(h.port, { origin: good.origin })).rejects.toThrow('refused 401');
    const ws = await connect(h.port, good);
    expect(await ask(ws, JSON.stringify({ id: 7, method: 'app.info', input: {} }))).toMatchObject({
      id: 7,
      result: { ok: true, value: { host: 'headless', demo: false } },
    });
    expect(await ask(ws, JSON.stringify({ id: 8, method: 'runs.get', input: { runId: 42 } }))).toMatchObject({
      id: 8,
      result: { ok: false, error: { code: 'bad_input' } },
    });
    ws.close();
  });
});

describe('guards (pure)', () => {
  const id = { port: 5, token: 't', cookie: cookieName(5, 'abc') };
  it('accepts only exact hosts and origins', () => {
    expect(guardHttp({ host: '127.0.0.1:5', url: '/?token=t', cookie: undefined }, id)).toMatchObject({ ok: true, setCookie: true });
    expect(guardHttp({ host: 'localhost:5', url: '/', cookie: 'a=b; ratchet_token_5_abc=t' }, id)).toMatchObject({ ok: true, setCookie: false });
    expect(guardHttp({ host: '127.0.0.1:6', url: '/?token=t', cookie: undefined }, id)).toMatchObject({ ok: false, status: 403 });
    expect(guardUpgrade({ host: '127.0.0.1:5', origin: 'http://127.0.0.1:5', url: '/api', cookie: 'ratchet_token_5_abc=t' }, id)).toMatchObject({ ok: true });
    expect(guardUpgrade({ host: '127.0.0.1:5', origin: 'http://127.0.0.1:5.evil.com', url: '/api', cookie: 'ratchet_token_5_abc=t' }, id)).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(guardUpgrade({ host: '127.0.0.1:5', origin: 'null', url: '/api', cookie: 'ratchet_token_5_abc=t' }, id)).toMatchObject({ ok: false });
  });
  it("reads only this instance's cookie, and answers 400 to what cannot be parsed", () => {
    // Another instance's cookie (or the old unscoped name) carries no token for this one.
    expect(guardHttp({ host: '127.0.0.1:5', url: '/', cookie: 'ratchet_token=t; ratchet_token_6_abc=t; ratchet_token_5_xyz=t' }, id)).toMatchObject({
      ok: false,
      status: 401,
    });
    expect(guardHttp({ host: '127.0.0.1:5', url: '/', cookie: 'ratchet_token_5_abc=%E0' }, id)).toMatchObject({ ok: false, status: 401 });
    expect(guardHttp({ host: '127.0.0.1:5', url: 'http://[', cookie: 'ratchet_token_5_abc=t' }, id)).toMatchObject({ ok: false, status: 400 });
    expect(guardHttp({ host: '127.0.0.1:5', url: '/%E0%A4%A', cookie: 'ratchet_token_5_abc=t' }, id)).toMatchObject({ ok: false, status: 400 });
    expect(guardUpgrade({ host: '127.0.0.1:5', origin: 'http://127.0.0.1:5', url: '/api?token=t', cookie: undefined }, id)).toMatchObject({ ok: true });
    expect(guardUpgrade({ host: '127.0.0.1:5', origin: 'http://127.0.0.1:5', url: '/api', cookie: 'ratchet_token=t' }, id)).toMatchObject({
      ok: false,
      status: 401,
    });
  });
  it('keeps static files inside the root', () => {
    const root = tempDir();
    writeFileSync(join(root, 'a.txt'), 'a');
    expect(staticFile(root, '/a.txt')).toBe(join(root, 'a.txt'));
    expect(staticFile(root, '/../../etc/passwd')).toBeNull();
    expect(staticFile(root, '/%E0%A4%A')).toBeNull();
  });
});
