// Preload entry (sandboxed, bundled to CommonJS): exposes window.ratchet and nothing else.
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { createBridge } from './bridge';

contextBridge.exposeInMainWorld('ratchet', createBridge(ipcRenderer, webUtils));
