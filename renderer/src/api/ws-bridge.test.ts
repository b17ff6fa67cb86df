// Tests for the WebSocket bridge: request/response by id, pushed events, reconnect with backoff, calls across a drop.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createWsBridge, type SocketLike } from './ws-bridge';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: string[] = [];
  onopen: SocketLike['onopen'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  onmessage: SocketLike['onmessage'] = null;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.drop();
  }
  open() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  drop() {
    this.readyState = 3;
    this.onclose?.({} as CloseEvent);
  }
  receive(msg: unknown) {
    this.onmessage?.({ data: JSON.stringify(msg) } as MessageEvent);
  }
}

let sockets: FakeSocket[];
const make = () =>
  createWsBridge('ws://127.0.0.1:7777/api', {
    makeSocket: (u) => {
      const s = new FakeSocket(u);
      sockets.push(s);
      return s;
    },
    baseMs: 100,
    maxMs: 400,
  });

beforeEach(() => {
  sockets = [];
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

describe('createWsBridge', () => {
  it('sends calls made before the socket opened once it opens, and matches answers by id', async () => {
    const b = make();
    const first = b.invoke('runs.list', {});
    const second = b.invoke('app.info', {});
    expect(sockets[0]!.sent).toEqual([]);
    sockets[0]!.open();
    const frames = sockets[0]!.sent.map((f) => JSON.parse(f) as { id: number; method: string; input: unknown });
    expect(frames.map((f) => f.method)).toEqual(['runs.list', 'app.info']);
    sockets[0]!.receive({ id: frames[1]!.id, result: { ok: true, value: { demo: true } } });
    sockets[0]!.receive({ id: frames[0]!.id, result: { ok: false, error: { code: 'boom', message: 'It broke.' } } });
    await expect(second).resolves.toEqual({ ok: true, value: { demo: true } });
    await expect(first).resolves.toEqual({ ok: false, error: { code: 'boom', message: 'It broke.' } });
  });

  it('delivers pushed events to their listeners only, and ignores malformed frames', () => {
    const b = make();
    sockets[0]!.open();
    const got: unknown[] = [];
    const off = b.on('runs.onEvent', (p) => got.push(p));
    b.on('app.onNotice', () => got.push('wrong'));
    sockets[0]!.onmessage?.({ data: 'not json' } as MessageEvent);
    sockets[0]!.receive({ event: 'runs.onEvent', payload: { id: 1 } });
    off();
    sockets[0]!.receive({ event: 'runs.onEvent', payload: { id: 2 } });
    expect(got).toEqual([{ id: 1 }]);
  });

  it('reconnects with a doubling backoff, fails calls lost in the drop, and reports the connection state', async () => {
    const b = make();
    const states: string[] = [];
    b.onConnection((c) => states.push(`${c.state}:${c.attempts}`));
    sockets[0]!.open();
    const lost = b.invoke('runs.get', { runId: 'r1' });
    sockets[0]!.drop();
    await expect(lost).resolves.toMatchObject({ ok: false, error: { code: 'disconnected' } });

    const later = b.invoke('runs.list', {});
    vi.advanceTimersByTime(99);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    sockets[1]!.drop();
    vi.advanceTimersByTime(199);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    sockets[2]!.open();
    const frame = JSON.parse(sockets[2]!.sent[0]!) as { id: number; method: string };
    expect(frame.method).toBe('runs.list');
    sockets[2]!.receive({ id: frame.id, result: { ok: true, value: [] } });
    await expect(later).resolves.toEqual({ ok: true, value: [] });
    expect(states).toEqual(['open:0', 'closed:1', 'connecting:1', 'closed:2', 'connecting:2', 'open:0']);
  });

  it('stops reconnecting once closed on purpose', () => {
    const b = make();
    sockets[0]!.open();
    b.close();
    vi.advanceTimersByTime(10_000);
    expect(sockets).toHaveLength(1);
    expect(b.connection().state).toBe('closed');
  });

  it('fails a call made while disconnected with a sentence once the connection is not back in time, instead of waiting forever', async () => {
    const b = make();
    sockets[0]!.open();
    sockets[0]!.drop();
    const call = b.invoke('plans.get', { runId: 'r1' });
    let settled = false;
    void call.then(() => (settled = true));
    // The host stays away: every reconnect fails.
    for (let t = 0; t < 4900; t += 100) {
      vi.advanceTimersByTime(100);
      sockets.at(-1)!.drop();
    }
    await Promise.resolve();
    expect(settled).toBe(false);
    vi.advanceTimersByTime(200);
    await expect(call).resolves.toEqual({
      ok: false,
      error: { code: 'disconnected', message: 'Not connected to Ratchet — reconnecting… Try again once the connection is back.' },
    });
  });
});
