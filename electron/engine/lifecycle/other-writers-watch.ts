// Other processes write to the same store (a `ratchet run` in a terminal): their events reach this process's listeners,
// and runs whose owner died are marked interrupted, on a timer.
import type { Store } from '../store/store';

export function createOtherWritersWatch(store: Store, detectInterrupted: () => string[]) {
  const watchers = new Set<NodeJS.Timeout>();
  /**
   * Other processes write to the same store (a `ratchet run` in a terminal): every `intervalMs` their new events are
   * delivered through onEvent, as this process's own are (PRAGMA data_version tells, at no cost, whether anyone else
   * committed); every ~10 s runs whose owner died are marked interrupted. Returns the stop function.
   */
  function watchOtherWriters(intervalMs = 750): () => void {
    store.watchOtherWriters();
    const every = Math.max(1, Math.round(10_000 / intervalMs));
    let ticks = 0;
    const timer = setInterval(() => {
      try {
        store.pollOtherWriters();
        if (++ticks % every === 0) detectInterrupted();
      } catch {
        // Busy past the timeout, or closed: the next tick tries again.
      }
    }, intervalMs);
    timer.unref();
    watchers.add(timer);
    return () => {
      clearInterval(timer);
      watchers.delete(timer);
    };
  }
  return {
    watchOtherWriters,
    stopAll(): void {
      for (const t of watchers) clearInterval(t);
      watchers.clear();
    },
  };
}
