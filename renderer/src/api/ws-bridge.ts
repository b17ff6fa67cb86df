// A RatchetBridge over the headless host's WebSocket (/api): request/response by id, pushed events, reconnect with backoff.
import type { CallResult, RatchetBridge } from '../../../shared/contract';

export type ConnectionState = { state: 'connecting' | 'open' | 'closed'; retryAt: number | null; attempts: number };

export interface WsBridge extends RatchetBridge {
  onConnection(listener: (c: ConnectionState) => void): () => void;
  connection(): ConnectionState;
  close(): void;
}

/** Just enough of the DOM WebSocket for the bridge; tests pass a fake. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  onopen: ((ev: Event) => void) | null;
  onclose: ((ev: CloseEvent) => void) | null;
  onerror: ((ev: Event) => void) | null;
  onmessage: ((ev: MessageEvent) => void) | null;
}

export interface WsBridgeOptions {
  makeSocket?: (url: string) => SocketLike;
  /** Backoff before reconnect k (1-based): doubles from baseMs up to maxMs. */
  baseMs?: number;
  maxMs?: number;
  /** How long a call made while disconnected waits for the connection before it fails with `disconnected` (never spins forever). */
  offlineWaitMs?: number;
}

/** The sentence a call made while disconnected fails with. */
export const OFFLINE_MESSAGE = 'Not connected to Ratchet — reconnecting… Try again once the connection is back.';

const OPEN = 1;

export function createWsBridge(url: string, opts: WsBridgeOptions = {}): WsBridge {
  const makeSocket = opts.makeSocket ?? ((u: string) => new WebSocket(u) as SocketLike);
  const baseMs = opts.baseMs ?? 500;
  const maxMs = opts.maxMs ?? 10_000;
  const offlineWaitMs = opts.offlineWaitMs ?? 5000;
  let socket: SocketLike | null = null;
  let nextId = 1;
  let closedByUs = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let conn: ConnectionState = { state: 'connecting', retryAt: null, attempts: 0 };
  const pending = new Map<number, { resolve: (r: CallResult<unknown>) => void; frame: string; sent: boolean }>();
  const eventListeners = new Map<string, Set<(payload: unknown) => void>>();
  const connListeners = new Set<(c: ConnectionState) => void>();

  const setConn = (c: ConnectionState) => {
    conn = c;
    for (const fn of connListeners) fn(c);
  };

  const connect = () => {
    timer = null;
    setConn({ ...conn, state: 'connecting', retryAt: null });
    const s = makeSocket(url);
    socket = s;
    s.onopen = () => {
      setConn({ state: 'open', retryAt: null, attempts: 0 });
      // Calls made while disconnected go out now, in the order they were made.
      for (const p of pending.values()) {
        if (!p.sent) {
          s.send(p.frame);
          p.sent = true;
        }
      }
    };
    s.onmessage = (ev) => onFrame(ev.data);
    s.onerror = () => undefined;
    s.onclose = () => {
      if (socket !== s) return;
      socket = null;
      // A call already sent may never be answered by a new connection: fail it so the UI can say so and let the user retry.
      for (const [id, p] of pending) {
        if (p.sent) {
          pending.delete(id);
          p.resolve({
            ok: false,
            error: { code: 'disconnected', message: 'The connection to Ratchet was lost before it answered. Try again once it is back.' },
          });
        }
      }
      if (closedByUs) {
        setConn({ state: 'closed', retryAt: null, attempts: conn.attempts });
        return;
      }
      const attempts = conn.attempts + 1;
      const delay = Math.min(baseMs * 2 ** (attempts - 1), maxMs);
      setConn({ state: 'closed', retryAt: Date.now() + delay, attempts });
      timer = setTimeout(connect, delay);
    };
  };

  const onFrame = (data: unknown) => {
    if (typeof data !== 'string') return;
    let msg: unknown;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    if (typeof msg !== 'object' || msg === null) return;
    const m = msg as { id?: unknown; result?: unknown; event?: unknown; payload?: unknown };
    if (typeof m.id === 'number') {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      const r = m.result as CallResult<unknown> | undefined;
      // The contract's createApi parses the value; here only the envelope is checked.
      if (r && typeof r === 'object' && (r.ok === true || (r.ok === false && typeof r.error === 'object' && r.error !== null))) p.resolve(r);
      else p.resolve({ ok: false, error: { code: 'bad_frame', message: 'The host answered with a malformed message.' } });
      return;
    }
    if (typeof m.event === 'string') {
      for (const fn of eventListeners.get(m.event) ?? []) fn(m.payload);
    }
  };

  connect();

  return {
    invoke(method, input) {
      return new Promise((resolve) => {
        const id = nextId++;
        const frame = JSON.stringify({ id, method, input });
        const sendNow = socket !== null && socket.readyState === OPEN;
        pending.set(id, { resolve, frame, sent: sendNow });
        if (sendNow) socket!.send(frame);
        else {
          // Queued for the connection: sent when it opens, failed if it is not back in time.
          setTimeout(() => {
            const p = pending.get(id);
            if (!p || p.sent) return;
            pending.delete(id);
            resolve({ ok: false, error: { code: 'disconnected', message: OFFLINE_MESSAGE } });
          }, offlineWaitMs);
        }
      });
    },
    on(event, listener) {
      let set = eventListeners.get(event);
      if (!set) eventListeners.set(event, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
    onConnection(listener) {
      connListeners.add(listener);
      return () => connListeners.delete(listener);
    },
    connection: () => conn,
    close() {
      closedByUs = true;
      if (timer) clearTimeout(timer);
      socket?.close();
    },
  };
}
