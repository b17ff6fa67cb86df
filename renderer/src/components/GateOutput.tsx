// One gate's result (command, exit status, duration, its output virtualized with ANSI colours, a long log paged as it
// is scrolled), and the output of a gate still running, streamed live.
import { memo, useCallback, useMemo, useState } from 'react';
import type { AttemptDetail } from '../../../shared/contract';
import { originalLines } from '../../../shared/line-index';
import { ansiSpans, lineAt, lineIndex, stripAnsi } from '../lib/ansi';
import { bytes, duration } from '../lib/format';
import { fetchGateLines, useGateLogPages } from '../stores/gate-log';
import { useRunDetail } from '../stores/run-detail';
import { VirtualLines, type LineTarget } from './VirtualLines';

type Gate = AttemptDetail['gates'][number];
type Spans = ReturnType<typeof ansiSpans>;

/** Where a paged log comes from: the attempt it belongs to. */
export interface AttemptRef {
  runId: string;
  step: number;
  n: number;
}

function exitText(g: Gate): string {
  if (g.timedOut) return 'timed out';
  if (g.signal) return `killed by ${g.signal}`;
  return g.exitCode === null ? 'no exit code' : `exit ${g.exitCode}`;
}

/** `n`: the line's number in the gate's whole output (a kept log leaves lines out), 0 for the note standing for them. */
function Line({ n, spans, gutter }: { n: number; spans: Spans | null; gutter: string }) {
  return (
    <>
      <span className="ln" style={{ width: gutter }} aria-hidden="true">
        {n > 0 ? n : ''}
      </span>
      {spans === null ? (
        <span className="muted">…</span>
      ) : (
        spans.map((s, k) => (
          <span
            key={k}
            className={s.fgClass || s.bgClass ? `${s.fgClass ?? ''} ${s.bgClass ?? ''}` : undefined}
            style={{
              color: s.fg ?? undefined,
              background: s.bg ?? undefined,
              fontWeight: s.bold ? 600 : undefined,
              opacity: s.dim ? 0.65 : undefined,
              fontStyle: s.italic ? 'italic' : undefined,
              textDecoration: s.underline ? 'underline' : undefined,
            }}
          >
            {s.text}
          </span>
        ))
      )}
    </>
  );
}

/** Lines of one text, their escapes parsed once per line (scrolling back re-renders rows). */
function useTextLines(text: string) {
  const starts = useMemo(() => lineIndex(text), [text]);
  const cache = useMemo(() => new Map<number, Spans>(), [text]);
  const original = useMemo(() => originalLines(text, starts), [text, starts]);
  const count = text === '' ? 0 : starts.length;
  const spans = (i: number): Spans => {
    let s = cache.get(i);
    if (!s) {
      s = ansiSpans(lineAt(text, starts, i));
      cache.set(i, s);
    }
    return s;
  };
  return { count, spans, original };
}

