// The IPC binding: exactly the contract's methods, senders checked, input validated by dispatch, only contract events out.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { EVENT_NAMES, METHOD_NAMES, type Handlers } from '../../shared/contract';
import { RatchetError } from '../engine/errors';
import { toCallError } from '../engine/service/service';

vi.mock('electron', () => import('./testing/fake-electron'));
const fake = await import('./testing/fake-electron');
const { bindIpc, createEventSender, FORBIDDEN, isTrustedSender } = await import('./ipc');

beforeEach(() => fake.resetFakeElectron());

/** Every handler throws unless a test gives it an answer: a call that should never reach the engine shows up. */
function fakeHandlers(overrides: Partial<Handlers> = {}): Handlers {
  const all = Object.fromEntries(
    METHOD_NAMES.map((m) => [
      m,
      vi.fn(async () => {
        throw new Error(`${m} was called`);
      }),
    ]),
  );
  return { ...all, ...overrides } as unknown as Handlers;
}

const info = vi.fn(async () => ({ version: '0.1.0', host: 'electron' as const, demo: false, home: '/home/me/.config/ratchet' }));

function setup(overrides: Partial<Handlers> = { 'app.info': info }) {
  const contents = new fake.FakeWebContents();
  const handlers = fakeHandlers(overrides);
  const unbind = bindIpc({ handlers, contents: () => contents as never, toError: toCallError });
  const call = (
    channel: string,
    input: unknown,
    event: Record<string, unknown> = { sender: contents, senderFrame: { url: 'app://ratchet/index.html', parent: null } },
  ) => fake.ipcMain.handlers.get(channel)!(event, input);
  return { contents, handlers, unbind, call };
}

describe('bindIpc', () => {
  it('registers exactly the contract method names, once each', () => {
    setup();
    expect([...fake.ipcMain.handlers.keys()].sort()).toEqual([...METHOD_NAMES].sort());
    expect(fake.ipcMain.handle).toHaveBeenCalledTimes(METHOD_NAMES.length);
  });

  it('answers a call from our window through dispatch', async () => {
    const { call } = setup();
    await expect(call('app.info', {})).resolves.toEqual({
      ok: true,
      value: { version: '0.1.0', host: 'electron', demo: false, home: '/home/me/.config/ratchet' },
    });
  });

  it.each([
    ['another webContents', () => ({ sender: new fake.FakeWebContents(), senderFrame: { url: 'app://ratchet/index.html', parent: null } })],
    ['a page that is not ours', (c: unknown) => ({ sender: c, senderFrame: { url: 'https://evil.example/', parent: null } })],
    ['a file:// page', (c: unknown) => ({ sender: c, senderFrame: { url: 'file:///tmp/x.html', parent: null } })],
    ['an iframe inside our page', (c: unknown) => ({ sender: c, senderFrame: { url: 'app://ratchet/frame.html', parent: {} } })],
    ['a frame that is gone', (c: unknown) => ({ sender: c, senderFrame: null })],
  ])('refuses a call from %s without touching the engine', async (_what, event) => {
    const { call, contents, handlers } = setup();
    await expect(call('app.info', {}, event(contents))).resolves.toEqual(FORBIDDEN);
    expect(handlers['app.info']).not.toHaveBeenCalled();
  });

  it('refuses calls once the window is destroyed', async () => {
    const { call, contents, handlers } = setup();
    contents.destroyed = true;
    await expect(call('app.info', {})).resolves.toEqual(FORBIDDEN);
    expect(handlers['app.info']).not.toHaveBeenCalled();
  });

  it('rejects bad input before the handler runs', async () => {
    const get = vi.fn();
    const { call } = setup({ 'runs.get': get as never });
    const r = (await call('runs.get', { runId: 42 })) as { ok: boolean; error: { code: string } };
    expect(r.ok).toBe(false);
    expect(r.error.code).toBe('bad_input');
    expect(get).not.toHaveBeenCalled();
  });

  it('passes an engine error code through and hides anything else behind `internal`', async () => {
    const { call } = setup({
      'runs.get': async () => {
        throw new RatchetError('run_not_found', 'No run with id x.');
      },
      'runs.list': async () => {
        throw new TypeError('boom');
      },
    });
    await expect(call('runs.get', { runId: 'x' })).resolves.toEqual({ ok: false, error: { code: 'run_not_found', message: 'No run with id x.' } });
    const r = (await call('runs.list', {})) as { ok: false; error: { code: string; message: string } };
    expect(r.error).toEqual({ code: 'internal', message: 'boom' });
  });

  it('unbinds every handler', () => {
    const { unbind } = setup();
    unbind();
    expect(fake.ipcMain.handlers.size).toBe(0);
  });

  it('tells the shell after an accepted call, not after a refused one', async () => {
    const contents = new fake.FakeWebContents();
    const onCall = vi.fn();
    bindIpc({ handlers: fakeHandlers({ 'app.info': info }), contents: () => contents as never, toError: toCallError, onCall });
    await fake.ipcMain.handlers.get('app.info')!({ sender: new fake.FakeWebContents(), senderFrame: { url: 'app://ratchet/', parent: null } }, {});
    expect(onCall).not.toHaveBeenCalled();
    await fake.ipcMain.handlers.get('app.info')!({ sender: contents, senderFrame: { url: 'app://ratchet/', parent: null } }, {});
    expect(onCall).toHaveBeenCalledOnce();
  });
});

