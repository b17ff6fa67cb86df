// Queue store: the concurrency limit, runs holding a slot, queued runs and API rate-limit holds (runs.queue), refetched after run status changes.
import { create } from 'zustand';
import type { EngineEventDoc, RunQueueDoc } from '../../../shared/contract';
import { errorMessage, getApi } from '../api/client';

interface QueueState {
  doc: RunQueueDoc | null;
  error: string | null;
  load(): Promise<void>;
  /** A queued run's priority (higher starts first), kept within the contract's -100..100. */
  setPriority(runId: string, priority: number): Promise<void>;
  applyEvent(e: EngineEventDoc): void;
}

/** Status changes arrive in bursts (a run ends, the next queued one starts): one refetch per burst. */
const REFETCH_MS = 250;
let timer: ReturnType<typeof setTimeout> | null = null;

export const useQueue = create<QueueState>()((set, get) => ({
  doc: null,
  error: null,
  async load() {
    try {
      set({ doc: await getApi().call('runs.queue', {}), error: null });
    } catch (err) {
      set({ error: errorMessage(err) });
    }
  },
  async setPriority(runId, priority) {
    await getApi().call('runs.setPriority', { runId, priority: Math.max(-100, Math.min(100, priority)) });
  },
  applyEvent(e) {
    // A run starting, waiting (a 429 hold), ending or leaving the queue changes slots, queue or holds.
    if (e.type !== 'run.status' && e.type !== 'run.created') return;
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      void get().load();
    }, REFETCH_MS);
  },
}));
