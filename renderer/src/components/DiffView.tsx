// The attempt's diff as a coloured unified diff, virtualized like gate output.
import { useMemo } from 'react';
import { diffStats, readUnifiedDiff } from '../../../shared/unified-diff';
import { VirtualLines, type LineTarget } from './VirtualLines';

export function DiffView({ diff, running = false, target = null }: { diff: string | null; running?: boolean; target?: LineTarget | null }) {
  const lines = useMemo(() => (diff ? diff.replace(/\n$/, '').split('\n') : []), [diff]);
  // The review's reader (shared/unified-diff.ts) classifies the lines too, so both views agree on what a line is.
  const read = useMemo(() => (diff ? readUnifiedDiff(diff.replace(/\n$/, '')) : null), [diff]);
  const stats = useMemo(() => (read ? diffStats(read.files) : null), [read]);
  if (!diff || lines.length === 0)
    return <p className="muted small-text">{running ? 'The diff is taken when the agent is done.' : 'No changes in this attempt.'}</p>;
  return (
    <div className="diff">
      {stats && (
        <p className="small-text muted">
          {stats.files} file{stats.files === 1 ? '' : 's'} changed, <span className="tone-good">+{stats.added}</span>{' '}
          <span className="tone-bad">−{stats.removed}</span>
        </p>
      )}
      <VirtualLines
        count={lines.length}
        label="diff"
        className="diff-lines"
        target={target}
        renderLine={(i) => {
          const line = lines[i] ?? '';
          return <span className={`diff-${read?.kinds[i] ?? 'context'}`}>{line || ' '}</span>;
        }}
      />
    </div>
  );
}
