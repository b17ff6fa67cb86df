// The agent's transcript for one attempt: its text, and each tool call with its input and (folded) result.
import type { AttemptDetail } from '../../../shared/contract';

type Entry = AttemptDetail['transcript'][number];

function toolSummary(input: unknown): string {
  if (input && typeof input === 'object') {
    const o = input as Record<string, unknown>;
    if (typeof o.command === 'string' && typeof o.path === 'string') return `${o.command} ${o.path}`;
    if (typeof o.command === 'string') return o.command;
    if (typeof o.path === 'string') return o.path;
  }
  return JSON.stringify(input ?? '').slice(0, 200);
}

export function Transcript({ entries, live = false }: { entries: Entry[]; live?: boolean }) {
  if (entries.length === 0) return <p className="muted small-text">{live ? 'Waiting for the agent…' : 'The agent said nothing in this attempt.'}</p>;
  return (
    <ol className="transcript" aria-live={live ? 'polite' : undefined}>
      {entries.map((e, i) => (
        <li key={i} className={`tx tx-${e.kind}${e.isError ? ' tx-is-error' : ''}`}>
          {e.kind === 'text' && <p className="tx-text">{e.text}</p>}
          {e.kind === 'tool_use' && (
            <details>
              <summary><span className="tx-tool">{e.name ?? 'tool'}</span> <code>{toolSummary(e.input)}</code></summary>
              <pre>{JSON.stringify(e.input, null, 2)}</pre>
            </details>
          )}
          {e.kind === 'tool_result' && (
            <details>
              <summary className={e.isError ? 'tone-bad' : 'muted'}>{e.isError ? 'tool error' : 'result'}: {e.text.split('\n')[0]?.slice(0, 140)}</summary>
              <pre>{e.text}</pre>
            </details>
          )}
          {(e.kind === 'error' || e.kind === 'info') && <p className={e.kind === 'error' ? 'tone-bad' : 'muted'}>{e.text}</p>}
        </li>
      ))}
    </ol>
  );
}
