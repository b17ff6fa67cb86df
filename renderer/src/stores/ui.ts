// UI store: the current route, app info (demo flag), the connection state, notices, and which resume dialog is open.
import { create } from 'zustand';
import type { EventPayload, MethodOutput, NoticeCode } from '../../../shared/contract';
import type { ConnectionState } from '../api/ws-bridge';
/** What the app says while the host is unreachable (the WebSocket bridge's sentence), for screens that say it at once. */
export { OFFLINE_MESSAGE } from '../api/ws-bridge';
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
  /** Open Repository asked for the folder browser (browser host): New task's chooser opens it and clears this. */
  repoPickerRequested: boolean;
  requestRepoPicker(): void;
  takeRepoPickerRequest(): boolean;
  /** The runs list's search, status and repository filters (kept while the user goes to other screens). */
  runsFilter: { text: string; status: string; repo: string };
  setRunsFilter(patch: Partial<{ text: string; status: string; repo: string }>): void;
  setRoute(hash: string): void;
  loadAppInfo(): Promise<void>;
  /** Which host serves the app (the desktop shell or `ratchet serve`): the loaded app info's, else asked for; throws when it cannot be. */
  host(): Promise<MethodOutput<'app.info'>['host']>;
  setConnection(c: ConnectionState): void;
  notify(n: Omit<Notice, 'id'>): void;
  dismiss(id: number): void;
  openResume(runId: string): void;
  closeResume(): void;
}

let noticeId = 0;
/** The service's notices of how a run ended, by their codes (service.ts TERMINAL_NOTICE). */
export const OUTCOME_CODES: ReadonlySet<NoticeCode> = new Set(['run.failed', 'run.succeeded', 'run.needs_you']);

export const useUi = create<UiState>()((set, get) => ({
  route: parseHash(typeof location === 'undefined' ? '' : location.hash),
  appInfo: null,
  appInfoError: null,
  connection: { state: 'open', retryAt: null, attempts: 0 },
  notices: [],
  resumeRunId: null,
  repoPickerRequested: false,
  requestRepoPicker: () => set({ repoPickerRequested: true }),
  takeRepoPickerRequest: () => {
    const asked = get().repoPickerRequested;
    if (asked) set({ repoPickerRequested: false });
    return asked;
  },
  runsFilter: { text: '', status: '', repo: '' },
  setRunsFilter: (patch) => set((s) => ({ runsFilter: { ...s.runsFilter, ...patch } })),
  setRoute: (hash) => {
    const route = parseHash(hash);
    // The run's page says the whole reason: a notice of how the run ended has done its job once the page is open.
    set((s) => ({ route, notices: route.name === 'run' ? s.notices.filter((n) => !(n.runId === route.runId && OUTCOME_CODES.has(n.code))) : s.notices }));
  },
  async loadAppInfo() {
    try {
      set({ appInfo: await getApi().call('app.info', {}), appInfoError: null });
    } catch (err) {
      set({ appInfoError: errorMessage(err) });
    }
  },
  async host() {
    const info = get().appInfo ?? (await getApi().call('app.info', {}));
    if (!get().appInfo) set({ appInfo: info, appInfoError: null });
    return info.host;
  },
  setConnection: (connection) => set({ connection }),
  notify: (n) => {
    const id = ++noticeId;
    // One notice per run and code (the latest): a run that fails twice is one line, not two.
    set((s) => ({ notices: [...s.notices.filter((x) => !(n.runId && x.runId === n.runId && x.code === n.code)), { ...n, id }].slice(-20) }));
    // Information fades on its own; warnings and errors stay until the user has seen them.
    if (n.level === 'info') setTimeout(() => useUi.getState().dismiss(id), 8000);
  },
  dismiss: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
  openResume: (runId) => set({ resumeRunId: runId }),
  closeResume: () => set({ resumeRunId: null }),
}));
