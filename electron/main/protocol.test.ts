// app:// serves out/renderer with the CSP, and nothing outside it.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONTENT_SECURITY_POLICY } from './content-policy';

vi.mock('electron', () => import('./testing/fake-electron'));
const fake = await import('./testing/fake-electron');
const { handleAppProtocol, registerAppScheme, resolveAppPath, serveAppRequest } = await import('./protocol');

let root: string;
let outside: string;
beforeAll(() => {
  outside = mkdtempSync(join(tmpdir(), 'ratchet-protocol-'));
  root = join(outside, 'renderer');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Ratchet</title>');
  writeFileSync(join(root, 'assets', 'index-abc.js'), 'console.log("app")');
  writeFileSync(join(outside, 'secret.txt'), 'TOP SECRET');
});
beforeEach(() => fake.resetFakeElectron());

const get = (url: string, method = 'GET') => serveAppRequest(root, new Request(url, { method }));

describe('serveAppRequest', () => {
  it('serves index.html for the app root with the CSP header', async () => {
    const res = await get('app://ratchet/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toContain('<title>Ratchet</title>');
  });

  it('serves a script with a JavaScript type (module scripts need it) and the CSP', async () => {
    const res = await get('app://ratchet/assets/index-abc.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
  });

  it.each([
    'app://ratchet/../secret.txt',
    'app://ratchet/%2e%2e/secret.txt',
    'app://ratchet/..%2fsecret.txt',
    'app://ratchet/assets/..%2f..%2fsecret.txt',
    'app://ratchet/%2E%2E%2Fsecret.txt',
    'app://ratchet/..%5csecret.txt',
    'app://ratchet/%00index.html',
    'app://ratchet/%E0%A4%A',
  ])('refuses %s', async (url) => {
    const res = await get(url);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('TOP SECRET');
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
  });

  it('resolves nothing outside the folder, whatever the encoding', () => {
    expect(resolveAppPath(root, 'app://ratchet/..%2fsecret.txt')).toBeNull();
    expect(resolveAppPath(root, 'app://ratchet/assets/index-abc.js')).toBe(join(root, 'assets', 'index-abc.js'));
    // Dot segments that stay inside are fine.
    expect(resolveAppPath(root, 'app://ratchet/assets/../index.html')).toBe(join(root, 'index.html'));
  });

  it('serves nothing for another host or scheme', async () => {
    expect((await get('app://evil/index.html')).status).toBe(404);
    expect(resolveAppPath(root, 'file:///etc/passwd')).toBeNull();
  });

  it('answers a client-side route with the app shell, but a missing asset with 404', async () => {
    const route = await get('app://ratchet/runs/01HX');
    expect(route.status).toBe(200);
    expect(await route.text()).toContain('<title>Ratchet</title>');
    expect((await get('app://ratchet/assets/missing.js')).status).toBe(404);
  });

  it('refuses methods other than GET and HEAD', async () => {
    expect((await get('app://ratchet/index.html', 'POST')).status).toBe(405);
    const head = await get('app://ratchet/index.html', 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });
});

describe('registration', () => {
  it('registers app:// as standard and secure, without bypassing CSP or opening CORS', () => {
    registerAppScheme();
    const [schemes] = fake.protocol.registerSchemesAsPrivileged.mock.calls[0] as [Array<{ scheme: string; privileges: Record<string, boolean> }>];
    expect(schemes).toHaveLength(1);
    expect(schemes[0]!.scheme).toBe('app');
    expect(schemes[0]!.privileges).toMatchObject({ standard: true, secure: true });
    expect(schemes[0]!.privileges.bypassCSP).toBeFalsy();
    expect(schemes[0]!.privileges.corsEnabled).toBeFalsy();
  });

  it('handles app:// from the given folder', async () => {
    handleAppProtocol(root);
    const handler = fake.protocol.handlers.get('app')!;
    expect(handler).toBeDefined();
    const res = await handler(new Request('app://ratchet/index.html'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
  });
});
