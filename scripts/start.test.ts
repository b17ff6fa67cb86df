// `npm start`'s decisions, as pure functions: Electron or the headless host, build or not, how to open a browser, Ctrl-C once.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  browserCommand,
  buildReason,
  createSignalForwarder,
  decideLaunch,
  electronEntry,
  findElectronBinary,
  hasDisplay,
  newestMtime,
  parseArgs,
  serveUrl,
} from './start.mjs';

const present = { ok: true as const, path: '/p/node_modules/electron/dist/electron' };
const absent = { ok: false as const, reason: 'node_modules/electron/dist/electron does not exist' };

describe('decideLaunch', () => {
  it('opens Electron when its binary is there and there is a display', () => {
    expect(decideLaunch({ platform: 'linux', env: { DISPLAY: ':0' }, electron: present, forceHeadless: false })).toEqual({
      mode: 'electron',
      binary: present.path,
    });
    expect(decideLaunch({ platform: 'linux', env: { WAYLAND_DISPLAY: 'wayland-0' }, electron: present, forceHeadless: false }).mode).toBe('electron');
    expect(decideLaunch({ platform: 'darwin', env: {}, electron: present, forceHeadless: false }).mode).toBe('electron');
    expect(decideLaunch({ platform: 'win32', env: {}, electron: present, forceHeadless: false }).mode).toBe('electron');
  });

  it('falls back to the headless host without the binary, and says why', () => {
    const d = decideLaunch({ platform: 'darwin', env: {}, electron: absent, forceHeadless: false });
    expect(d).toEqual({
      mode: 'headless',
      reason: "Electron's binary could not be downloaded here (node_modules/electron/dist/electron does not exist); starting the headless host instead.",
    });
  });

  it('falls back to the headless host without a display on Linux, and says why', () => {
    const d = decideLaunch({ platform: 'linux', env: { DISPLAY: '' }, electron: present, forceHeadless: false });
    expect(d.mode).toBe('headless');
    expect(d.mode === 'headless' && d.reason).toMatch(/no display.*DISPLAY.*WAYLAND_DISPLAY/);
  });

  it('names the missing binary before the missing display', () => {
    const d = decideLaunch({ platform: 'linux', env: {}, electron: absent, forceHeadless: false });
    expect(d.mode === 'headless' && d.reason).toMatch(/^Electron's binary could not be downloaded here/);
  });

  it('obeys --headless', () => {
    expect(decideLaunch({ platform: 'darwin', env: {}, electron: present, forceHeadless: true }).mode).toBe('headless');
  });
});

describe('hasDisplay', () => {
  it('needs DISPLAY or WAYLAND_DISPLAY on Linux and the BSDs only', () => {
    expect(hasDisplay('linux', {})).toBe(false);
    expect(hasDisplay('freebsd', {})).toBe(false);
    expect(hasDisplay('linux', { DISPLAY: ':1' })).toBe(true);
    expect(hasDisplay('darwin', {})).toBe(true);
    expect(hasDisplay('win32', {})).toBe(true);
  });
});

describe('findElectronBinary', () => {
  const files = (paths: Record<string, string>) => ({ exists: (p: string) => p in paths, readText: (p: string) => paths[p]! });

  it('finds dist/<path.txt> without requiring electron (which would try to download it)', () => {
    const fs = files({ [join('/e', 'path.txt')]: 'electron\n', [join('/e', 'dist', 'electron')]: '' });
    expect(findElectronBinary({ electronDir: '/e', env: {}, ...fs })).toEqual({ ok: true, path: join('/e', 'dist', 'electron') });
  });

  it('explains each way the binary can be missing', () => {
    expect(findElectronBinary({ electronDir: null, env: {}, ...files({}) })).toMatchObject({ ok: false, reason: expect.stringMatching(/not installed/) });
    expect(findElectronBinary({ electronDir: '/e', env: {}, ...files({}) })).toMatchObject({ ok: false, reason: expect.stringMatching(/no path\.txt/) });
    const onlyTxt = files({ [join('/e', 'path.txt')]: 'Electron.app/Contents/MacOS/Electron' });
    expect(findElectronBinary({ electronDir: '/e', env: {}, ...onlyTxt })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/Electron\.app.*does not exist/),
    });
  });

  it('honours ELECTRON_OVERRIDE_DIST_PATH as electron itself does', () => {
    const fs = files({ [join('/custom', 'electron')]: '' });
    expect(findElectronBinary({ electronDir: '/e', env: { ELECTRON_OVERRIDE_DIST_PATH: '/custom' }, ...fs })).toEqual({
      ok: true,
      path: join('/custom', 'electron'),
    });
    expect(findElectronBinary({ electronDir: '/e', env: { ELECTRON_OVERRIDE_DIST_PATH: '/nope' }, ...fs }).ok).toBe(false);
  });
});

