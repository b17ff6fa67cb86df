// Runs store: the runs list, interrupted runs and recent repositories for Home, with list badges patched from events.
import { create } from 'zustand';
import type { EngineEventDoc, MethodOutput, RunSummary, StartRunInput } from '../../../shared/contract';
import type { PlanEstimate } from '../../../shared/domain';
import { errorMessage, getApi } from '../api/client';
import { patchRunList } from './patches';
import { patchLive, type RunLive } from '../lib/run-progress';

type Loadable<T> = { status: 'idle' | 'loading' | 'ready' | 'error'; data: T; error: string | null };
type RecentRepo = MethodOutput<'repos.recent'>[number];

interface RunsState {
  runs: Loadable<RunSummary[]>;
  interrupted: Loadable<RunSummary[]>;
  recent: Loadable<RecentRepo[]>;
  /** What each running run is doing, from the events seen since the app opened (the runs list's progress). */
  live: Readonly<Record<string, RunLive>>;
  load(): Promise<void>;
  loadInterrupted(): Promise<void>;
  loadRecent(): Promise<void>;
  applyEvent(e: EngineEventDoc): void;
  /** Starts a run (New task's Start) and reloads the list; resolves with the new run's id. */
  start(input: StartRunInput): Promise<string>;
  /** What that run would cost and take (New task shows it under the plan); nothing is started. */
  estimate(input: StartRunInput): Promise<PlanEstimate>;
}

const idle = <T>(data: T): Loadable<T> => ({ status: 'idle', data, error: null });

export const useRuns = create<RunsState>()((set, get) => {
  // Keeps the data shown while reloading, so a refresh never blanks the list.
  const loader =
    <K extends 'runs' | 'interrupted' | 'recent'>(key: K, fetch: () => Promise<RunsState[K]['data']>) =>
    async () => {
      set((s) => ({ [key]: { ...s[key], status: 'loading', error: null } }) as Partial<RunsState>);
      try {
        const data = await fetch();
        set({ [key]: { status: 'ready', data, error: null } } as Partial<RunsState>);
      } catch (err) {
        set((s) => ({ [key]: { ...s[key], status: 'error', error: errorMessage(err) } }) as Partial<RunsState>);
      }
    };

  return {
    runs: idle([]),
    interrupted: idle([]),
    recent: idle([]),
    live: {},
    load: loader('runs', () => getApi().call('runs.list', {})),
    loadInterrupted: loader('interrupted', () => getApi().call('runs.interrupted', {})),
    loadRecent: loader('recent', () => getApi().call('repos.recent', {})),

    async start(input) {
      const { runId } = await getApi().call('runs.start', input);
      void get().load();
      return runId;
    },

    estimate: (input) => getApi().call('runs.estimate', input),

    applyEvent(e) {
      const live = patchLive(get().live, e);
      if (live !== get().live) set({ live });
      const { list, reload } = patchRunList(get().runs.data, e);
      if (list !== get().runs.data) set((s) => ({ runs: { ...s.runs, data: list } }));
      if (reload && get().runs.status !== 'loading') void get().load();
      if (e.type !== 'run.status') return;
      const status = (e.payload as { status?: unknown }).status;
      const listed = get().interrupted.data.some((r) => r.id === e.runId);
      // A run that leaves `interrupted` (resumed, stopped) no longer belongs in the banner.
      if (listed && status !== 'interrupted') set((s) => ({ interrupted: { ...s.interrupted, data: s.interrupted.data.filter((r) => r.id !== e.runId) } }));
      // One that becomes interrupted (its process, maybe a `ratchet` in a terminal, died) joins it, live.
      if (!listed && status === 'interrupted' && get().interrupted.status !== 'loading') void get().loadInterrupted();
    },
  };
});
