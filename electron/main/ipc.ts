// The IPC binding, derived from the contract: one ipcMain.handle per method name, senders checked, calls through dispatch; only contract events go out.
import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import {
  dispatch,
  events,
  isEventName,
  METHOD_NAMES,
  type CallError,
  type CallResult,
  type EventName,
  type EventPayload,
  type Handlers,
} from '../../shared/contract';
import { isAppUrl } from './content-policy';

/**
 * A call is ours only when it comes from the window we created, from its top frame, showing app://ratchet.
 * Anything else (an iframe, a page that somehow navigated away, another webContents) is refused.
 */
export function isTrustedSender(event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>, ours: WebContents | null): boolean {
  if (!ours || ours.isDestroyed() || event.sender !== ours) return false;
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null) return false;
  return isAppUrl(frame.url);
}

export const FORBIDDEN: CallResult<never> = {
  ok: false,
  error: { code: 'forbidden', message: 'This call did not come from the Ratchet window, so it was refused.' },
};

export interface IpcBindingOptions {
  handlers: Handlers;
  /** The window's webContents, read at call time (it changes when the window is re-created on macOS). */
  contents: () => WebContents | null;
  /** The service's error mapping, so a failure reads the same in the window and in the headless host. */
  toError: (err: unknown) => CallError;
  /** Told after each accepted call: the renderer is alive and listening. */
  onCall?: () => void;
}

/** Registers one handler per contract method; returns the function that removes them all. */
export function bindIpc(options: IpcBindingOptions): () => void {
  const { toError } = options;
  for (const name of METHOD_NAMES) {
    ipcMain.handle(name, async (event, input: unknown): Promise<CallResult<unknown>> => {
      if (!isTrustedSender(event, options.contents())) return FORBIDDEN;
      options.onCall?.();
      return dispatch(options.handlers, name, input, toError);
    });
  }
  return () => {
    for (const name of METHOD_NAMES) ipcMain.removeHandler(name);
  };
}

/**
 * Sends an event to the window, only for contract names and only payloads that parse; parsing also strips any field
 * the contract does not name, so nothing extra leaks across.
 */
export function createEventSender(contents: () => WebContents | null): (event: string, payload: unknown) => boolean {
  return (event, payload) => {
    if (!isEventName(event)) return false;
    const parsed = events[event].safeParse(payload);
    if (!parsed.success) return false;
    const target = contents();
    if (!target || target.isDestroyed()) return false;
    target.send(event, parsed.data);
    return true;
  };
}

/** The typed face of the sender, for the shell's own events (open-file, notices). */
export type SendEvent = <E extends EventName>(event: E, payload: EventPayload<E>) => boolean;
