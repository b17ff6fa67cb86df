// The shell wired end to end under a fake electron, with the real engine and service on a temporary home.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '../../shared/testing/until';
import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { METHOD_NAMES } from '../../shared/contract';
import { startScriptedServer } from '../scripted/server';

vi.mock('electron', () => import('./testing/fake-electron'));
const fake = await import('./testing/fake-electron');
const { repoPathFor, repoPathsFromArgv, runShell } = await import('./shell');

type Win = InstanceType<typeof fake.BrowserWindow>;

let base: string;
beforeEach(() => {
  fake.resetFakeElectron();
  base = mkdtempSync(join(tmpdir(), 'ratchet-shell-'));
  fake.app.setPath('userData', join(base, 'userData'));
  mkdirSync(join(base, 'renderer'), { recursive: true });
  writeFileSync(join(base, 'renderer', 'index.html'), '<!doctype html><title>Ratchet</title>');
});

async function boot(env: NodeJS.ProcessEnv = {}) {
  runShell({
    env: { RATCHET_HOME: join(base, 'home'), ...env },
    argv: ['electron', fake.app.getAppPath()],
    cwd: base,
    platform: 'linux',
    preload: '/app/out/preload/index.cjs',
    rendererDir: join(base, 'renderer'),
  });
  const repo = mkdtempSync(join(base, 'dropped-'));
  // macOS can deliver open-file before ready; the path must wait for the renderer.
  fake.app.emit('open-file', { preventDefault() {} }, repo);
  fake.app.ready.resolve();
  const win = await until(() => fake.BrowserWindow.instances[0] as Win | undefined, { ms: 4000, describe: 'the window' });
  const call = (method: string, input: unknown, sender: unknown = win.webContents) =>
    fake.ipcMain.handlers.get(method)!({ sender, senderFrame: { url: 'app://ratchet/index.html', parent: null } }, input) as Promise<{
      ok: boolean;
      value?: unknown;
      error?: { code: string };
    }>;
  return { win, call, repo };
}

async function quit() {
  fake.app.quit();
  await until(() => fake.app.quitCalls >= 2, { ms: 4000, describe: 'the second quit' });
}

describe('runShell', () => {
  it('opens the app window on app://, binds every contract method, and serves the engine through IPC', async () => {
    const { win, call } = await boot();
    expect(win.loadedUrl).toBe('app://ratchet/index.html');
    expect((win.options.webPreferences as Record<string, unknown>).preload).toBe('/app/out/preload/index.cjs');
    expect([...fake.ipcMain.handlers.keys()].sort()).toEqual([...METHOD_NAMES].sort());
    expect(fake.protocol.handlers.has('app')).toBe(true);
    expect(fake.session.defaultSession.requestHandler).not.toBeNull();
    expect(fake.Menu.setApplicationMenu).toHaveBeenCalled();

    const info = await call('app.info', {});
    expect(info).toEqual({ ok: true, value: { version: '0.1.0', host: 'electron', demo: false, home: join(base, 'home') } });
    expect(await call('runs.list', {})).toEqual({ ok: true, value: [] });
    expect(await call('app.info', {}, new fake.FakeWebContents())).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    await quit();
  });

  it('sends a folder opened before the renderer was up once the renderer has called in', async () => {
    const { win, call, repo } = await boot();
    expect(win.webContents.sent).toEqual([]);
    await call('app.info', {});
    expect(win.webContents.sent).toEqual([{ channel: 'app.onOpenRepo', payload: { path: repo } }]);
    await quit();
  });

  it('backs repos.pick with the folder dialog', async () => {
    const { call } = await boot();
    fake.dialog.showOpenDialog.mockResolvedValueOnce({ canceled: false, filePaths: ['/home/me/code/game'] });
    expect(await call('repos.pick', {})).toEqual({ ok: true, value: { path: '/home/me/code/game' } });
    expect(fake.dialog.showOpenDialog.mock.calls[0]![1]).toMatchObject({ properties: ['openDirectory'] });
    expect(await call('repos.pick', {})).toEqual({ ok: true, value: { path: null } });
    await quit();
  });

  it('saves the API key encrypted under userData and reports it in settings', async () => {
    // The key is checked with the API before it is written: the scripted server stands in for it.
    const api = await startScriptedServer({ script: { rules: [] } });
    onTestFinished(() => api.close());
    const { call } = await boot({ ANTHROPIC_BASE_URL: api.url });
    const set = await call('settings.setApiKey', { key: 'sk-ant-shell-test' });
    expect(set).toMatchObject({ ok: true, value: { apiKeySet: true, apiKeySource: 'safe_storage', apiKeyWarning: null } });
    const file = join(base, 'userData', 'api-key.enc');
    expect(readFileSync(file, 'utf8')).not.toContain('sk-ant-shell-test');
    fake.safeStorage.backend = 'basic_text';
    expect(await call('settings.get', {})).toMatchObject({ ok: true, value: { apiKeyWarning: expect.stringContaining('keyring') } });
    await quit();
  });

  it('on quit closes the service and removes the IPC handlers before letting the app go', async () => {
    await boot();
    await quit();
    expect(fake.ipcMain.handlers.size).toBe(0);
  });

  it('tells the user with an error box when the engine cannot start', async () => {
    // A file where the home folder should be: the store cannot be opened.
    writeFileSync(join(base, 'not-a-folder'), 'x');
    runShell({ env: { RATCHET_HOME: join(base, 'not-a-folder') }, argv: [], cwd: base, platform: 'linux', preload: '/p', rendererDir: join(base, 'renderer') });
    fake.app.ready.resolve();
    await until(() => fake.app.exitCode !== null, { ms: 4000, describe: 'exit' });
    expect(fake.dialog.showErrorBox).toHaveBeenCalledWith('Ratchet could not start', expect.any(String));
    expect(fake.app.exitCode).toBe(1);
  });
});

