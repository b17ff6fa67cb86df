// Declares window.ratchet: the Electron preload bridge (absent in a plain browser, where the WebSocket bridge is used).
import type { RatchetBridge } from '../../shared/contract';

declare global {
  interface Window {
    /** `pathForFile` is added by the preload (Electron's webUtils) so a dropped folder yields its path. */
    ratchet?: RatchetBridge & { pathForFile?(file: File): string };
  }
}

export {};
