// The renderer's one typed client: the Electron preload bridge when present, otherwise the headless host's WebSocket.
import { createApi, type RatchetApi } from '../../../shared/contract';
import { createWsBridge, type ConnectionState } from './ws-bridge';

let api: RatchetApi | null = null;
let connectionSource: ((fn: (c: ConnectionState) => void) => () => void) | null = null;

/** The API, created on first use (nothing connects at import time). */
export function getApi(): RatchetApi {
  if (api) return api;
  if (window.ratchet) {
    api = createApi(window.ratchet);
    connectionSource = null;
  } else {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = createWsBridge(`${proto}//${location.host}/api`);
    api = createApi(ws);
    connectionSource = (fn) => {
      fn(ws.connection());
      return ws.onConnection(fn);
    };
  }
  return api;
}

/** Connection changes of the WebSocket bridge; the preload bridge is always connected, so it never calls back. */
export function onConnection(fn: (c: ConnectionState) => void): () => void {
  getApi();
  return connectionSource ? connectionSource(fn) : () => undefined;
}

/** Tests and the dev page swap the bridge: the next getApi() builds a new client. */
export function resetApi(): void {
  api = null;
  connectionSource = null;
}

/**
 * The host authenticated this page by a cookie it set when serving `?token=`; the token has no further use in the
 * address bar, where it would leak into history and screenshots.
 */
export function stripTokenFromUrl(): void {
  const url = new URL(location.href);
  if (!url.searchParams.has('token')) return;
  url.searchParams.delete('token');
  history.replaceState(history.state, '', url.pathname + url.search + url.hash);
}

export { errorMessage } from '../lib/errors';
