// The agent's transcript for one attempt: its text, and each tool call with its input and (folded) result; virtualized, following a live attempt.
import { memo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { AttemptDetail } from '../../../shared/contract';
import { useFollowEnd } from './follow-scroll';

type Entry = AttemptDetail['transcript'][number];

/** Rows are measured once drawn; this is only where the virtualizer starts. */
const ESTIMATED_ROW_PX = 30;
/** The transcript's own viewport; it scrolls inside the attempt panel, as gate output does. */
const MAX_HEIGHT_PX = 640;

function toolSummary(input: unknown): string {
  if (input && typeof input === 'object') {
    const o = input as Record<string, unknown>;
    if (typeof o.command === 'string' && typeof o.path === 'string') return `${o.command} ${o.path}`;
    if (typeof o.command === 'string') return o.command;
    if (typeof o.path === 'string') return o.path;
  }
  return JSON.stringify(input ?? '').slice(0, 200);
}

/** One entry; an entry never changes once received, so a new event renders only its own row. */
const EntryBody = memo(function EntryBody({ e }: { e: Entry }) {
  return (
    <>
      {e.kind === 'text' && <p className="tx-text">{e.text}</p>}
      {e.kind === 'tool_use' && (
        <details>
          <summary>
            <span className="tx-tool">{e.name ?? 'tool'}</span> <code>{toolSummary(e.input)}</code>
          </summary>
          <pre>{JSON.stringify(e.input, null, 2)}</pre>
        </details>
      )}
      {e.kind === 'tool_result' && (
        <details>
          <summary className={e.isError ? 'tone-bad' : 'muted'}>
            {e.isError ? 'tool error' : 'result'}: {e.text.split('\n')[0]?.slice(0, 140)}
          </summary>
          <pre>{e.text}</pre>
        </details>
      )}
      {(e.kind === 'error' || e.kind === 'info') && <p className={e.kind === 'error' ? 'tone-bad' : 'muted'}>{e.text}</p>}
    </>
  );
});

export function Transcript({ entries, live = false }: { entries: Entry[]; live?: boolean }) {
  const parent = useRef<HTMLDivElement>(null);
  const v = useVirtualizer({
    count: entries.length,
    getScrollElement: () => parent.current,
    estimateSize: () => ESTIMATED_ROW_PX,
    overscan: 6,
    // A drawn row is never 0 px tall; 0 means no layout (jsdom, a hidden panel): keep the estimate then.
    measureElement: (el) => el.getBoundingClientRect().height || ESTIMATED_ROW_PX,
    // jsdom and the first paint have no layout yet: start from a plausible viewport instead of rendering nothing.
    initialRect: { width: 800, height: MAX_HEIGHT_PX },
  });
  // Follows the content's height, not the count: a new row is measured after it is drawn, and may grow then.
  const onScroll = useFollowEnd(parent, v.getTotalSize(), live);
  if (entries.length === 0) return <p className="muted small-text">{live ? 'Waiting for the agent…' : 'The agent said nothing in this attempt.'}</p>;
  return (
    <div
      ref={parent}
      className="transcript-scroll"
      style={{ height: Math.min(MAX_HEIGHT_PX, v.getTotalSize() + 2) }}
      onScroll={onScroll}
      tabIndex={0}
      role="region"
      aria-label={`transcript, ${entries.length.toLocaleString()} ${entries.length === 1 ? 'entry' : 'entries'}`}
    >
      <ol className="transcript" aria-live={live ? 'polite' : undefined} style={{ height: v.getTotalSize() }}>
        {v.getVirtualItems().map((item) => {
          const e = entries[item.index]!;
          return (
            <li
              key={item.key}
              ref={v.measureElement}
              data-index={item.index}
              className={`tx tx-${e.kind}${e.isError ? ' tx-is-error' : ''}`}
              style={{ transform: `translateY(${item.start}px)` }}
            >
              <EntryBody e={e} />
            </li>
          );
        })}
      </ol>
    </div>
  );
}
