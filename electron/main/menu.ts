// The application menu: File (New Task, Open Repository…, Settings, Quit), Edit, View (Dashboard; reload and DevTools in development only), Run (Retry, Resume, Stop), Window, Help.
import { Menu, type MenuItemConstructorOptions } from 'electron';
import { MENU_COMMAND_SPECS, MENU_COMMANDS, type MenuCommand } from '../../shared/menu-commands';

export interface MenuActions {
  /** Hands a command to the window (app.onCommand), which carries it out. */
  command(command: MenuCommand): void;
  showDataFolder(): void;
}

export interface MenuOptions {
  platform: NodeJS.Platform;
  dev: boolean;
  appName: string;
}

/** The menu item of one command; its id is the command's name. */
function commandItem(command: MenuCommand, actions: MenuActions): MenuItemConstructorOptions {
  const spec = MENU_COMMAND_SPECS[command];
  return {
    id: command,
    label: spec.label,
    ...(spec.accelerator ? { accelerator: spec.accelerator } : {}),
    click: () => actions.command(command),
  };
}

export function menuTemplate(options: MenuOptions, actions: MenuActions): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin';
  const items = (menu: 'file' | 'run' | 'view') =>
    MENU_COMMANDS.filter((c) => MENU_COMMAND_SPECS[c].menu === menu && !(mac && c === 'settings')).map((c) => commandItem(c, actions));
  const appMenu: MenuItemConstructorOptions[] = mac
    ? [
        {
          label: options.appName,
          submenu: [
            { role: 'about' },
            { type: 'separator' },
            // macOS keeps Settings… (Cmd+,) in the app menu.
            commandItem('settings', actions),
            { type: 'separator' },
            { role: 'services' },
            { type: 'separator' },
            { role: 'hide' },
            { role: 'hideOthers' },
            { role: 'unhide' },
            { type: 'separator' },
            { role: 'quit' },
          ],
        },
      ]
    : [];
  const file: MenuItemConstructorOptions = {
    label: '&File',
    submenu: [
      ...items('file'),
      { type: 'separator' },
      // On macOS Quit lives in the app menu and Cmd+W closes the window, as users there expect.
      mac ? { role: 'close' } : { role: 'quit' },
    ],
  };
  const edit: MenuItemConstructorOptions = {
    label: '&Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      ...(mac ? [{ role: 'pasteAndMatchStyle' } as const] : []),
      { role: 'delete' },
      { type: 'separator' },
      { role: 'selectAll' },
    ],
  };
  const view: MenuItemConstructorOptions = {
    label: '&View',
    submenu: [
      ...items('view'),
      { type: 'separator' },
      // Reloading drops the renderer's state and DevTools can run code in the page: development only.
      ...(options.dev
        ? [{ role: 'reload' } as const, { role: 'forceReload' } as const, { role: 'toggleDevTools' } as const, { type: 'separator' } as const]
        : []),
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };
  // Retry, Resume and Stop act on the run the window shows.
  const run: MenuItemConstructorOptions = { label: '&Run', submenu: items('run') };
  const windowMenu: MenuItemConstructorOptions = {
    role: 'window',
    submenu: mac ? [{ role: 'minimize' }, { role: 'zoom' }, { type: 'separator' }, { role: 'front' }] : [{ role: 'minimize' }, { role: 'close' }],
  };
  const help: MenuItemConstructorOptions = {
    role: 'help',
    submenu: [
      { id: 'show-data-folder', label: 'Show Data Folder', click: () => actions.showDataFolder() },
      ...(mac ? [] : [{ type: 'separator' } as const, { role: 'about' } as const]),
    ],
  };
  return [...appMenu, file, edit, view, run, windowMenu, help];
}

export function installMenu(options: MenuOptions, actions: MenuActions): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(options, actions)));
}
