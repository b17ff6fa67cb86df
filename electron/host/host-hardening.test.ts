// The host cannot be knocked over: malformed requests get a 4xx over raw TCP and the host keeps serving; its cookie is
// scoped to the instance (port and install id); the WebSocket wants the token, not only a right Origin.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../engine/testing/temp-repo';
import { ask, connect, get, raw, startTestHost, type TestHost } from './testing/test-host';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

const hosts: TestHost[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
});

async function start(home?: string) {
  const h = await startTestHost({ home });
  hosts.push(h);
  return h.host;
}

/** The requests that once took `ratchet serve` down, before and after authenticating. */
function malformed(port: number, cookie: string): Array<{ name: string; text: string; status: number }> {
  const host = `Host: 127.0.0.1:${port}\r\n`;
  const ws = `Origin: http://127.0.0.1:${port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n`;
  return [
    { name: 'request line GET http://[', text: `GET http://[ HTTP/1.1\r\n${host}\r\n`, status: 400 },
    { name: 'request line GET http://[ with the cookie', text: `GET http://[ HTTP/1.1\r\n${host}Cookie: ${cookie}\r\n\r\n`, status: 400 },
    { name: 'cookie ratchet_token=%E0', text: `GET / HTTP/1.1\r\n${host}Cookie: ratchet_token=%E0\r\n\r\n`, status: 401 },
    { name: "this instance's cookie =%E0", text: `GET / HTTP/1.1\r\n${host}Cookie: ${cookie.split('=')[0]}=%E0\r\n\r\n`, status: 401 },
    { name: 'path /%E0%A4%A', text: `GET /%E0%A4%A HTTP/1.1\r\n${host}\r\n`, status: 400 },
    { name: 'path /%E0%A4%A with the cookie', text: `GET /%E0%A4%A HTTP/1.1\r\n${host}Cookie: ${cookie}\r\n\r\n`, status: 400 },
    { name: 'upgrade to http://[', text: `GET http://[ HTTP/1.1\r\n${host}${ws}Cookie: ${cookie}\r\n\r\n`, status: 400 },
    { name: 'upgrade with cookie %E0', text: `GET /api HTTP/1.1\r\n${host}${ws}Cookie: ${cookie.split('=')[0]}=%E0\r\n\r\n`, status: 401 },
    { name: 'upgrade to /%E0%A4%A', text: `GET /%E0%A4%A HTTP/1.1\r\n${host}${ws}Cookie: ${cookie}\r\n\r\n`, status: 400 },
    { name: 'not HTTP at all', text: 'HELLO\r\n\r\n', status: 400 },
    { name: 'headers past the limit', text: `GET / HTTP/1.1\r\n${host}X-Big: ${'a'.repeat(20_000)}\r\n\r\n`, status: 431 },
  ];
}

describe('malformed requests', () => {
  it('each gets its 4xx over a raw socket, and the host keeps serving', async () => {
    const h = await start();
    const cookie = `${h.cookie}=${h.token}`;
    for (const req of malformed(h.port, cookie)) {
      const answer = await raw(h.port, req.text);
      expect(answer.status, `${req.name}: ${JSON.stringify(answer.text.slice(0, 200))}`).toBe(req.status);
      const page = await get(h.port, '/', { cookie });
      expect(page.status, `a normal request after ${req.name}`).toBe(200);
      expect(page.body).toContain('<title>Ratchet</title>');
    }
  });

  it('a WebSocket message that is not an object gets an error answer, and the connection keeps working', async () => {
    const h = await start();
    const ws = await connect(h.port, { origin: `http://127.0.0.1:${h.port}`, cookie: `${h.cookie}=${h.token}` });
    for (const bad of ['null', '42', '[1]', '"x"', '{', JSON.stringify({ id: 1, method: 'no.such', input: null })]) {
      expect(await ask(ws, bad), bad).toMatchObject({ result: { ok: false } });
    }
    expect(await ask(ws, JSON.stringify({ id: 2, method: 'app.info', input: {} }))).toMatchObject({ id: 2, result: { ok: true } });
    ws.close();
  });

  it('a real `ratchet serve` process survives all of them', async () => {
    const home = tempDir();
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'ratchet.mjs'), 'serve', '--port', '0'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, RATCHET_HOME: home },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((ok, fail) => {
        let out = '';
        let err = '';
        child.stderr.on('data', (d) => (err += String(d)));
        child.stdout.on('data', (d) => {
          out += String(d);
          const m = /Ratchet is at (\S+)/.exec(out);
          if (m) ok(m[1] as string);
        });
        child.once('exit', (code) => fail(new Error(`ratchet serve exited ${code}: ${err}`)));
      });
      const { port, searchParams } = new URL(url);
      const token = searchParams.get('token') as string;
      const id = readFileSync(join(home, 'install-id'), 'utf8').trim();
      const cookie = `ratchet_token_${port}_${id}=${token}`;
      for (const req of malformed(Number(port), cookie)) {
        expect((await raw(Number(port), req.text)).status, req.name).toBe(req.status);
      }
      expect(child.exitCode).toBeNull();
      // The app itself may not be built here: 200 with the page, or 503 saying so; either way it answered.
      expect([200, 503]).toContain((await get(Number(port), '/', { cookie })).status);
      expect((await get(Number(port), '/')).status).toBe(401);
    } finally {
      child.kill('SIGTERM');
      await new Promise((done) => (child.exitCode !== null ? done(null) : child.once('exit', done)));
    }
  }, 60_000);
});

