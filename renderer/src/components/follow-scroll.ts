// Keeps a live list scrolled to its end as it grows, unless the user scrolled up to read (then it stays where they are).
import { useCallback, useLayoutEffect, useRef, type RefObject } from 'react';

/** Within this many pixels of the end counts as "at the end". */
const SLACK_PX = 24;

/** Returns the onScroll handler for `el`; after each change of `size`, scrolls to the end when following. */
export function useFollowEnd(el: RefObject<HTMLElement | null>, size: number, enabled: boolean): () => void {
  const following = useRef(true);
  const onScroll = useCallback(() => {
    const e = el.current;
    if (e) following.current = e.scrollTop + e.clientHeight >= e.scrollHeight - SLACK_PX;
  }, [el]);
  useLayoutEffect(() => {
    const e = el.current;
    if (enabled && following.current && e) e.scrollTop = e.scrollHeight;
  }, [el, size, enabled]);
  return onScroll;
}