/** Memoized: a live event elsewhere in the attempt (a transcript entry) does not redraw a finished gate's log. */
/** `stopped`: the attempt was stopped by the user, so a gate that did not pass was cut short, not failed by the code. */
export const GateOutput = memo(function GateOutput({
  gate,
  pending = false,
  target = null,
  attempt = null,
  stopped = false,
}: {
  gate: Gate;
  pending?: boolean;
  target?: LineTarget | null;
  attempt?: AttemptRef | null;
  stopped?: boolean;
}) {
  const head = useTextLines(gate.output);
  const cutShort = stopped && !gate.passed;
  // A long log came as its first lines: the rest is asked for as it is scrolled to.
  const paged = gate.partial === true && attempt !== null;
  const pages = useGateLogPages(paged ? { ...attempt, gate: gate.gate } : null);
  const pageSpans = useMemo(() => new Map<number, Spans>(), [gate]);
  const { want } = pages;
  // Lines the head already holds are never asked for.
  const onRange = useCallback(
    (start: number, end: number) => {
      if (Math.max(start, head.count) < end) want(Math.max(start, head.count), end);
    },
    [want, head.count],
  );
  const [copied, setCopied] = useState<'no' | 'copying' | 'yes'>('no');
  const lineCount = paged ? (gate.lineCount ?? head.count) : head.count;
  // A kept log (head, failures, tail) numbers its lines as in the whole output and says how many that had.
  const original = paged ? null : head.original;
  // The newline that ends an output ends its last line; it does not start another (issue 34 item 10).
  const shownLines = original ? original.total : lineCount - (!paged && lineCount > 1 && gate.output.endsWith('\n') ? 1 : 0);
  const numberOf = (i: number): number => (original ? (original.numbers[i] ?? i + 1) : i + 1);
  const gutter = `${String(shownLines).length + 2}ch`;
  const spansOf = (i: number): Spans | null => {
    if (i < head.count) return head.spans(i);
    let s = pageSpans.get(i);
    if (!s) {
      const text = pages.line(i);
      if (text === null) return null;
      s = ansiSpans(text);
      pageSpans.set(i, s);
    }
    return s;
  };
  const copy = async () => {
    setCopied('copying');
    try {
      const text = paged ? (await fetchGateLines({ ...attempt, gate: gate.gate }, 0, lineCount)).join('\n') : gate.output;
      await navigator.clipboard?.writeText(stripAnsi(text));
      setCopied('yes');
    } catch {
      setCopied('no');
      return;
    }
    setTimeout(() => setCopied('no'), 1500);
  };
  return (
    <section className={`gate ${gate.passed ? 'gate-passed' : cutShort ? 'gate-stopped' : 'gate-failed'}`} aria-label={`gate ${gate.gate}`}>
      <header className="gate-header">
        <span className={`badge tone-${gate.passed ? 'good' : cutShort ? 'muted' : 'bad'}`}>
          {gate.gate} {gate.passed ? 'passed' : cutShort ? 'stopped' : 'failed'}
        </span>
        <code className="gate-command">{gate.command}</code>
        <span className="muted">
          {exitText(gate)} · {duration(gate.durationMs)} · {bytes(gate.outputBytes)}
          {lineCount > 0 && ` · ${shownLines.toLocaleString()} ${shownLines === 1 ? 'line' : 'lines'}`}
          {original && ` (${(lineCount - (gate.output.endsWith('\n') ? 1 : 0)).toLocaleString()} kept)`}
        </span>
        {lineCount > 0 && (
          <button type="button" className="small" disabled={copied === 'copying'} onClick={() => void copy()}>
            {copied === 'yes' ? 'Copied' : copied === 'copying' ? 'Copying…' : 'Copy output'}
          </button>
        )}
      </header>
      {pending && gate.output === '' ? (
        <p className="muted small-text">Loading output…</p>
      ) : lineCount === 0 ? (
        <p className="muted small-text">No output.</p>
      ) : (
        <VirtualLines
          count={lineCount}
          renderLine={(i) => <Line n={numberOf(i)} spans={spansOf(i)} gutter={gutter} />}
          label={`output of gate ${gate.gate}`}
          className="terminal"
          target={target}
          onRange={paged ? onRange : undefined}
        />
      )}
      {pages.error && (
        <p className="inline-error" role="alert">
          Could not load more of this log: {pages.error} Scroll again to retry.
        </p>
      )}
    </section>
  );
});

/** The output of the gate running in an attempt, as it streams in; it follows the newest line unless scrolled up. */
export function LiveGateOutput({ runId, attemptKey }: { runId: string; attemptKey: string }) {
  const live = useRunDetail((s) => s.byId[runId]?.liveGate[attemptKey] ?? null);
  // A line still being printed shows; the empty "line" after the last line break does not.
  const text = live?.text ?? '';
  const { count, spans } = useTextLines(text.endsWith('\n') ? text.slice(0, -1) : text);
  if (!live) return null;
  const gutter = `${String(count).length + 2}ch`;
  return (
    <section className="gate gate-running" aria-label={`gate ${live.gate} (running)`}>
      {live.skippedBytes > 0 && (
        <p className="muted small-text">{bytes(live.skippedBytes)} of earlier output not shown while the gate runs; the whole output appears when it ends.</p>
      )}
      {count === 0 ? (
        <p className="muted small-text">No output yet.</p>
      ) : (
        <VirtualLines
          count={count}
          renderLine={(i) => <Line n={i + 1} spans={spans(i)} gutter={gutter} />}
          label={`live output of gate ${live.gate}`}
          className="terminal"
          follow
        />
      )}
    </section>
  );
}
