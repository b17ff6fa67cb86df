// The preload: window.ratchet exposes invoke, on and pathForFile, for contract names only, and nothing of ipcRenderer.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { EVENT_NAMES, METHOD_NAMES } from '../../shared/contract';

vi.mock('electron', () => import('../main/testing/fake-electron'));
const fake = await import('../main/testing/fake-electron');
const { createBridge } = await import('./bridge');

beforeEach(() => fake.resetFakeElectron());

function ports() {
  const ipc = { invoke: vi.fn(async (..._args: unknown[]) => ({ ok: true, value: 'v' })), on: vi.fn(), removeListener: vi.fn() };
  const utils = { getPathForFile: vi.fn(() => '/home/me/repo') };
  return { ipc, utils, bridge: createBridge(ipc as never, utils) };
}

describe('preload entry', () => {
  it('exposes window.ratchet with invoke, on and pathForFile, and nothing else', async () => {
    await import('./index');
    expect(fake.contextBridge.exposeInMainWorld).toHaveBeenCalledOnce();
    const [key, api] = fake.contextBridge.exposeInMainWorld.mock.calls[0] as [string, Record<string, unknown>];
    expect(key).toBe('ratchet');
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on', 'pathForFile']);
    for (const value of Object.values(api)) {
      expect(typeof value).toBe('function');
      expect(value).not.toBe(fake.ipcRenderer.invoke);
      expect(value).not.toBe(fake.ipcRenderer.on);
    }
  });
});

describe('invoke', () => {
  it.each(METHOD_NAMES)('forwards %s to its IPC channel', async (method) => {
    const { ipc, bridge } = ports();
    await expect(bridge.invoke(method, { a: 1 })).resolves.toEqual({ ok: true, value: 'v' });
    expect(ipc.invoke).toHaveBeenCalledWith(method, { a: 1 });
  });

  it.each(['fs.readFile', 'ELECTRON_BROWSER_REQUIRE', '__proto__', 'constructor', 'toString', 'runs', '', 42])(
    'rejects %s without touching IPC',
    async (method) => {
      const { ipc, bridge } = ports();
      const r = await bridge.invoke(method as string, {});
      expect(r).toMatchObject({ ok: false, error: { code: 'unknown_method' } });
      expect(ipc.invoke).not.toHaveBeenCalled();
    },
  );

  it('turns a failed IPC round trip into a CallResult error', async () => {
    const { ipc, bridge } = ports();
    ipc.invoke.mockRejectedValueOnce(new Error('No handler registered for runs.list'));
    await expect(bridge.invoke('runs.list', {})).resolves.toMatchObject({ ok: false, error: { code: 'ipc_failed' } });
  });
});

describe('on', () => {
  it.each(EVENT_NAMES)('subscribes to %s and hands the listener the payload only', (name) => {
    const { ipc, bridge } = ports();
    const listener = vi.fn();
    const off = bridge.on(name, listener);
    expect(ipc.on).toHaveBeenCalledWith(name, expect.any(Function));
    const wrapped = ipc.on.mock.calls[0]![1] as (...args: unknown[]) => void;
    wrapped({ sender: 'the IpcRendererEvent', ports: [] }, { path: '/repo' });
    expect(listener).toHaveBeenCalledWith({ path: '/repo' });
    expect(listener.mock.calls[0]).toHaveLength(1);
    off();
    off();
    expect(ipc.removeListener).toHaveBeenCalledOnce();
    expect(ipc.removeListener).toHaveBeenCalledWith(name, wrapped);
  });

  it.each(['ipc-message', 'runs.onEvent2', '__proto__', 'app.onOpenRepo '])('refuses %s', (name) => {
    const { ipc, bridge } = ports();
    expect(() => bridge.on(name, () => undefined)).toThrow(/No event/);
    expect(ipc.on).not.toHaveBeenCalled();
  });
});

describe('pathForFile', () => {
  it('asks webUtils for the dropped file’s path', () => {
    const { utils, bridge } = ports();
    const file = { name: 'repo' } as unknown as File;
    expect(bridge.pathForFile(file)).toBe('/home/me/repo');
    expect(utils.getPathForFile).toHaveBeenCalledWith(file);
  });
});
