// Team store (runs on team workers): the team database as Settings › Team shows it, and the team's runs, polled while a
// screen that shows them is open (the team database has no push to the app: every ~2 s is enough for steps of minutes).
import { create } from 'zustand';
import type { TeamConnectionDoc, TeamRunDoc, TeamSettingsDoc } from '../../../shared/contract';
import type { TeamRunItem } from '../../../shared/team';
import { errorMessage, getApi } from '../api/client';

/** How often the runs list and a team run's screen ask the team database again. */
export const TEAM_POLL_MS = 2000;

interface TeamState {
  /** The URL as kept here (password hidden); null until loaded. */
  settings: TeamSettingsDoc | null;
  connection: TeamConnectionDoc | null;
  saving: boolean;
  saveError: string | null;
  runs: TeamRunItem[];
  runsError: string | null;
  byId: Record<string, { doc: TeamRunDoc | null; error: string | null }>;
  loadSettings(): Promise<void>;
  check(): Promise<void>;
  setUrl(url: string | null): Promise<boolean>;
  loadRuns(): Promise<void>;
  loadRun(runId: string): Promise<void>;
  /** Stop / Resume / Retry / priority on a team run, then its state again; resolves with an error sentence, or null. */
  act(runId: string, action: 'stop' | 'resume' | 'retry' | 'next' | 'later'): Promise<string | null>;
}

export const useTeam = create<TeamState>()((set, get) => ({
  settings: null,
  connection: null,
  saving: false,
  saveError: null,
  runs: [],
  runsError: null,
  byId: {},

  async loadSettings() {
    try {
      set({ settings: await getApi().call('team.settings', {}) });
    } catch (err) {
      set({ saveError: errorMessage(err) });
    }
  },

  async check() {
    try {
      const connection = await getApi().call('team.overview', {});
      set({ connection, settings: { url: connection.url, source: connection.source, warning: connection.warning } });
    } catch (err) {
      set({ saveError: errorMessage(err) });
    }
  },

  async setUrl(url) {
    set({ saving: true, saveError: null });
    try {
      const connection = await getApi().call('team.setUrl', { url });
      set({ connection, settings: { url: connection.url, source: connection.source, warning: connection.warning }, saving: false });
      if (!url) set({ runs: [], runsError: null });
      return true;
    } catch (err) {
      set({ saving: false, saveError: errorMessage(err) });
      return false;
    }
  },

  async loadRuns() {
    try {
      set({ runs: await getApi().call('team.list', {}), runsError: null });
    } catch (err) {
      set({ runsError: errorMessage(err) });
    }
  },

  async loadRun(runId) {
    try {
      const doc = await getApi().call('team.status', { runId });
      set((s) => ({ byId: { ...s.byId, [runId]: { doc, error: null } } }));
    } catch (err) {
      set((s) => ({ byId: { ...s.byId, [runId]: { doc: s.byId[runId]?.doc ?? null, error: errorMessage(err) } } }));
    }
  },

  async act(runId, action) {
    const api = getApi();
    try {
      if (action === 'next' || action === 'later') await api.call('team.setPriority', { runId, priority: action === 'next' ? 100 : -100 });
      else await api.call(`team.${action}`, { runId });
      await Promise.all([get().loadRun(runId), get().loadRuns()]);
      return null;
    } catch (err) {
      return errorMessage(err);
    }
  },
}));
