// The window's security options and its locks: navigation, new windows, webviews and permissions are refused.
import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => import('./testing/fake-electron'));
const fake = await import('./testing/fake-electron');
const { createMainWindow, hardenSession, isSafeExternalUrl, allowPermission } = await import('./window');

beforeEach(() => fake.resetFakeElectron());

describe('createMainWindow', () => {
  it('creates the window with exactly the security options, the preload, and loads app://ratchet', () => {
    const win = createMainWindow({ preload: '/app/out/preload/index.cjs', dev: false }) as unknown as InstanceType<typeof fake.BrowserWindow>;
    expect(win.options.webPreferences).toStrictEqual({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      disableBlinkFeatures: 'Auxclick',
      devTools: false,
    });
    expect(win.loadedUrl).toBe('app://ratchet/index.html');
    expect(win.options.show).toBe(false);
    win.emit('ready-to-show');
    expect(win.shown).toBe(true);
  });

  it('puts the count of runs that need the user, from the page title, on the dock badge', () => {
    const win = createMainWindow({ preload: '/p', dev: false }) as unknown as InstanceType<typeof fake.BrowserWindow>;
    win.emit('page-title-updated', {}, '(3) Ratchet');
    expect(fake.app.badgeCount).toBe(3);
    win.emit('page-title-updated', {}, 'Ratchet');
    expect(fake.app.badgeCount).toBe(0);
  });

  it('cannot be made smaller than 1024×700, the size every screen is laid out for (issue 13 item 3)', () => {
    const win = createMainWindow({ preload: '/p', dev: false }) as unknown as InstanceType<typeof fake.BrowserWindow>;
    expect(win.options).toMatchObject({ minWidth: 1024, minHeight: 700 });
    expect(win.options.width).toBeGreaterThanOrEqual(1024);
    expect(win.options.height).toBeGreaterThanOrEqual(700);
  });

  it('allows DevTools only in development', () => {
    const devTools = (dev: boolean) =>
      (createMainWindow({ preload: '/p', dev }) as unknown as { options: { webPreferences: { devTools: boolean } } }).options.webPreferences.devTools;
    expect(devTools(true)).toBe(true);
    expect(devTools(false)).toBe(false);
  });
});

describe('navigation and new windows', () => {
  function window() {
    return createMainWindow({ preload: '/p', dev: false }) as unknown as InstanceType<typeof fake.BrowserWindow>;
  }

  it('cancels every navigation, and hands only http(s) links to the OS browser', () => {
    const wc = window().webContents;
    for (const url of ['https://example.com/docs', 'app://ratchet/other.html', 'file:///etc/passwd', 'javascript:alert(1)', 'http://127.0.0.1:8080/']) {
      expect(wc.fire('will-navigate', { url }).defaultPrevented).toBe(true);
    }
    expect(fake.shell.openExternal.mock.calls.map((c) => c[0])).toEqual(['https://example.com/docs', 'http://127.0.0.1:8080/']);
  });

  it('denies every new window; an https link opens in the OS browser instead', () => {
    const wc = window().webContents;
    expect(wc.windowOpenHandler).not.toBeNull();
    expect(wc.windowOpenHandler!({ url: 'https://github.com/' })).toEqual({ action: 'deny' });
    expect(wc.windowOpenHandler!({ url: 'file:///C:/Windows/system32/calc.exe' })).toEqual({ action: 'deny' });
    expect(wc.windowOpenHandler!({ url: 'app://ratchet/index.html' })).toEqual({ action: 'deny' });
    expect(fake.shell.openExternal.mock.calls.map((c) => c[0])).toEqual(['https://github.com/']);
  });

  it('refuses to attach a <webview>', () => {
    const wc = window().webContents;
    expect(wc.fire('will-attach-webview').defaultPrevented).toBe(true);
  });

  it('opens in the OS browser only http and https URLs with a host', () => {
    expect(isSafeExternalUrl('https://anthropic.com')).toBe(true);
    expect(isSafeExternalUrl('http://localhost:3000/x')).toBe(true);
    for (const bad of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://server/share',
      'app://ratchet/',
      'vscode://x',
      'data:text/html,hi',
      'not a url',
      'https:',
    ]) {
      expect(isSafeExternalUrl(bad), bad).toBe(false);
    }
  });
});

describe('permissions', () => {
  it('denies every permission request and check, except clipboard writes from our own origin', () => {
    const ses = fake.session.defaultSession;
    hardenSession(ses as never);
    for (const permission of ['media', 'geolocation', 'notifications', 'openExternal', 'fullscreen', 'clipboard-read', 'hid', 'unknown']) {
      const callback = vi.fn();
      ses.requestHandler!(null, permission, callback, { requestingUrl: 'app://ratchet/index.html', isMainFrame: true });
      expect(callback, permission).toHaveBeenCalledWith(false);
      expect(ses.checkHandler!(null, permission, 'app://ratchet', {}), permission).toBe(false);
    }
    const cb = vi.fn();
    ses.requestHandler!(null, 'clipboard-sanitized-write', cb, { requestingUrl: 'app://ratchet/index.html', isMainFrame: true });
    expect(cb).toHaveBeenCalledWith(true);
    const foreign = vi.fn();
    ses.requestHandler!(null, 'clipboard-sanitized-write', foreign, { requestingUrl: 'https://evil.example/', isMainFrame: true });
    expect(foreign).toHaveBeenCalledWith(false);
    expect(ses.deviceHandler!({})).toBe(false);
  });

  it('allowPermission is closed by default', () => {
    expect(allowPermission('clipboard-sanitized-write', 'app://ratchet')).toBe(true);
    expect(allowPermission('clipboard-sanitized-write', 'app://ratchet.evil')).toBe(false);
    expect(allowPermission('clipboard-sanitized-write', null)).toBe(false);
    expect(allowPermission('media', 'app://ratchet')).toBe(false);
  });
});
