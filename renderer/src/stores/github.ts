// GitHub store: Settings › GitHub (where the token in use comes from, who it belongs to, the API's root) and each run's
// pull request as the PR panel shows it, asked again every PR_POLL_MS while the engine watches it.
import { create } from 'zustand';
import type { GithubSettingsDoc, IssueTaskDoc, PrPanelDoc } from '../../../shared/contract';
import type { PrOptions } from '../../../shared/pull-request';
import { errorMessage, getApi } from '../api/client';

/** How often an open panel asks for its pull request while the engine watches it (the engine's own looks at GitHub are conditional and slower). */
export const PR_POLL_MS = 1500;

interface PanelState {
  doc: PrPanelDoc | null;
  /** Why the last call failed (opening, a toggle): shown in the panel. */
  error: string | null;
  busy: 'open' | 'options' | null;
}

interface GithubState {
  settings: GithubSettingsDoc | null;
  saving: boolean;
  saveError: string | null;
  panels: Record<string, PanelState>;
  loadSettings(): Promise<void>;
  /** Saves a token (checked by GitHub first) and/or the API's root; resolves false with saveError set when refused. */
  save(change: { token?: string | null; apiUrl?: string | null }): Promise<boolean>;
  /** The run's pull request; `watch` asks the engine to follow it (the panel opening, "Check again"). */
  loadPr(runId: string, watch: boolean): Promise<void>;
  openPr(runId: string, options: PrOptions): Promise<void>;
  setOptions(runId: string, options: PrOptions): Promise<void>;
  readIssue(repo: string, ref: string): Promise<IssueTaskDoc>;
}

const EMPTY: PanelState = { doc: null, error: null, busy: null };

export const useGithub = create<GithubState>()((set, get) => {
  const patch = (runId: string, p: Partial<PanelState>) => set((s) => ({ panels: { ...s.panels, [runId]: { ...(s.panels[runId] ?? EMPTY), ...p } } }));
  return {
    settings: null,
    saving: false,
    saveError: null,
    panels: {},

    async loadSettings() {
      try {
        set({ settings: await getApi().call('github.settings', {}) });
      } catch (err) {
        set({ saveError: errorMessage(err) });
      }
    },

    async save(change) {
      set({ saving: true, saveError: null });
      try {
        set({ settings: await getApi().call('github.set', change), saving: false });
        return true;
      } catch (err) {
        set({ saving: false, saveError: errorMessage(err) });
        return false;
      }
    },

    async loadPr(runId, watch) {
      try {
        patch(runId, { doc: await getApi().call('pr.get', { runId, watch }) });
      } catch (err) {
        patch(runId, { error: errorMessage(err) });
      }
    },

    async openPr(runId, options) {
      patch(runId, { busy: 'open', error: null });
      try {
        patch(runId, { doc: await getApi().call('pr.open', { runId, options }), busy: null });
      } catch (err) {
        patch(runId, { busy: null, error: errorMessage(err) });
      }
    },

    async setOptions(runId, options) {
      const before = get().panels[runId]?.doc;
      // Shown at once; put back if the engine refuses.
      if (before) patch(runId, { doc: { ...before, options }, busy: 'options', error: null });
      try {
        patch(runId, { doc: await getApi().call('pr.setOptions', { runId, ...options }), busy: null });
      } catch (err) {
        patch(runId, { ...(before ? { doc: before } : {}), busy: null, error: errorMessage(err) });
      }
    },

    readIssue: (repo, ref) => getApi().call('issues.read', { repo, ref }),
  };
});
