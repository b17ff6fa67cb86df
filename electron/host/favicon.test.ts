// The favicon: every page load asked for /favicon.ico and got a 404. The page names its icon, the
// build carries it, and the host answers /favicon.ico with it too (browsers ask there anyway).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { get, startTestHost, type TestHost } from './testing/test-host';

const ROOT = join(import.meta.dirname, '..', '..');
let running: TestHost | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe('the favicon', () => {
  it('is named by the page, and shipped in the renderer’s public folder (copied into the build)', () => {
    const html = readFileSync(join(ROOT, 'renderer', 'index.html'), 'utf8');
    const href = /<link rel="icon" href="\.?\/?([^"]+)"/.exec(html)?.[1];
    expect(href).toBe('favicon.svg');
    expect(existsSync(join(ROOT, 'renderer', 'public', href!))).toBe(true);
  });

  it('is answered at /favicon.ico by the host, not a 404', async () => {
    running = await startTestHost();
    const { host } = running;
    // The test host's app folder, with the icon the build puts there.
    const cookie = `${host.cookie}=${host.token}`;
    const svg = readFileSync(join(ROOT, 'renderer', 'public', 'favicon.svg'));
    writeFileSync(join(running.staticDir, 'favicon.svg'), svg);
    const r = await get(host.port, '/favicon.ico', { cookie });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('image/svg+xml');
  });
});
