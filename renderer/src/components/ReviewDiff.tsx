// The run's whole change as one virtualized list, as a pull request shows it: a header per file, hunks, lines unified
// or side by side with syntax colours, comment threads under their lines, the comment being written. Only the rows in
// view are in the DOM and only they are highlighted, so a 10,000-line diff paints as fast as a 100-line one (bench P20).
// Keys: `]`/`[` next/previous file, `n`/`p` next/previous hunk, `c` comment on the selected lines.
import { memo, useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { DiffLine } from '../../../shared/unified-diff';
import { highlightLine, languageOf } from '../lib/diff-highlight';
import { nextRow, openLines, reviewRows, rowNewLine, type FileEntry, type OpenedLines, type ReviewRow, type Thread } from '../lib/review-files';

export const ROW_HEIGHT = 20;
/** Unchanged lines one click opens at most (the contract's bound for review.fileLines); a longer gap opens in parts. */
const EXPAND_MAX = 2000;
const MARK: Record<DiffLine['kind'], string> = { context: ' ', add: '+', del: '-' };

/** A place to show: a file of the diff (its path there) and a new-side line, or its header (`line` null or not shown). */
export interface DiffTarget {
  file: string;
  line: number | null;
  nonce: number;
}

/** Lines picked for a comment: a file and a range of its new-side lines. */
export interface LineRange {
  fi: number;
  line: number;
  endLine: number;
}

const Code = memo(function Code({ line, language }: { line: DiffLine; language: string | null }) {
  const tokens = useMemo(() => highlightLine(line.text, language), [line, language]);
  return (
    <span className={`review-code diff-${line.kind}`}>
      <span className="review-mark">{MARK[line.kind]}</span>
      {tokens.map((t, i) =>
        t.cls ? (
          <span key={i} className={t.cls}>
            {t.text}
          </span>
        ) : (
          t.text
        ),
      )}
    </span>
  );
});

export type ReviewDiffProps<C> = Parameters<typeof ReviewDiff<C>>[0];

export function ReviewDiff<C>({
  files,
  split,
  threads,
  renderThread,
  renderDraft,
  draft,
  onPick,
  viewed,
  onToggleViewed,
  jump = null,
  target = null,
  readLines,
  label = 'diff',
  maxHeight = 640,
}: {
  files: readonly FileEntry[];
  split: boolean;
  threads?: ReadonlyMap<string, Thread<C>>;
  renderThread?: (thread: Thread<C>) => ReactNode;
  renderDraft?: () => ReactNode;
  /** The comment being written: under the last line it covers. */
  draft?: { file: string; endLine: number } | null;
  /** Lines picked to comment on (a click, shift-click for a range, or `c` on the selection); none: the diff is read-only. */
  onPick?: (file: string, line: number, endLine: number) => void;
  viewed?: Readonly<Record<string, true>>;
  onToggleViewed?: (path: string) => void;
  /** A file to scroll to (the file list's click); a new nonce scrolls again. */
  jump?: { fi: number; nonce: number } | null;
  /** A line to scroll to and mark (a failure's file and new-side line; the file's header when the diff does not show it); a new nonce scrolls again. */
  target?: DiffTarget | null;
  /** Reads lines of a file's new side, to open the unchanged lines between hunks; none: they stay closed. */
  readLines?: (path: string, from: number, count: number) => Promise<{ lines: string[]; total: number }>;
  /** The diff's accessible name (two diffs on one screen are told apart by it). */
  label?: string;
  maxHeight?: number;
}) {
  const [opened, setOpened] = useState<ReadonlySet<string>>(new Set());
  const [sel, setSel] = useState<LineRange | null>(null);
  // Unchanged lines opened per file, for these files only (a new diff starts closed), and what refused to open.
  const [context, setContext] = useState<{ files: readonly FileEntry[]; open: ReadonlyMap<string, OpenedLines | null>; refused: Record<string, string> }>({
    files,
    open: new Map(),
    refused: {},
  });
  const ctx = context.files === files ? context : { files, open: new Map<string, OpenedLines | null>(), refused: {} };
  const contextMap = useMemo(() => (readLines ? new Map(files.map((f) => [f.path, ctx.open.get(f.path) ?? null])) : undefined), [readLines, files, ctx.open]);
  const rows: ReviewRow<C>[] = useMemo(
    () => reviewRows(files, { split, threads, draft, opened, context: contextMap }),
    [files, split, threads, draft, opened, contextMap],
  );
  const openGap = (path: string, from: number, to: number | null) => {
    if (!readLines) return;
    readLines(path, from, Math.min(to === null ? EXPAND_MAX : to - from + 1, EXPAND_MAX))
      .then((r) =>
        setContext((c) => {
          const base = c.files === files ? c : { files, open: new Map<string, OpenedLines | null>(), refused: {} };
          return { ...base, open: new Map(base.open).set(path, openLines(base.open.get(path) ?? undefined, from, r.lines, r.total)) };
        }),
      )
      .catch((e: unknown) =>
        setContext((c) => {
          const base = c.files === files ? c : { files, open: new Map<string, OpenedLines | null>(), refused: {} };
          return { ...base, refused: { ...base.refused, [path]: e instanceof Error ? e.message : String(e) } };
        }),
      );
  };
  const languages = useMemo(() => files.map((f) => languageOf(f.path)), [files]);
  const parent = useRef<HTMLDivElement>(null);
  const cursor = useRef(0);
  const v = useVirtualizer({
    count: rows.length,
    getScrollElement: () => parent.current,
    estimateSize: (i) => (rows[i]?.kind === 'file' ? 34 : rows[i]?.kind === 'thread' || rows[i]?.kind === 'draft' ? 96 : ROW_HEIGHT),
    // Threads and drafts are as tall as their text; a row not laid out (jsdom, a hidden tab) keeps its estimate.
    measureElement: (el, _entry, inst) => el.getBoundingClientRect().height || inst.options.estimateSize(Number(el.getAttribute('data-index'))),
    overscan: 20,
    initialRect: { width: 900, height: maxHeight },
  });
  const goTo = (i: number) => {
    cursor.current = i;
    v.scrollToIndex(i, { align: 'start' });
  };
  useEffect(() => {
    if (!jump) return;
    const i = rows.findIndex((r) => r.kind === 'file' && r.fi === jump.fi);
    if (i >= 0) goTo(i);
    // Once per jump (its nonce), not when rows change under it.
  }, [jump?.fi, jump?.nonce]);

  // The row a target points at (aria-current), kept until the next target.
  const [marked, setMarked] = useState<{ fi: number; line: number | null } | null>(null);
  useEffect(() => {
    if (!target) return;
    const fi = files.findIndex((f) => f.path === target.file);
    if (fi < 0) return;
    const at = rows.findIndex((r) => r.fi === fi && target.line !== null && rowNewLine(r) === target.line && (r.kind !== 'line' || r.line.kind !== 'del'));
    const i = at >= 0 ? at : rows.findIndex((r) => r.kind === 'file' && r.fi === fi);
    setMarked({ fi, line: at >= 0 ? target.line : null });
    goTo(i);
    parent.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
    // Once per target (its nonce), not when rows change under it.
  }, [target?.file, target?.line, target?.nonce]);

  const pick = (fi: number, line: number, extend: boolean) => {
    const next =
      extend && sel && sel.fi === fi ? { fi, line: Math.min(sel.line, line), endLine: Math.max(sel.endLine, line, sel.line) } : { fi, line, endLine: line };
    setSel(next);
    return next;
  };
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.target !== e.currentTarget || e.ctrlKey || e.metaKey || e.altKey) return;
    const from = cursor.current;
    if (e.key === ']' || e.key === '[') goTo(nextRow(rows, from, e.key === ']' ? 1 : -1, 'file'));
    else if (e.key === 'n' || e.key === 'p') {
      const h = nextRow(rows, from, e.key === 'n' ? 1 : -1, 'hunk');
      goTo(h);
      // The hunk's first changed line is selected, so `c` comments on it.
      for (let i = h + 1; i < rows.length && rows[i]!.kind !== 'hunk' && rows[i]!.kind !== 'file'; i++) {
        const r = rows[i]!;
        const changed = r.kind === 'line' ? r.line.kind === 'add' : r.kind === 'pair' && r.right?.kind === 'add';
        const line = rowNewLine(r);
        if (changed && line !== null) {
          setSel({ fi: r.fi, line, endLine: line });
          break;
        }
      }
    } else if (e.key === 'c' && sel && onPick) onPick(files[sel.fi]!.path, sel.line, sel.endLine);
    else return;
    e.preventDefault();
  };

  const cell = (fi: number, l: DiffLine | null, side: 'left' | 'right' | 'one') => {
    if (!l) return <span className="review-cell empty" />;
    const n = l.newLine;
    const selected = sel && n !== null && sel.fi === fi && n >= sel.line && n <= sel.endLine && l.kind !== 'del';
    const can = Boolean(onPick) && side !== 'left' && n !== null && l.kind !== 'del';
    const here = side !== 'left' && marked !== null && marked.fi === fi && marked.line !== null && n === marked.line && l.kind !== 'del';
    return (
      <span className={`review-cell${selected ? ' selected' : ''}${here ? ' review-target' : ''}`} aria-current={here ? 'location' : undefined}>
        <button
          type="button"
          className="review-line-no"
          disabled={!can}
          aria-label={can ? `comment on line ${n}` : undefined}
          title={can ? 'Comment on this line (shift-click: a range)' : undefined}
          onClick={(e) => {
            if (!can || !onPick) return;
            const r = pick(fi, n, e.shiftKey);
            onPick(files[fi]!.path, r.line, r.endLine);
          }}
        >
          {side === 'left' ? l.oldLine : (n ?? l.oldLine)}
        </button>
        <Code line={l} language={languages[fi] ?? null} />
      </span>
    );
  };

  const renderRow = (r: ReviewRow<C>): ReactNode => {
    const f = files[r.fi]!;
    switch (r.kind) {
      case 'file':
        return (
          <div
            className={`review-file-head${marked?.fi === r.fi && marked.line === null ? ' review-target' : ''}`}
            aria-label={`file ${f.path}`}
            aria-current={marked?.fi === r.fi && marked.line === null ? 'location' : undefined}
          >
            {onToggleViewed ? (
              <input type="checkbox" aria-label={`viewed ${f.path}`} checked={Boolean(viewed?.[f.path])} onChange={() => onToggleViewed(f.path)} />
            ) : null}
            <code>{f.file.status === 'renamed' && f.file.oldPath ? `${f.file.oldPath} → ${f.path}` : f.path}</code>
            {f.file.status !== 'modified' ? <em className="muted">{f.file.status}</em> : null}
            <span className="diff-add-text">+{f.added}</span>
            <span className="diff-del-text">−{f.removed}</span>
          </div>
        );
      case 'note':
        return (
          <div className="review-note muted">
            {r.text}{' '}
            {r.open ? (
              <button type="button" className="small" onClick={() => setOpened(new Set([...opened, f.path]))}>
                Show the diff
              </button>
            ) : null}
          </div>
        );
      case 'hunk':
        return <div className="diff-hunk review-hunk">{r.text}</div>;
      case 'expand': {
        const count = r.to === null ? null : r.to - r.from + 1;
        const refused = ctx.refused[f.path];
        return (
          <div className="review-expand">
            {refused ? (
              <span className="muted small-text" role="note">
                {refused}
              </span>
            ) : (
              <button type="button" className="small" onClick={() => openGap(f.path, r.from, r.to)}>
                {count === null
                  ? 'Show the lines below'
                  : count > EXPAND_MAX
                    ? `Show ${EXPAND_MAX.toLocaleString('en')} of ${count.toLocaleString('en')} unchanged lines`
                    : `Show ${count.toLocaleString('en')} unchanged line${count === 1 ? '' : 's'}`}
              </button>
            )}
          </div>
        );
      }
      case 'line':
        return <div className="review-row">{cell(r.fi, r.line, 'one')}</div>;
      case 'pair':
        return (
          <div className="review-row split">
            {cell(r.fi, r.left, 'left')}
            {cell(r.fi, r.right, 'right')}
          </div>
        );
      case 'thread':
        return <div className="review-thread">{renderThread?.(r.thread)}</div>;
      case 'draft':
        return <div className="review-thread">{renderDraft?.()}</div>;
    }
  };

  const items = v.getVirtualItems();
  return (
    <div
      ref={parent}
      className="review-scroll"
      style={{ height: Math.min(maxHeight, v.getTotalSize() + 2) }}
      tabIndex={0}
      role="region"
      aria-label={label}
      aria-keyshortcuts={onPick ? '] [ n p c' : '] [ n p'}
      onKeyDown={onKey}
    >
      <div style={{ height: v.getTotalSize(), position: 'relative' }}>
        {items.map((item) => (
          <div
            key={item.key}
            data-index={item.index}
            ref={v.measureElement}
            className="review-vrow"
            style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${item.start}px)` }}
          >
            {renderRow(rows[item.index]!)}
          </div>
        ))}
      </div>
    </div>
  );
}
