// Schedules store (Settings › Schedules): the schedules with their problems, adding, pausing and removing one, and the
// next five times of the cron expression being typed (schedules.preview: the engine's own cron reading).
import { create } from 'zustand';
import type { MethodInput, MethodOutput, ScheduleDoc } from '../../../shared/contract';
import { errorMessage, getApi } from '../api/client';

interface SchedulesState {
  list: ScheduleDoc[];
  error: string | null;
  preview: MethodOutput<'schedules.preview'> | null;
  load(): Promise<void>;
  /** Resolves with the refusal's sentence (bad cron, zone, repository, trust), or null once added. */
  add(input: MethodInput<'schedules.add'>): Promise<string | null>;
  setPaused(id: string, paused: boolean): Promise<void>;
  remove(id: string): Promise<void>;
  previewOf(cron: string, tz: string | null): Promise<void>;
}

export const useSchedules = create<SchedulesState>()((set, get) => ({
  list: [],
  error: null,
  preview: null,
  async load() {
    try {
      set({ list: await getApi().call('schedules.list', {}), error: null });
    } catch (e) {
      set({ error: errorMessage(e) });
    }
  },
  async add(input) {
    try {
      await getApi().call('schedules.add', input);
      await get().load();
      return null;
    } catch (e) {
      return errorMessage(e);
    }
  },
  async setPaused(id, paused) {
    await getApi().call('schedules.setPaused', { id, paused });
    await get().load();
  },
  async remove(id) {
    await getApi().call('schedules.remove', { id });
    await get().load();
  },
  async previewOf(cron, tz) {
    if (!cron.trim()) return set({ preview: null });
    try {
      set({ preview: await getApi().call('schedules.preview', { cron, tz }) });
    } catch (e) {
      set({ preview: { error: errorMessage(e), next: [] } });
    }
  },
}));
