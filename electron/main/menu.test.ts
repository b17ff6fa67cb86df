// The application menu: File shortcuts, DevTools and reload only in development, macOS app menu.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';

vi.mock('electron', () => import('./testing/fake-electron'));
const fake = await import('./testing/fake-electron');
const { installMenu, menuTemplate } = await import('./menu');
const { createEventSender } = await import('./ipc');
const { MENU_COMMANDS } = await import('../../shared/menu-commands');

beforeEach(() => fake.resetFakeElectron());

const actions = () => ({ command: vi.fn(), showDataFolder: vi.fn() });
const items = (menu: MenuItemConstructorOptions | undefined) => (menu?.submenu ?? []) as MenuItemConstructorOptions[];
const roles = (menu: MenuItemConstructorOptions | undefined) =>
  items(menu)
    .map((i) => i.role)
    .filter(Boolean);
const find = (template: MenuItemConstructorOptions[], label: string) => template.find((m) => m.label === label || m.role === label);

describe('menuTemplate', () => {
  it('has File › New Task (Ctrl/Cmd+N), Open Repository… (Ctrl/Cmd+O), Settings… (Ctrl+,) and Quit', () => {
    const template = menuTemplate({ platform: 'linux', dev: false, appName: 'Ratchet' }, actions());
    expect(template.map((m) => m.label ?? m.role)).toEqual(['&File', '&Edit', '&View', '&Run', 'window', 'help']);
    const file = items(find(template, '&File'));
    expect(file.filter((i) => i.id).map((i) => [i.id, i.label, i.accelerator])).toEqual([
      ['newTask', 'New Task', 'CmdOrCtrl+N'],
      ['openRepo', 'Open Repository…', 'CmdOrCtrl+O'],
      ['settings', 'Settings…', 'CmdOrCtrl+,'],
    ]);
    expect(roles(find(template, '&File'))).toContain('quit');
    expect(items(find(template, '&Run')).map((i) => i.label)).toEqual(['Retry', 'Resume…', 'Stop']);
    expect(items(find(template, '&View'))[0]).toMatchObject({ id: 'dashboard', label: 'Dashboard' });
  });

  it.each(['linux', 'darwin', 'win32'] as const)('on %s every command of shared/menu-commands has exactly one enabled item', (platform) => {
    const template = menuTemplate({ platform, dev: false, appName: 'Ratchet' }, actions());
    const all = template.flatMap((m) => items(m));
    for (const c of MENU_COMMANDS) {
      const found = all.filter((i) => i.id === c);
      expect(found, c).toHaveLength(1);
      expect(found[0]!.enabled, c).not.toBe(false);
    }
  });

  it.each(MENU_COMMANDS.map((c) => [c]))('clicking %s sends app.onCommand with it through the contract', (c) => {
    const win = new fake.BrowserWindow({});
    const send = createEventSender(() => win.webContents as never);
    const template = menuTemplate(
      { platform: 'linux', dev: false, appName: 'Ratchet' },
      {
        command: (command) => {
          expect(send('app.onCommand', { command })).toBe(true);
        },
        showDataFolder: vi.fn(),
      },
    );
    const item = template.flatMap((m) => items(m)).find((i) => i.id === c)!;
    (item.click as () => void)();
    expect(win.webContents.sent).toEqual([{ channel: 'app.onCommand', payload: { command: c } }]);
  });

  it('on macOS Settings… (Cmd+,) is in the app menu, not in File', () => {
    const template = menuTemplate({ platform: 'darwin', dev: false, appName: 'Ratchet' }, actions());
    expect(items(template[0]).find((i) => i.id === 'settings')?.accelerator).toBe('CmdOrCtrl+,');
    expect(items(find(template, '&File')).find((i) => i.id === 'settings')).toBeUndefined();
  });

  it('offers reload and DevTools in development only; zoom and full screen always', () => {
    const prod = roles(find(menuTemplate({ platform: 'win32', dev: false, appName: 'Ratchet' }, actions()), '&View'));
    const dev = roles(find(menuTemplate({ platform: 'win32', dev: true, appName: 'Ratchet' }, actions()), '&View'));
    expect(prod).not.toContain('reload');
    expect(prod).not.toContain('forceReload');
    expect(prod).not.toContain('toggleDevTools');
    expect(dev).toEqual(expect.arrayContaining(['reload', 'toggleDevTools']));
    for (const r of ['resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen']) {
      expect(prod).toContain(r);
      expect(dev).toContain(r);
    }
  });

  it('has the standard edit roles, so copy and paste work in text fields', () => {
    const edit = roles(find(menuTemplate({ platform: 'linux', dev: false, appName: 'Ratchet' }, actions()), '&Edit'));
    expect(edit).toEqual(expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll']));
  });

  it('on macOS starts with the app menu, which holds Quit', () => {
    const template = menuTemplate({ platform: 'darwin', dev: false, appName: 'Ratchet' }, actions());
    expect(template[0]!.label).toBe('Ratchet');
    expect(roles(template[0])).toContain('quit');
    expect(roles(find(template, '&File'))).toContain('close');
  });

  it('installs the menu', () => {
    installMenu({ platform: 'linux', dev: false, appName: 'Ratchet' }, actions());
    expect(fake.Menu.setApplicationMenu).toHaveBeenCalledOnce();
  });
});
