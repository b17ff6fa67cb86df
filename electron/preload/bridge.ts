// window.ratchet, built from the contract's names: invoke and on for contract names only, pathForFile for drops; nothing of ipcRenderer leaks.
import type { IpcRenderer, IpcRendererEvent } from 'electron';
import { isEventName, isMethodName, type CallResult, type RatchetBridge } from '../../shared/contract';

/** What the preload exposes: the contract's raw bridge plus the one Electron-only helper drag-and-drop needs. */
export interface PreloadBridge extends RatchetBridge {
  /** The file-system path of a dropped File ('' when it is not backed by a file). */
  pathForFile(file: File): string;
}

type IpcPort = Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>;
interface WebUtilsPort {
  getPathForFile(file: File): string;
}

export function createBridge(ipc: IpcPort, webUtils: WebUtilsPort): PreloadBridge {
  return {
    async invoke(method: string, input: unknown): Promise<CallResult<unknown>> {
      // Checked here too, so the renderer cannot reach any other ipcMain channel through this bridge.
      if (!isMethodName(method)) {
        return { ok: false, error: { code: 'unknown_method', message: `No method ${String(method)} in the contract.` } };
      }
      try {
        return (await ipc.invoke(method, input)) as CallResult<unknown>;
      } catch (err) {
        return { ok: false, error: { code: 'ipc_failed', message: `The call ${method} could not reach Ratchet: ${(err as Error)?.message ?? String(err)}` } };
      }
    },
    on(event: string, listener: (payload: unknown) => void): () => void {
      if (!isEventName(event)) throw new Error(`No event ${String(event)} in the contract.`);
      if (typeof listener !== 'function') throw new Error(`on(${event}): the listener must be a function.`);
      // The IpcRendererEvent (with its sender and ports) stays here; the page gets the payload only.
      const wrapped = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
      ipc.on(event, wrapped);
      let subscribed = true;
      return () => {
        if (!subscribed) return;
        subscribed = false;
        ipc.removeListener(event, wrapped);
      };
    },
    pathForFile(file: File): string {
      return webUtils.getPathForFile(file);
    },
  };
}
