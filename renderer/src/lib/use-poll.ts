// Calls `fn` now and every `ms` while `enabled` (and the component is mounted): a screen's view of something with no push.
import { useEffect, useRef } from 'react';

export function usePoll(fn: () => Promise<unknown> | void, ms: number, enabled = true): void {
  const latest = useRef(fn);
  latest.current = fn;
  useEffect(() => {
    if (!enabled) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // One call at a time: the next is planned when the last has answered, so a slow database never piles calls up.
    const tick = async () => {
      try {
        await latest.current();
      } finally {
        if (!stopped) timer = setTimeout(() => void tick(), ms);
      }
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [ms, enabled]);
}
