// Team store (runs on team workers): the team database as Settings › Team shows it, and the team's runs, polled while a
// screen that shows them is open (the team database has no push to the app: every ~2 s is enough for steps of minutes).
import { create } from 'zustand';
import type { EngineEventDoc, TeamConnectionDoc, TeamRunDoc, TeamSettingsDoc, TeamStatsDoc } from '../../../shared/contract';
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
  /** The team's numbers per dashboard period: null data when no team is set (the dashboard then shows nothing of it). */
  stats: Record<7 | 30, { data: TeamStatsDoc | null; error: string | null; loaded: boolean }>;
  /** A followed team run's engine events, as its workers wrote them (team.follow), oldest first. */
  live: Record<string, { follow: string; events: Array<{ worker: string; event: EngineEventDoc }>; error: string | null }>;
  loadStats(days: 7 | 30): Promise<void>;
  /** Raise budget on a team run; throws the service's sentence when refused (below what it spent). */
  raiseBudget(runId: string, usd: number): Promise<void>;
  /** Follows the run's engine events while a screen shows it; returns the stop (unfollow). */
  follow(runId: string): () => void;
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
  stats: { 7: { data: null, error: null, loaded: false }, 30: { data: null, error: null, loaded: false } },
  live: {},

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

  async loadStats(days) {
    try {
      const data = await getApi().call('team.stats', { days });
      set((s) => ({ stats: { ...s.stats, [days]: { data, error: null, loaded: true } } }));
    } catch (err) {
      set((s) => ({ stats: { ...s.stats, [days]: { data: null, error: errorMessage(err), loaded: true } } }));
    }
  },

  async raiseBudget(runId, usd) {
    await getApi().call('team.raiseBudget', { runId, usd });
    await Promise.all([get().loadRun(runId), get().loadRuns()]);
  },

  follow(runId) {
    const api = getApi();
    // A token per follow: the events of an earlier follow of the same run (still on their way) are not mixed in.
    const token = `${runId}:${Date.now().toString(36)}:${Math.random().toString(36).slice(2)}`;
    set((s) => ({ live: { ...s.live, [runId]: { follow: token, events: [], error: null } } }));
    const off = api.on('team.onEvent', (e) => {
      if (e.follow !== token || e.runId !== runId) return;
      set((s) => {
        const cur = s.live[runId];
        if (cur?.follow !== token) return {};
        return { live: { ...s.live, [runId]: { ...cur, events: [...cur.events, { worker: e.worker, event: e.event }] } } };
      });
      // What changes the status document (a step, an attempt ending, the run's status) asks for it at once, not at the next poll.
      if (['run.status', 'step.committed', 'step.status', 'attempt.started', 'attempt.finished'].includes(e.event.type)) void get().loadRun(runId);
    });
    api.call('team.follow', { runId, follow: token }).catch((err: unknown) => {
      set((s) => (s.live[runId]?.follow === token ? { live: { ...s.live, [runId]: { ...s.live[runId]!, error: errorMessage(err) } } } : {}));
    });
    return () => {
      off();
      void api.call('team.unfollow', { runId, follow: token }).catch(() => undefined);
    };
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
