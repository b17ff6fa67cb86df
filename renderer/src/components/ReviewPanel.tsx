// The run's change read like a pull request: files with counts, a filter and viewed marks, unified or split, comments on
// lines (click a line's number), "Send to agent" (one round for every pending comment), answers under the comments.
import { useEffect, useMemo, useState } from 'react';
import type { ReviewCommentDoc } from '../../../shared/contract';
import type { DiffLine } from '../../../shared/unified-diff';
import { diffFiles, fileRows, filterFiles, type Row } from '../lib/review-files';
import { useReview } from '../stores/review';
import { VirtualLines } from './VirtualLines';

const MARK: Record<DiffLine['kind'], string> = { context: ' ', add: '+', del: '-' };

function Comment({ c }: { c: ReviewCommentDoc }) {
  const where = `${c.file}:${c.line}${c.endLine > c.line ? `-${c.endLine}` : ''}`;
  return (
    <li className={`review-comment ${c.state}`} aria-label={`comment on ${where}`}>
      <div>
        <code>{where}</code> {c.outdated ? <em>outdated</em> : null} <span className="muted">{c.state}</span>
      </div>
      <p>{c.body}</p>
      {c.state === 'answered' ? (
        <p className="review-answer" aria-label="answer">
          <strong>{c.verdict === 'done' ? 'Done' : c.verdict === 'declined' ? 'Declined' : 'No answer'}</strong>
          {c.addressedCommit ? ` in ${c.addressedCommit.slice(0, 10)}` : ''}
          {c.answer ? `: ${c.answer}` : ''}
        </p>
      ) : null}
    </li>
  );
}

export function ReviewPanel({ runId }: { runId: string }) {
  const { diff, review, viewed, error, sending } = useReview();
  const [filter, setFilter] = useState('');
  const [split, setSplit] = useState(false);
  const [selected, setSelected] = useState<string | null>(null);
  const [draft, setDraft] = useState<{ line: number; body: string } | null>(null);
  useEffect(() => {
    void useReview.getState().open(runId);
  }, [runId]);
  const files = useMemo(() => (diff === null ? [] : diffFiles(diff)), [diff]);
  const shown = filterFiles(files, filter);
  const current = files.find((f) => f.path === selected) ?? shown[0];
  const rows: Row[] = useMemo(() => (current ? fileRows(current.file, split) : []), [current, split]);
  const comments = review?.comments ?? [];
  const pending = comments.filter((c) => c.state === 'pending').length;
  const commented = new Set(comments.filter((c) => c.file === current?.path && c.anchorLine !== null).map((c) => c.anchorLine));

  const lineCell = (l: DiffLine | null) =>
    l ? (
      <>
        <button
          type="button"
          className="review-line-no"
          disabled={l.newLine === null}
          aria-label={l.newLine !== null ? `comment on line ${l.newLine}` : undefined}
          onClick={() => l.newLine !== null && setDraft({ line: l.newLine, body: '' })}
        >
          {l.newLine ?? l.oldLine}
          {l.newLine !== null && commented.has(l.newLine) ? ' •' : ''}
        </button>
        <span className={`diff-${l.kind}`}>
          {MARK[l.kind]}
          {l.text}
        </span>
      </>
    ) : (
      <span />
    );

  return (
    <section aria-label="review" className="card review-panel">
      <header className="card-header review-head">
        <h2>Review</h2>
        <span aria-label="pending comments">
          {pending} comment{pending === 1 ? '' : 's'}
        </span>
        <label>
          <input type="checkbox" checked={split} onChange={(e) => setSplit(e.target.checked)} /> Split
        </label>
        <button type="button" className="primary" disabled={pending === 0 || sending} onClick={() => void useReview.getState().send()}>
          Send to agent
        </button>
      </header>
      {error ? <p role="alert">{error}</p> : null}
      <div className="review-body">
        <nav aria-label="changed files">
          <input aria-label="filter files" placeholder="Filter files" value={filter} onChange={(e) => setFilter(e.target.value)} />
          <ul>
            {shown.map((f) => (
              <li key={f.path}>
                <input
                  type="checkbox"
                  aria-label={`viewed ${f.path}`}
                  checked={Boolean(viewed[f.path])}
                  onChange={() => useReview.getState().toggleViewed(f.path)}
                />
                <button type="button" aria-current={f === current ? 'true' : undefined} onClick={() => setSelected(f.path)}>
                  {f.path}
                </button>{' '}
                <span className="diff-add">+{f.added}</span> <span className="diff-del">-{f.removed}</span>
                {f.file.status !== 'modified' ? <em> {f.file.status}</em> : null}
                {f.file.binary ? <em> binary</em> : null}
              </li>
            ))}
          </ul>
        </nav>
        <div className="review-diff">
          {current ? (
            <VirtualLines
              label={`diff of ${current.path}`}
              count={rows.length}
              maxHeight={600}
              renderLine={(i) => {
                const r = rows[i]!;
                if (r.kind === 'hunk') return <span className="diff-hunk">{r.text}</span>;
                if (r.kind === 'line') return <span className="review-row">{lineCell(r.line)}</span>;
                return (
                  <span className="review-row split">
                    <span>{lineCell(r.left)}</span>
                    <span>{lineCell(r.right)}</span>
                  </span>
                );
              }}
            />
          ) : (
            <p className="muted">{diff === null ? 'Loading the change…' : 'No change.'}</p>
          )}
          {draft && current ? (
            <form
              aria-label="new comment"
              onSubmit={(e) => {
                e.preventDefault();
                void useReview
                  .getState()
                  .comment(current.path, draft.line, draft.body)
                  .then((ok) => ok && setDraft(null));
              }}
            >
              <label>
                Comment on {current.path}:{draft.line}
                <textarea value={draft.body} onChange={(e) => setDraft({ ...draft, body: e.target.value })} />
              </label>
              <button type="submit" disabled={!draft.body.trim()}>
                Add comment
              </button>
              <button type="button" onClick={() => setDraft(null)}>
                Cancel
              </button>
            </form>
          ) : null}
          <ul aria-label="comments" className="review-comments">
            {comments.map((c) => (
              <Comment key={c.id} c={c} />
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}
