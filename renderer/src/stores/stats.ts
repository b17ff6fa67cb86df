// Stats store: the dashboard's summaries for 7 and 30 days and the weekly report's Markdown.
import { create } from 'zustand';
import type { StatsSummary } from '../../../shared/contract';
import { errorMessage, getApi } from '../api/client';

export type Days = 7 | 30;
type Slot<T> = { status: 'idle' | 'loading' | 'ready' | 'error'; data: T | null; error: string | null };
const idle = <T>(): Slot<T> => ({ status: 'idle', data: null, error: null });

interface StatsState {
  days: Days;
  summary: Record<Days, Slot<StatsSummary>>;
  report: Record<Days, Slot<string>>;
  setDays(days: Days): void;
  load(days: Days): Promise<void>;
  loadReport(days: Days): Promise<void>;
}

export const useStats = create<StatsState>()((set) => ({
  days: 7,
  summary: { 7: idle(), 30: idle() },
  report: { 7: idle(), 30: idle() },
  setDays: (days) => set({ days }),

  async load(days) {
    set((s) => ({ summary: { ...s.summary, [days]: { ...s.summary[days], status: 'loading', error: null } } }));
    try {
      const data = await getApi().call('stats.summary', { days });
      set((s) => ({ summary: { ...s.summary, [days]: { status: 'ready', data, error: null } } }));
    } catch (err) {
      set((s) => ({ summary: { ...s.summary, [days]: { ...s.summary[days], status: 'error', error: errorMessage(err) } } }));
    }
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
}));
