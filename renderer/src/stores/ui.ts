// UI store: the current route, app info (demo flag), the connection state, notices, and which resume dialog is open.
import { create } from 'zustand';
import type { EventPayload, MethodOutput } from '../../../shared/contract';
import type { ConnectionState } from '../api/ws-bridge';
import { errorMessage, getApi } from '../api/client';
import { parseHash, type Route } from '../lib/route';

export type Notice = EventPayload<'app.onNotice'> & { id: number };

interface UiState {
  route: Route;
  appInfo: MethodOutput<'app.info'> | null;
  appInfoError: string | null;
  connection: ConnectionState;
  notices: Notice[];
  /** The run whose resume dialog is open; null when closed. */
  resumeRunId: string | null;
  /** The runs list's search, status and repository filters (kept while the user goes to other screens). */
  runsFilter: { text: string; status: string; repo: string };
  setRunsFilter(patch: Partial<{ text: string; status: string; repo: string }>): void;
  setRoute(hash: string): void;
  loadAppInfo(): Promise<void>;
  setConnection(c: ConnectionState): void;
  notify(n: Omit<Notice, 'id'>): void;
  dismiss(id: number): void;
  openResume(runId: string): void;
  closeResume(): void;
}

let noticeId = 0;

export const useUi = create<UiState>()((set) => ({
  route: parseHash(typeof location === 'undefined' ? '' : location.hash),
  appInfo: null,
  appInfoError: null,
  connection: { state: 'open', retryAt: null, attempts: 0 },
  notices: [],
  resumeRunId: null,
  runsFilter: { text: '', status: '', repo: '' },
  setRunsFilter: (patch) => set((s) => ({ runsFilter: { ...s.runsFilter, ...patch } })),
  setRoute: (hash) => set({ route: parseHash(hash) }),
  async loadAppInfo() {
    try {
      set({ appInfo: await getApi().call('app.info', {}), appInfoError: null });
    } catch (err) {
      set({ appInfoError: errorMessage(err) });
    }
  },
  setConnection: (connection) => set({ connection }),
  notify: (n) => {
    const id = ++noticeId;
    set((s) => ({ notices: [...s.notices, { ...n, id }].slice(-5) }));
    // Information fades on its own; warnings and errors stay until the user has seen them.
    if (n.level === 'info') setTimeout(() => useUi.getState().dismiss(id), 8000);
  },
  dismiss: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
  openResume: (runId) => set({ resumeRunId: runId }),
  closeResume: () => set({ resumeRunId: null }),
}));
