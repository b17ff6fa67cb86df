// The application menu: File shortcuts, DevTools and reload only in development, macOS app menu.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';

vi.mock('electron', () => import('./testing/fake-electron'));
const fake = await import('./testing/fake-electron');
const { installMenu, menuTemplate } = await import('./menu');

beforeEach(() => fake.resetFakeElectron());

const actions = () => ({ openRepository: vi.fn(), newTask: vi.fn(), showDataFolder: vi.fn() });
const items = (menu: MenuItemConstructorOptions | undefined) => (menu?.submenu ?? []) as MenuItemConstructorOptions[];
const roles = (menu: MenuItemConstructorOptions | undefined) => items(menu).map((i) => i.role).filter(Boolean);
const find = (template: MenuItemConstructorOptions[], label: string) => template.find((m) => m.label === label || m.role === label);

describe('menuTemplate', () => {
  it('has File › Open Repository… (Ctrl/Cmd+O), New Task (Ctrl/Cmd+N) and Quit', () => {
    const a = actions();
    const template = menuTemplate({ platform: 'linux', dev: false, appName: 'Ratchet' }, a);
    expect(template.map((m) => m.label ?? m.role)).toEqual(['&File', '&Edit', '&View', 'window', 'help']);
    const file = items(find(template, '&File'));
    const open = file.find((i) => i.id === 'open-repository')!;
    const task = file.find((i) => i.id === 'new-task')!;
    expect([open.label, open.accelerator]).toEqual(['Open Repository…', 'CmdOrCtrl+O']);
    expect([task.label, task.accelerator, task.enabled]).toEqual(['New Task', 'CmdOrCtrl+N', true]);
    expect(roles(find(template, '&File'))).toContain('quit');
    (open.click as () => void)();
    (task.click as () => void)();
    expect(a.openRepository).toHaveBeenCalledOnce();
    expect(a.newTask).toHaveBeenCalledOnce();
  });

  it('shows New Task disabled when there is no way to reach the renderer', () => {
    const template = menuTemplate({ platform: 'linux', dev: false, appName: 'Ratchet' }, { openRepository: vi.fn(), showDataFolder: vi.fn() });
    expect(items(find(template, '&File')).find((i) => i.id === 'new-task')!.enabled).toBe(false);
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
