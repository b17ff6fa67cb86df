// A stand-in for the `electron` module in tests (`vi.mock('electron', () => import('./testing/fake-electron'))`): records what the shell asks of Electron.
import { EventEmitter } from 'node:events';
import { vi } from 'vitest';

type Listener = (...args: unknown[]) => unknown;

export class FakeWebContents extends EventEmitter {
  destroyed = false;
  focused = false;
  url = '';
  sent: Array<{ channel: string; payload: unknown }> = [];
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  mainFrame = { url: 'app://ratchet/index.html', parent: null };
  isDestroyed() {
    return this.destroyed;
  }
  send(channel: string, payload: unknown) {
    this.sent.push({ channel, payload });
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
    this.windowOpenHandler = handler;
  }
  /** Emits like Electron: an event object with preventDefault and, for navigation, its url. */
  fire(name: string, extra: Record<string, unknown> = {}, ...args: unknown[]) {
    const event = {
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
      ...extra,
    };
    this.emit(name, event, ...args);
    return event;
  }
}

export class BrowserWindow extends EventEmitter {
  static instances: BrowserWindow[] = [];
  static getAllWindows() {
    return BrowserWindow.instances.filter((w) => !w.destroyed);
  }
  webContents = new FakeWebContents();
  loadedUrl: string | null = null;
  destroyed = false;
  shown = false;
  constructor(readonly options: Record<string, unknown>) {
    super();
    BrowserWindow.instances.push(this);
  }
  loadURL(url: string) {
    this.loadedUrl = url;
    this.webContents.url = url;
    return Promise.resolve();
  }
  show() {
    this.shown = true;
  }
  isDestroyed() {
    return this.destroyed;
  }
  isMinimized() {
    return false;
  }
  restore() {}
  focus() {
    this.webContents.focused = true;
  }
  isFocused() {
    return this.webContents.focused;
  }
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

class FakeApp extends EventEmitter {
  ready = deferred();
  paths: Record<string, string> = {};
  isPackaged = false;
  quitCalls = 0;
  exitCode: number | null = null;
  reset() {
    this.removeAllListeners();
    this.ready = deferred();
    this.paths = { userData: '/tmp/ratchet-fake-userdata', appData: '/tmp/ratchet-fake-appdata' };
    this.isPackaged = false;
    this.quitCalls = 0;
    this.exitCode = null;
  }
  whenReady() {
    return this.ready.promise;
  }
  getPath(name: string) {
    return this.paths[name] ?? `/tmp/ratchet-fake-${name}`;
  }
  setPath(name: string, value: string) {
    this.paths[name] = value;
  }
  getAppPath() {
    return '/tmp/ratchet-fake-app';
  }
  getVersion() {
    return '0.1.0';
  }
  getName() {
    return 'Ratchet';
  }
  badgeCount = 0;
  setBadgeCount(n: number) {
    this.badgeCount = n;
    return true;
  }
  requestSingleInstanceLock() {
    return true;
  }
  quit() {
    this.quitCalls++;
    // Like Electron: quitting asks `will-quit` listeners, who may hold it off with preventDefault.
    const event = {
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
    };
    this.emit('will-quit', event);
  }
  exit(code: number) {
    this.exitCode = code;
  }
}

export const app = new FakeApp();
app.reset();

export const ipcMain = {
  handlers: new Map<string, Listener>(),
  handle: vi.fn((channel: string, fn: Listener) => {
    if (ipcMain.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    ipcMain.handlers.set(channel, fn);
  }),
  removeHandler: vi.fn((channel: string) => {
    ipcMain.handlers.delete(channel);
  }),
};

export const protocol = {
  registerSchemesAsPrivileged: vi.fn(),
  handlers: new Map<string, (request: Request) => Response | Promise<Response>>(),
  handle: vi.fn((scheme: string, fn: (request: Request) => Response | Promise<Response>) => {
    protocol.handlers.set(scheme, fn);
  }),
};

export const session = {
  defaultSession: {
    requestHandler: null as Listener | null,
    checkHandler: null as Listener | null,
    deviceHandler: null as Listener | null,
    setPermissionRequestHandler(fn: Listener) {
      this.requestHandler = fn;
    },
    setPermissionCheckHandler(fn: Listener) {
      this.checkHandler = fn;
    },
    setDevicePermissionHandler(fn: Listener) {
      this.deviceHandler = fn;
    },
  },
};

export const shell = {
  openExternal: vi.fn(async (_url: string) => undefined),
  openPath: vi.fn(async (_path: string) => ''),
};

export const dialog = {
  showOpenDialog: vi.fn(async (..._args: unknown[]) => ({ canceled: true, filePaths: [] as string[] })),
  showErrorBox: vi.fn(),
};

export const Menu = {
  current: null as unknown,
  buildFromTemplate: vi.fn((template: unknown) => ({ template })),
  setApplicationMenu: vi.fn((menu: unknown) => {
    Menu.current = menu;
  }),
};

export class Notification extends EventEmitter {
  static shown: Array<{ title: string; body: string }> = [];
  static isSupported() {
    return true;
  }
  constructor(readonly options: { title: string; body: string }) {
    super();
  }
  show() {
    Notification.shown.push(this.options);
  }
}

/** A reversible stand-in for OS encryption; its output never contains the plain text. */
export const safeStorage = {
  backend: 'gnome_libsecret' as string,
  available: true,
  isAsyncEncryptionAvailable: vi.fn(async () => safeStorage.available),
  encryptStringAsync: vi.fn(async (plain: string) => Buffer.from(`enc:${Buffer.from(plain).toString('base64').split('').reverse().join('')}`)),
  decryptStringAsync: vi.fn(async (data: Buffer) => {
    const text = data.toString();
    if (!text.startsWith('enc:')) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    return { result: Buffer.from(text.slice(4).split('').reverse().join(''), 'base64').toString(), shouldReEncrypt: false };
  }),
  getSelectedStorageBackend: vi.fn(() => safeStorage.backend),
};

export const contextBridge = { exposeInMainWorld: vi.fn() };
export const ipcRenderer = { invoke: vi.fn(), on: vi.fn(), removeListener: vi.fn(), send: vi.fn(), sendSync: vi.fn() };
export const webUtils = { getPathForFile: vi.fn((_file: unknown) => '/dropped/path') };

/** Fresh state between tests. */
export function resetFakeElectron(): void {
  app.reset();
  BrowserWindow.instances = [];
  ipcMain.handlers.clear();
  protocol.handlers.clear();
  Notification.shown = [];
  safeStorage.backend = 'gnome_libsecret';
  safeStorage.available = true;
  session.defaultSession.requestHandler = null;
  session.defaultSession.checkHandler = null;
  session.defaultSession.deviceHandler = null;
  Menu.current = null;
  vi.clearAllMocks();
}

export default {
  app,
  BrowserWindow,
  ipcMain,
  protocol,
  session,
  shell,
  dialog,
  Menu,
  Notification,
  safeStorage,
  contextBridge,
  ipcRenderer,
  webUtils,
};
