// Review store: a run's change (whole run or one step), its comments and rounds, which files were viewed (kept per run),
// and the actions that comment and send the review; refetched when a `review.round` event says it changed.
import { create } from 'zustand';
import type { EngineEventDoc, ReviewDoc } from '../../../shared/contract';
import { errorMessage, getApi } from '../api/client';

interface ReviewState {
  runId: string | null;
  /** null: the whole run's change (base → head); a number: that step's. */
  step: number | null;
  diff: string | null;
  /** The commit the diff's new side is (its lines are read there when unchanged ones are opened). */
  to: string | null;
  review: ReviewDoc | null;
  viewed: Record<string, true>;
  error: string | null;
  sending: boolean;
  open(runId: string, step?: number | null): Promise<void>;
  reload(): Promise<void>;
  /** Lines of a file of the diff's new side (unchanged lines opened in the diff view). */
  fileLines(path: string, from: number, count: number): Promise<{ lines: string[]; total: number }>;
  comment(file: string, line: number, body: string, endLine?: number): Promise<boolean>;
  edit(id: number, body: string): Promise<void>;
  remove(id: number): Promise<void>;
  send(): Promise<void>;
  toggleViewed(path: string): void;
  applyEvent(e: EngineEventDoc): void;
}

const viewedKey = (runId: string) => `ratchet.review.viewed.${runId}`;

function loadViewed(runId: string): Record<string, true> {
  try {
    return JSON.parse(globalThis.localStorage?.getItem(viewedKey(runId)) ?? '{}') as Record<string, true>;
  } catch {
    return {};
  }
}

export const useReview = create<ReviewState>()((set, get) => ({
  runId: null,
  step: null,
  diff: null,
  to: null,
  review: null,
  viewed: {},
  error: null,
  sending: false,
  async open(runId, step = null) {
    set({ runId, step, diff: null, to: null, review: null, error: null, viewed: loadViewed(runId) });
    await get().reload();
  },
  async reload() {
    const { runId, step } = get();
    if (!runId) return;
    try {
      const api = getApi();
      const [d, review] = await Promise.all([api.call('review.diff', step === null ? { runId } : { runId, step }), api.call('review.get', { runId })]);
      if (get().runId === runId && get().step === step) set({ diff: d.diff, to: d.to, review, error: null });
    } catch (err) {
      set({ error: errorMessage(err) });
    }
  },
  async fileLines(path, from, count) {
    const { runId, to } = get();
    if (!runId || !to) throw new Error('The change is not loaded yet.');
    return getApi().call('review.fileLines', { runId, commit: to, path, from, count });
  },
  async comment(file, line, body, endLine) {
    const { runId } = get();
    if (!runId || !body.trim()) return false;
    try {
      await getApi().call('review.comment', endLine !== undefined && endLine > line ? { runId, file, line, endLine, body } : { runId, file, line, body });
      set({ review: await getApi().call('review.get', { runId }), error: null });
      return true;
    } catch (err) {
      set({ error: errorMessage(err) });
      return false;
    }
  },
  async edit(id, body) {
    const { runId } = get();
    if (!runId) return;
    try {
      await getApi().call('review.edit', { runId, id, body });
      set({ review: await getApi().call('review.get', { runId }) });
    } catch (err) {
      set({ error: errorMessage(err) });
    }
  },
  async remove(id) {
    const { runId } = get();
    if (!runId) return;
    try {
      await getApi().call('review.remove', { runId, id });
      set({ review: await getApi().call('review.get', { runId }) });
    } catch (err) {
      set({ error: errorMessage(err) });
    }
  },
  async send() {
    const { runId } = get();
    if (!runId) return;
    set({ sending: true, error: null });
    try {
      await getApi().call('review.send', { runId });
      // The comments are sent now (a round answers later, and its review.round event reloads again).
      await get().reload();
    } catch (err) {
      set({ error: errorMessage(err) });
    } finally {
      set({ sending: false });
    }
  },
  toggleViewed(path) {
    const { runId, viewed } = get();
    if (!runId) return;
    const next = { ...viewed };
    if (next[path]) delete next[path];
    else next[path] = true;
    set({ viewed: next });
    globalThis.localStorage?.setItem(viewedKey(runId), JSON.stringify(next));
  },
  applyEvent(e) {
    if (e.runId !== get().runId) return;
    if (e.type === 'review.round' || e.type === 'step.committed') void get().reload();
  },
}));
