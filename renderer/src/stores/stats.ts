// Stats store: the dashboard's summaries and improvement suggestions for 7 and 30 days and the weekly report's Markdown,
// kept live: engine events that change the numbers re-fetch the period on screen (at most once a second) and mark the other stale.
import { create } from 'zustand';
import type { EngineEventDoc, ImprovementDoc, MethodInput, MethodOutput, StatsSummary } from '../../../shared/contract';
import { errorMessage, getApi } from '../api/client';

export type Days = 7 | 30;
type Slot<T> = { status: 'idle' | 'loading' | 'ready' | 'error'; data: T | null; error: string | null };
const idle = <T>(): Slot<T> => ({ status: 'idle', data: null, error: null });

/** Events after which the numbers may differ: runs starting or ending, steps committed, attempts and their cost. */
const CHANGES_STATS = new Set([
  'run.created',
  'run.status',
  'step.status',
  'step.committed',
  'step.adopted',
  'step.demoted',
  'attempt.finished',
  'decision',
  'api.usage',
]);

/** The most often a live dashboard re-fetches (ms): a run streaming API usage must not turn into a request per event. */
export const REFRESH_MS = 1000;

interface StatsState {
  days: Days;
  summary: Record<Days, Slot<StatsSummary>>;
  improvements: Record<Days, Slot<ImprovementDoc[]>>;
  report: Record<Days, Slot<string>>;
  /** Periods whose numbers an event may have changed since they were fetched: fetched again when shown. */
  stale: Record<Days, boolean>;
  setDays(days: Days): void;
  load(days: Days): Promise<void>;
  loadReport(days: Days): Promise<void>;
  /** An engine event: a throttled re-fetch of the shown period when it can change the numbers. */
  applyEvent(e: EngineEventDoc): void;
  /** The what-if: another retry policy replayed over the period's recorded attempts. */
  whatIf(input: MethodInput<'stats.whatIf'>): Promise<MethodOutput<'stats.whatIf'>>;
}

let timer: ReturnType<typeof setTimeout> | null = null;
let lastRefresh = 0;

/** Forgets the pending refresh (tests start from a clean store). */
export function resetStatsRefresh(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  lastRefresh = 0;
}

export const useStats = create<StatsState>()((set, get) => {
  const refresh = () => {
    timer = null;
    lastRefresh = Date.now();
    const { days, summary } = get();
    // Only a period that was loaded is refreshed; a dashboard never opened costs nothing.
    if (summary[days].status !== 'idle') void get().load(days);
  };

  return {
    days: 7,
    summary: { 7: idle(), 30: idle() },
    improvements: { 7: idle(), 30: idle() },
    report: { 7: idle(), 30: idle() },
    stale: { 7: false, 30: false },

    setDays(days) {
      set({ days });
      // A period fetched before other runs ended is out of date: fetch it again (its numbers stay on screen meanwhile).
      const s = get();
      if (s.summary[days].status === 'idle' || s.stale[days]) void s.load(days);
    },

    async load(days) {
      set((s) => ({
        summary: { ...s.summary, [days]: { ...s.summary[days], status: 'loading', error: null } },
        stale: { ...s.stale, [days]: false },
      }));
      const api = getApi();
      const [summary, improvements] = await Promise.allSettled([api.call('stats.summary', { days }), api.call('stats.improvements', { days })]);
      set((s) => ({
        summary: {
          ...s.summary,
          [days]:
            summary.status === 'fulfilled'
              ? { status: 'ready', data: summary.value, error: null }
              : { ...s.summary[days], status: 'error', error: errorMessage(summary.reason) },
        },
        improvements: {
          ...s.improvements,
          [days]:
            improvements.status === 'fulfilled'
              ? { status: 'ready', data: improvements.value.items, error: null }
              : { ...s.improvements[days], status: 'error', error: errorMessage(improvements.reason) },
        },
      }));
    },

    async loadReport(days) {
      set((s) => ({ report: { ...s.report, [days]: { ...s.report[days], status: 'loading', error: null } } }));
      try {
        const { markdown } = await getApi().call('stats.report', { days });
        set((s) => ({ report: { ...s.report, [days]: { status: 'ready', data: markdown, error: null } } }));
      } catch (err) {
        set((s) => ({ report: { ...s.report, [days]: { ...s.report[days], status: 'error', error: errorMessage(err) } } }));
      }
    },

    whatIf: (input) => getApi().call('stats.whatIf', input),

    applyEvent(e) {
      if (!CHANGES_STATS.has(e.type)) return;
      const s = get();
      const other: Days = s.days === 7 ? 30 : 7;
      if (s.summary[other].status !== 'idle' && !s.stale[other]) set({ stale: { ...s.stale, [other]: true } });
      if (s.summary[s.days].status === 'idle' || timer) return;
      // Leading edge when the last refresh is older than REFRESH_MS, else once at the end of the window.
      timer = setTimeout(refresh, Math.max(0, lastRefresh + REFRESH_MS - Date.now()));
    },
  };
});
