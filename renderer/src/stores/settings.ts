// Settings store: the engine's settings (API key status, model, pricing, budgets, preset), loaded and saved through the client.
import { create } from 'zustand';
import type { MethodInput, Settings } from '../../../shared/contract';
import { errorMessage, getApi } from '../api/client';

interface SettingsState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  settings: Settings | null;
  error: string | null;
  saving: boolean;
  saveError: string | null;
  /** Why saving the API key failed: shown next to the key field, not with the settings form's errors. */
  keyError: string | null;
  load(): Promise<void>;
  save(patch: MethodInput<'settings.set'>): Promise<boolean>;
  setApiKey(key: string | null): Promise<boolean>;
}

export const useSettings = create<SettingsState>()((set) => ({
  status: 'idle',
  settings: null,
  error: null,
  saving: false,
  saveError: null,
  keyError: null,

  async load() {
    set({ status: 'loading', error: null });
    try {
      set({ status: 'ready', settings: await getApi().call('settings.get', {}) });
    } catch (err) {
      set({ status: 'error', error: errorMessage(err) });
    }
  },

  async save(patch) {
    set({ saving: true, saveError: null });
    try {
      set({ settings: await getApi().call('settings.set', patch), saving: false, status: 'ready' });
      return true;
    } catch (err) {
      set({ saving: false, saveError: errorMessage(err) });
      return false;
    }
  },

  async setApiKey(key) {
    set({ saving: true, keyError: null });
    try {
      set({ settings: await getApi().call('settings.setApiKey', { key }), saving: false, status: 'ready' });
      return true;
    } catch (err) {
      set({ saving: false, keyError: errorMessage(err) });
      return false;
    }
  },
}));
