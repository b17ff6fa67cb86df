// Virtualized monospace lines (gate output, diffs): only the visible rows are in the DOM, so 20 MB of output stays fast.
import { useEffect, useRef, type ReactNode } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useFollowEnd } from './follow-scroll';

export const LINE_HEIGHT = 18;

/** A line to scroll to and highlight; a new nonce scrolls again to the same line. */
export type LineTarget = { index: number; nonce: number };

export function VirtualLines({
  count,
  renderLine,
  label,
  maxHeight = 420,
  className = '',
  target = null,
  onRange,
  follow = false,
}: {
  count: number;
  target?: LineTarget | null;
  /** Told the rows in view (with overscan) whenever they change: a paged log asks for the lines it lacks. */
  onRange?: (start: number, end: number) => void;
  /** Keep the newest line in view as lines arrive, unless the user scrolled up (live output). */
  follow?: boolean;
  renderLine: (index: number) => ReactNode;
  label: string;
  maxHeight?: number;
  className?: string;
}) {
  const parent = useRef<HTMLDivElement>(null);
  const v = useVirtualizer({
    count,
    getScrollElement: () => parent.current,
    estimateSize: () => LINE_HEIGHT,
    overscan: 30,
    // jsdom and the first paint have no layout yet: start from a plausible viewport instead of rendering nothing.
    initialRect: { width: 800, height: Math.min(maxHeight, count * LINE_HEIGHT) },
  });
  useEffect(() => {
    if (!target || target.index >= count) return;
    v.scrollToIndex(target.index, { align: 'center' });
    parent.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
    // Once per target (its nonce), not on every render.
  }, [target?.index, target?.nonce]);
  const items = v.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? -1;
  useEffect(() => {
    if (onRange && last >= first) onRange(first, last + 1);
  }, [onRange, first, last]);
  const onScroll = useFollowEnd(parent, count, follow);
  const height = Math.min(maxHeight, Math.max(count, 1) * LINE_HEIGHT + 2);
  return (
    <div ref={parent} className={`vlines ${className}`} style={{ height }} tabIndex={0} role="log" aria-label={label} onScroll={follow ? onScroll : undefined}>
      <div style={{ height: v.getTotalSize(), position: 'relative', minWidth: '100%' }}>
        {items.map((item) => (
          <div
            key={item.key}
            className={`vline${target?.index === item.index ? ' vline-target' : ''}`}
            data-index={item.index}
            aria-current={target?.index === item.index ? 'location' : undefined}
            style={{ position: 'absolute', top: 0, transform: `translateY(${item.start}px)`, height: LINE_HEIGHT }}
          >
            {renderLine(item.index)}
          </div>
        ))}
      </div>
    </div>
  );
}