describe('the token cookie belongs to one host instance', () => {
  it('two hosts on two ports (one install) have two cookies; neither accepts the other’s', async () => {
    const home = tempDir();
    const a = await start(home);
    const b = await start(home);
    expect(a.port).not.toBe(b.port);
    const setA = (await get(a.port, `/?token=${a.token}`)).headers['set-cookie']?.[0] ?? '';
    const setB = (await get(b.port, `/?token=${b.token}`)).headers['set-cookie']?.[0] ?? '';
    const nameA = setA.split('=')[0];
    const nameB = setB.split('=')[0];
    expect(nameA).toBe(a.cookie);
    expect(nameB).toBe(b.cookie);
    expect(nameA).not.toBe(nameB);
    // Same install id, different ports.
    expect(nameA?.split('_').at(-1)).toBe(nameB?.split('_').at(-1));
    // A browser sends both cookies to both ports: each host picks its own and both keep working.
    const both = `${a.cookie}=${a.token}; ${b.cookie}=${b.token}`;
    expect((await get(a.port, '/', { cookie: both })).status).toBe(200);
    expect((await get(b.port, '/', { cookie: both })).status).toBe(200);
    expect((await get(a.port, '/', { cookie: `${a.cookie}=${b.token}` })).status).toBe(401);
    expect((await get(b.port, '/', { cookie: `${a.cookie}=${a.token}` })).status).toBe(401);
  });

  it('the install id is kept under RATCHET_HOME and differs between installs', async () => {
    const home = tempDir();
    const first = await start(home);
    const id = readFileSync(join(home, 'install-id'), 'utf8').trim();
    expect(first.cookie).toBe(`ratchet_token_${first.port}_${id}`);
    const again = await start(home);
    expect(again.cookie).toBe(`ratchet_token_${again.port}_${id}`);
    const other = await start(tempDir());
    expect(other.cookie.split('_').at(-1)).not.toBe(id);
  });
});

describe('the WebSocket wants the token', () => {
  it('refuses an upgrade with the right Host and Origin but no token, another instance’s cookie or a wrong token; takes ?token=', async () => {
    const h = await start();
    const origin = `http://127.0.0.1:${h.port}`;
    await expect(connect(h.port, { origin })).rejects.toThrow('refused 401');
    await expect(connect(h.port, { origin, cookie: `ratchet_token=${h.token}` })).rejects.toThrow('refused 401');
    await expect(connect(h.port, { origin, cookie: `${h.cookie}=wrong` })).rejects.toThrow('refused 401');
    await expect(connect(h.port, { origin }, '/api?token=wrong')).rejects.toThrow('refused 401');
    const ws = await connect(h.port, { origin }, `/api?token=${h.token}`);
    expect(await ask(ws, JSON.stringify({ id: 1, method: 'app.info', input: {} }))).toMatchObject({ id: 1, result: { ok: true } });
    ws.close();
  });
});