describe('repository paths from the OS', () => {
  const dirs = new Set(['/code/game', '/code']);
  const isDir = (p: string) => (dirs.has(p) ? true : p === '/code/game/README.md' ? false : null);

  it('takes folders from a second launch, not switches, the app folder or files', () => {
    expect(
      repoPathsFromArgv(['/opt/Ratchet/ratchet', '--enable-logging', '/code/game', 'README.md', '/missing'], '/code/game', '/opt/Ratchet/resources/app', isDir),
    ).toEqual(['/code/game']);
    expect(repoPathsFromArgv(['electron', '/code'], '/', '/code', isDir)).toEqual([]);
  });

  it('uses the folder of a dropped file, and nothing for a path that does not exist', () => {
    expect(repoPathFor('/code/game', '/', isDir)).toBe('/code/game');
    expect(repoPathFor('README.md', '/code/game', isDir)).toBe('/code/game');
    expect(repoPathFor('/missing', '/', isDir)).toBeNull();
  });
});

describe('demo mode', () => {
  it('runs against the scripted agent with the demo repository, without touching the saved key', async () => {
    const { call } = await boot({ RATCHET_DEMO: '1' });
    const info = (await call('app.info', {})) as { value: { demo: boolean; home: string } };
    expect(info.value.demo).toBe(true);
    expect(info.value.home).not.toBe(join(base, 'home'));
    const recent = (await call('repos.recent', {})) as { value: Array<{ name: string }> };
    expect(recent.value.map((r) => r.name)).toContain('calc');
    expect(existsSync(join(base, 'userData', 'api-key.enc'))).toBe(false);
    await quit();
  });
});

describe('the demo in the shell', () => {
  it('an installed app ignores RATCHET_DEMO=1 and --demo: it talks to the real engine home', async () => {
    fake.app.isPackaged = true;
    runShell({
      env: { RATCHET_HOME: join(base, 'home'), RATCHET_DEMO: '1' },
      argv: ['ratchet', '--demo'],
      cwd: base,
      platform: 'linux',
      preload: '/p.cjs',
      rendererDir: join(base, 'renderer'),
    });
    fake.app.ready.resolve();
    const win = await until(() => fake.BrowserWindow.instances[0] as Win | undefined, { ms: 4000, describe: 'the window' });
    const info = await fake.ipcMain.handlers.get('app.info')!({ sender: win.webContents, senderFrame: { url: 'app://ratchet/index.html', parent: null } }, {});
    expect(info).toEqual({ ok: true, value: expect.objectContaining({ demo: false, home: join(base, 'home') }) });
    await quit();
  });

  it('the development tree starts it with RATCHET_DEMO=1 (npm start -- --demo)', async () => {
    const { call } = await boot({ RATCHET_DEMO: '1' });
    expect(await call('app.info', {})).toEqual({ ok: true, value: expect.objectContaining({ demo: true }) });
    await quit();
  });
});

describe('menu commands in the shell', () => {
  it('holds a command given before the renderer listens and sends it once the renderer has called in', async () => {
    const { win, call } = await boot();
    const menu = fake.Menu.current as { template: Array<{ submenu?: Array<{ id?: string; click?: () => void }> }> };
    const item = menu.template.flatMap((m) => m.submenu ?? []).find((i) => i.id === 'newTask')!;
    item.click!();
    expect(win.webContents.sent.filter((s) => s.channel === 'app.onCommand')).toEqual([]);
    await call('app.info', {});
    expect(win.webContents.sent).toContainEqual({ channel: 'app.onCommand', payload: { command: 'newTask' } });
    await quit();
  });
});
