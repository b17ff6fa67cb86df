// The menu's commands, listed once: the native menu builds its items from this list and the renderer handles every one of them.

/** Every command a menu item (or its shortcut) can give the window, in menu order. */
export const MENU_COMMANDS = ['newTask', 'openRepo', 'retry', 'resume', 'stop', 'dashboard', 'settings'] as const;
export type MenuCommand = (typeof MENU_COMMANDS)[number];

export interface MenuCommandSpec {
  label: string;
  /** Electron accelerator; null: no shortcut (a stray key must not stop or restart a run). */
  accelerator: string | null;
  /** The menu it sits in; Settings goes to the app menu on macOS. */
  menu: 'file' | 'run' | 'view';
}

export const MENU_COMMAND_SPECS: Record<MenuCommand, MenuCommandSpec> = {
  newTask: { label: 'New Task', accelerator: 'CmdOrCtrl+N', menu: 'file' },
  openRepo: { label: 'Open Repository…', accelerator: 'CmdOrCtrl+O', menu: 'file' },
  retry: { label: 'Retry', accelerator: null, menu: 'run' },
  resume: { label: 'Resume…', accelerator: null, menu: 'run' },
  stop: { label: 'Stop', accelerator: null, menu: 'run' },
  dashboard: { label: 'Dashboard', accelerator: 'CmdOrCtrl+Shift+D', menu: 'view' },
  settings: { label: 'Settings…', accelerator: 'CmdOrCtrl+,', menu: 'file' },
};
