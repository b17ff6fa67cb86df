// The main window and the locks on it: isolated sandboxed renderer, no navigation, no new windows or webviews, no permissions.
import { app, BrowserWindow, shell, type Session, type WebContents } from 'electron';
import { countFromTitle } from '../../shared/run-groups';
import { APP_ENTRY_URL, isAppUrl } from './content-policy';

/** Every security-relevant preference spelled out, so a changed Electron default cannot loosen one silently. */

/** Only web pages go to the OS browser: file:, javascript:, smb: and custom schemes could run or open things locally. */
export function isSafeExternalUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname !== '';
  } catch {
    return false;
  }
}

export function openExternalSafely(url: string, open: (url: string) => Promise<void> = (u) => shell.openExternal(u)): boolean {
  if (!isSafeExternalUrl(url)) return false;
  open(url).catch(() => undefined);
  return true;
}

/**
 * The renderer needs no browser permission except writing to the clipboard (the Copy buttons), and only from our
 * own origin; camera, notifications (shown by the main process instead), geolocation, HID… are all refused.
 */
export function allowPermission(permission: string, origin: string | null | undefined): boolean {
  return permission === 'clipboard-sanitized-write' && isAppUrl(origin);
}

export function hardenSession(ses: Session): void {
  ses.setPermissionRequestHandler((_contents, permission, callback, details) => callback(allowPermission(permission, details.requestingUrl)));
  ses.setPermissionCheckHandler((_contents, permission, requestingOrigin) => allowPermission(permission, requestingOrigin));
  ses.setDevicePermissionHandler(() => false);
}

/**
 * Applied to every webContents the app creates (app `web-contents-created`): the page never leaves app://ratchet,
 * opens no window and attaches no <webview>; http(s) links go to the OS browser instead.
 */
export function hardenContents(contents: WebContents, open?: (url: string) => Promise<void>): void {
  contents.on('will-navigate', (event) => {
    event.preventDefault();
    openExternalSafely(event.url, open);
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openExternalSafely(url, open);
    return { action: 'deny' };
  });
}

export interface MainWindowOptions {
  preload: string;
  dev: boolean;
  open?: (url: string) => Promise<void>;
}

export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    // Every screen is laid out to work from 1024×700 up: the window cannot be made smaller.
    minWidth: 1024,
    minHeight: 700,
    title: 'Ratchet',
    // Shown once painted, so the user never sees a white flash.
    show: false,
    backgroundColor: '#16181d',
    // Written out here, not built elsewhere, so reviewers and static scanners (electronegativity) see every option.
    webPreferences: {
      preload: options.preload,
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
      // Middle-click (auxclick) could open links in new windows; the window-open handler denies them anyway.
      disableBlinkFeatures: 'Auxclick',
      // DevTools only outside a packaged build: the View menu offers them in development only, too.
      devTools: options.dev,
    },
  });
  hardenContents(win.webContents, options.open);
  // The renderer writes "(2) Ratchet" when two runs need the user: the same count goes on the dock/taskbar badge.
  win.on('page-title-updated', (_event, title: string) => app.setBadgeCount(countFromTitle(title)));
  win.once('ready-to-show', () => win.show());
  void win.loadURL(APP_ENTRY_URL);
  return win;
}