describe('isTrustedSender', () => {
  it('needs our webContents', () => {
    const ours = new fake.FakeWebContents();
    expect(isTrustedSender({ sender: ours, senderFrame: { url: 'app://ratchet/index.html', parent: null } } as never, ours as never)).toBe(true);
    expect(isTrustedSender({ sender: ours, senderFrame: { url: 'app://ratchet/index.html', parent: null } } as never, null)).toBe(false);
  });
});

describe('createEventSender', () => {
  const event = { id: 1, runId: 'r1', at: '2025-01-01T00:00:00.000Z', type: 'run.status', payload: { status: 'succeeded' } };

  it('sends contract events, with only the fields the contract names', () => {
    const contents = new fake.FakeWebContents();
    const send = createEventSender(() => contents as never);
    expect(send('runs.onEvent', { ...event, apiKey: 'sk-ant-leak' })).toBe(true);
    expect(contents.sent).toEqual([{ channel: 'runs.onEvent', payload: event }]);
  });

  it('sends nothing for a name outside the contract or a payload that does not parse', () => {
    const contents = new fake.FakeWebContents();
    const send = createEventSender(() => contents as never);
    expect(send('app.secret', { x: 1 })).toBe(false);
    expect(send('runs.onEvent', { id: 'not a number' })).toBe(false);
    expect(send('app.onOpenRepo', { path: 7 })).toBe(false);
    expect(contents.sent).toEqual([]);
  });

  it('can send every contract event name, and nothing to a destroyed window', () => {
    const contents = new fake.FakeWebContents();
    const send = createEventSender(() => contents as never);
    const samples: Record<string, unknown> = {
      'runs.onEvent': event,
      'app.onNotice': { code: 'run.succeeded', level: 'info', title: 't', body: 'b', runId: null },
      'app.onOpenRepo': { path: '/repo' },
      'app.onCommand': { command: 'newTask' },
      'project.onBaseline': { repo: '/repo', phase: 'gate', gate: 'test', state: 'finished', ok: true, durationMs: 12 },
      'team.onEvent': { runId: 'r1', follow: 'f1', worker: 'build-1', event },
    };
    expect(Object.keys(samples).sort()).toEqual([...EVENT_NAMES].sort());
    for (const name of EVENT_NAMES) expect(send(name, samples[name]), name).toBe(true);
    contents.destroyed = true;
    expect(send('app.onOpenRepo', { path: '/repo' })).toBe(false);
    expect(contents.sent).toHaveLength(EVENT_NAMES.length);
  });
});
