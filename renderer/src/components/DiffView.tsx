// The attempt's diff as a coloured unified diff, virtualized like gate output.
import { useMemo } from 'react';
import { diffLineKind, diffStats } from '../lib/diff';
import { VirtualLines } from './VirtualLines';

export function DiffView({ diff, running = false }: { diff: string | null; running?: boolean }) {
  const lines = useMemo(() => (diff ? diff.replace(/\n$/, '').split('\n') : []), [diff]);
  const stats = useMemo(() => (diff ? diffStats(diff) : null), [diff]);
  if (!diff || lines.length === 0) return <p className="muted small-text">{running ? 'The diff is taken when the agent is done.' : 'No changes in this attempt.'}</p>;
  return (
    <div className="diff">
      {stats && (
        <p className="small-text muted">
          {stats.files} file{stats.files === 1 ? '' : 's'} changed, <span className="tone-good">+{stats.added}</span> <span className="tone-bad">−{stats.removed}</span>
        </p>
      )}
      <VirtualLines count={lines.length} label="diff" className="diff-lines" renderLine={(i) => {
        const line = lines[i] ?? '';
        return <span className={`diff-${diffLineKind(line)}`}>{line || ' '}</span>;
      }} />
    </div>
  );
}