describe('buildReason', () => {
  it('builds when an output is missing', () => {
    expect(buildReason([null, 5, 5], 1)).toBe('out/main/index.js is missing');
    expect(buildReason([null, null, null], 1)).toMatch(/are missing/);
  });
  it('builds when a source is newer than the oldest output, not otherwise', () => {
    expect(buildReason([10, 20, 30], 15)).toMatch(/changed/);
    expect(buildReason([10, 20, 30], 10)).toBeNull();
    expect(buildReason([10, 20, 30], 5)).toBeNull();
  });
});

describe('newestMtime', () => {
  it('walks folders, ignoring tests and node_modules', () => {
    const root = mkdtempSync(join(tmpdir(), 'ratchet-start-'));
    mkdirSync(join(root, 'src', 'node_modules'), { recursive: true });
    const touch = (p: string, t: number) => {
      writeFileSync(join(root, p), '');
      utimesSync(join(root, p), t, t);
    };
    touch('src/a.ts', 1000);
    touch('src/a.test.ts', 5000);
    touch('src/node_modules/x.js', 6000);
    touch('config.ts', 2000);
    expect(newestMtime(['src', 'config.ts', 'missing'], root)).toBe(2000 * 1000);
    expect(newestMtime(['src'], root)).toBe(1000 * 1000);
  });
});

describe('serveUrl', () => {
  it('reads the URL (with its token) from the line `ratchet serve` prints', () => {
    expect(serveUrl('Ratchet is at http://127.0.0.1:43117/?token=abc_DEF-123')).toBe('http://127.0.0.1:43117/?token=abc_DEF-123');
    expect(serveUrl('DEMO — a scripted agent')).toBeNull();
    expect(serveUrl('Ratchet is at http://0.0.0.0:80/')).toBeNull();
  });
});

describe('browserCommand', () => {
  const url = 'http://127.0.0.1:1/?token=t&demo=1';
  it('uses open, start or xdg-open', () => {
    expect(browserCommand('darwin', {}, url)).toEqual({ command: 'open', args: [url] });
    expect(browserCommand('linux', { DISPLAY: ':0' }, url)).toEqual({ command: 'xdg-open', args: [url] });
    expect(browserCommand('win32', {}, url)).toEqual({ command: 'cmd', args: ['/c', 'start', '""', 'http://127.0.0.1:1/?token=t^&demo=1'], verbatim: true });
  });
  it('does not try without a display on Linux, in CI, or with BROWSER=none', () => {
    expect(browserCommand('linux', {}, url)).toBeNull();
    expect(browserCommand('darwin', { CI: 'true' }, url)).toBeNull();
    expect(browserCommand('linux', { DISPLAY: ':0', BROWSER: 'none' }, url)).toBeNull();
  });
});

describe('createSignalForwarder', () => {
  it('passes one Ctrl-C on once even when npm and the terminal both deliver it', () => {
    let t = 0;
    const kill = vi.fn();
    const forward = createSignalForwarder(kill, () => t);
    expect(forward('SIGINT')).toBe(true);
    t = 200;
    expect(forward('SIGINT')).toBe(false);
    expect(forward('SIGTERM')).toBe(true);
    t = 5000;
    // A second Ctrl-C seconds later is the user insisting: it goes through.
    expect(forward('SIGINT')).toBe(true);
    expect(kill.mock.calls.map((c) => c[0])).toEqual(['SIGINT', 'SIGTERM', 'SIGINT']);
  });
});

describe('parseArgs', () => {
  it('reads --demo, --headless, --port and --no-open', () => {
    expect(parseArgs([])).toEqual({ demo: false, headless: false, open: true, port: null });
    expect(parseArgs(['--demo', '--headless', '--port', '8080', '--no-open'])).toEqual({ demo: true, headless: true, open: false, port: '8080' });
    expect(parseArgs(['--port=0'])).toMatchObject({ port: '0' });
  });
  it('refuses what it does not know', () => {
    expect(parseArgs(['--port', 'x'])).toHaveProperty('error');
    expect(parseArgs(['--port'])).toHaveProperty('error');
    expect(parseArgs(['--verbose'])).toEqual({ error: 'Unknown option --verbose.' });
  });
});

describe('electronEntry', () => {
  it('gives Electron the project folder when package.json names the built main, else the built file', () => {
    expect(electronEntry('/r', { main: 'out/main/index.js' })).toBe('/r');
    expect(electronEntry('/r', { main: './out/main/index.js' })).toBe('/r');
    expect(electronEntry('/r', {})).toBe(join('/r', 'out', 'main', 'index.js'));
  });
});

describe('the script', () => {
  it('runs nothing on import and exits 2 with usage on an unknown option', () => {
    const r = spawnSync(process.execPath, [join(import.meta.dirname, 'start.mjs'), '--bogus'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('Usage: npm start');
  });
});
