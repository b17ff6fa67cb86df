// One gate's result: command, exit status, duration and its output, virtualized with ANSI colours.
import { memo, useMemo, useState } from 'react';
import type { AttemptDetail } from '../../../shared/contract';
import { ansiSpans, lineAt, lineIndex, stripAnsi } from '../lib/ansi';
import { bytes, duration } from '../lib/format';
import { VirtualLines, type LineTarget } from './VirtualLines';

type Gate = AttemptDetail['gates'][number];

function exitText(g: Gate): string {
  if (g.timedOut) return 'timed out';
  if (g.signal) return `killed by ${g.signal}`;
  return g.exitCode === null ? 'no exit code' : `exit ${g.exitCode}`;
}

/** Memoized: a live event elsewhere in the attempt (a transcript entry) does not redraw a finished gate's log. */
export const GateOutput = memo(function GateOutput({ gate, pending = false, target = null }: { gate: Gate; pending?: boolean; target?: LineTarget | null }) {
  const starts = useMemo(() => lineIndex(gate.output), [gate.output]);
  // A cache per output: scrolling back re-renders rows, and parsing a row's escapes once is enough.
  const cache = useMemo(() => new Map<number, ReturnType<typeof ansiSpans>>(), [gate.output]);
  const [copied, setCopied] = useState(false);
  const lineCount = gate.output === '' ? 0 : starts.length;
  const gutter = `${String(lineCount).length + 2}ch`;
  const renderLine = (i: number) => {
    let spans = cache.get(i);
    if (!spans) {
      spans = ansiSpans(lineAt(gate.output, starts, i));
      cache.set(i, spans);
    }
    return (
      <>
        <span className="ln" style={{ width: gutter }} aria-hidden="true">{i + 1}</span>
        {spans.map((s, k) => (
          <span key={k} className={s.fgClass || s.bgClass ? `${s.fgClass ?? ''} ${s.bgClass ?? ''}` : undefined} style={{ color: s.fg ?? undefined, background: s.bg ?? undefined, fontWeight: s.bold ? 600 : undefined, opacity: s.dim ? 0.65 : undefined, fontStyle: s.italic ? 'italic' : undefined, textDecoration: s.underline ? 'underline' : undefined }}>
            {s.text}
          </span>
        ))}
      </>
    );
  };
  const copy = async () => {
    await navigator.clipboard?.writeText(stripAnsi(gate.output));
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <section className={`gate ${gate.passed ? 'gate-passed' : 'gate-failed'}`} aria-label={`gate ${gate.gate}`}>
      <header className="gate-header">
        <span className={`badge tone-${gate.passed ? 'good' : 'bad'}`}>{gate.gate} {gate.passed ? 'passed' : 'failed'}</span>
        <code className="gate-command">{gate.command}</code>
        <span className="muted">{exitText(gate)} · {duration(gate.durationMs)} · {bytes(gate.outputBytes)}{lineCount > 0 && ` · ${lineCount.toLocaleString()} lines`}</span>
        {lineCount > 0 && <button type="button" className="small" onClick={() => void copy()}>{copied ? 'Copied' : 'Copy output'}</button>}
      </header>
      {pending && gate.output === '' ? (
        <p className="muted small-text">Loading output…</p>
      ) : lineCount === 0 ? (
        <p className="muted small-text">No output.</p>
      ) : (
        <VirtualLines count={lineCount} renderLine={renderLine} label={`output of gate ${gate.gate}`} className="terminal" target={target} />
      )}
    </section>
  );
});
