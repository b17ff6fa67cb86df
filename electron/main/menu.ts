// The application menu: File (Open Repository…, New Task, Quit), Edit, View (reload and DevTools in development only), Window, Help.
import { Menu, type MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  openRepository(): void;
  /** Undefined while the contract has no event to tell the renderer; the item is then shown disabled. */
  newTask?: () => void;
  showDataFolder(): void;
}

export interface MenuOptions {
  platform: NodeJS.Platform;
  dev: boolean;
  appName: string;
}

export function menuTemplate(options: MenuOptions, actions: MenuActions): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin';
  const appMenu: MenuItemConstructorOptions[] = mac
    ? [{
        label: options.appName,
        submenu: [
          { role: 'about' }, { type: 'separator' }, { role: 'services' }, { type: 'separator' },
          { role: 'hide' }, { role: 'hideOthers' }, { role: 'unhide' }, { type: 'separator' }, { role: 'quit' },
        ],
      }]
    : [];
  const file: MenuItemConstructorOptions = {
    label: '&File',
    submenu: [
      { id: 'open-repository', label: 'Open Repository…', accelerator: 'CmdOrCtrl+O', click: () => actions.openRepository() },
      { id: 'new-task', label: 'New Task', accelerator: 'CmdOrCtrl+N', enabled: actions.newTask !== undefined, click: () => actions.newTask?.() },
      { type: 'separator' },
      // On macOS Quit lives in the app menu and Cmd+W closes the window, as users there expect.
      mac ? { role: 'close' } : { role: 'quit' },
    ],
  };
  const edit: MenuItemConstructorOptions = {
    label: '&Edit',
    submenu: [
      { role: 'undo' }, { role: 'redo' }, { type: 'separator' },
      { role: 'cut' }, { role: 'copy' }, { role: 'paste' },
      ...(mac ? [{ role: 'pasteAndMatchStyle' } as const] : []),
      { role: 'delete' }, { type: 'separator' }, { role: 'selectAll' },
    ],
  };
  const view: MenuItemConstructorOptions = {
    label: '&View',
    submenu: [
      // Reloading drops the renderer's state and DevTools can run code in the page: development only.
      ...(options.dev
        ? [{ role: 'reload' } as const, { role: 'forceReload' } as const, { role: 'toggleDevTools' } as const, { type: 'separator' } as const]
        : []),
      { role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }, { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };
  const windowMenu: MenuItemConstructorOptions = {
    role: 'window',
    submenu: mac
      ? [{ role: 'minimize' }, { role: 'zoom' }, { type: 'separator' }, { role: 'front' }]
      : [{ role: 'minimize' }, { role: 'close' }],
  };
  const help: MenuItemConstructorOptions = {
    role: 'help',
    submenu: [
      { id: 'show-data-folder', label: 'Show Data Folder', click: () => actions.showDataFolder() },
      ...(mac ? [] : [{ type: 'separator' } as const, { role: 'about' } as const]),
    ],
  };
  return [...appMenu, file, edit, view, windowMenu, help];
}

export function installMenu(options: MenuOptions, actions: MenuActions): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(options, actions)));
}
