// The run's change read like a pull request: files with counts, a filter and viewed marks, unified or split with syntax
// colours, comments on lines or ranges written under them and editable until sent, "Send to agent" (one round for
// every pending comment), answers under the comments. Keys in the diff: `]`/`[` file, `n`/`p` hunk, `c` comment.
import { useEffect, useMemo, useState } from 'react';
import type { ReviewCommentDoc } from '../../../shared/contract';
import { diffFiles, filterFiles, type Thread } from '../lib/review-files';
import { useReview } from '../stores/review';
import { ReviewDiff } from './ReviewDiff';
import { DiffLayoutToggle } from './DiffLayoutToggle';

function Comment({ c }: { c: ReviewCommentDoc }) {
  const [editing, setEditing] = useState<string | null>(null);
  const where = `${c.file}:${c.line}${c.endLine > c.line ? `-${c.endLine}` : ''}`;
  return (
    <li className={`review-comment ${c.state}`} aria-label={`comment on ${where}`}>
      <div className="review-comment-head">
        <code>{where}</code> {c.outdated ? <em>outdated</em> : null} <span className="muted">{c.state}</span>
        {c.state === 'pending' && editing === null ? (
          <span className="review-comment-actions">
            <button type="button" className="small" onClick={() => setEditing(c.body)}>
              Edit
            </button>
            <button type="button" className="small" onClick={() => void useReview.getState().remove(c.id)}>
              Delete
            </button>
          </span>
        ) : null}
      </div>
      {editing !== null ? (
        <form
          aria-label={`edit comment on ${where}`}
          onSubmit={(e) => {
            e.preventDefault();
            void useReview
              .getState()
              .edit(c.id, editing)
              .then(() => setEditing(null));
          }}
        >
          <textarea aria-label="comment text" value={editing} onChange={(e) => setEditing(e.target.value)} />
          <button type="submit" className="small" disabled={!editing.trim()}>
            Save
          </button>
          <button type="button" className="small" onClick={() => setEditing(null)}>
            Cancel
          </button>
        </form>
      ) : (
        <p>{c.body}</p>
      )}
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

const NO_THREADS: ReadonlyMap<string, Thread<ReviewCommentDoc>> = new Map();
const readLines = (path: string, from: number, count: number) => useReview.getState().fileLines(path, from, count);

export function ReviewPanel({ runId, steps = [] }: { runId: string; steps?: ReadonlyArray<{ index: number; title: string }> }) {
  const { diff, review, viewed, error, sending, step } = useReview();
  const [filter, setFilter] = useState('');
  const [split, setSplit] = useState(false);
  const [jump, setJump] = useState<{ fi: number; nonce: number } | null>(null);
  const [draft, setDraft] = useState<{ file: string; line: number; endLine: number; body: string } | null>(null);
  useEffect(() => {
    void useReview.getState().open(runId);
  }, [runId]);
  const files = useMemo(() => (diff === null ? [] : diffFiles(diff)), [diff]);
  const shown = filterFiles(files, filter);
  const comments = useMemo(() => review?.comments ?? [], [review]);
  const pending = comments.filter((c) => c.state === 'pending').length;
  const threads = useMemo(() => {
    const m = new Map<string, Thread<ReviewCommentDoc>>();
    for (const c of comments) {
      if (c.anchorLine === null) continue;
      const line = c.anchorEndLine ?? c.anchorLine;
      const key = `${c.file}:${line}`;
      const t = m.get(key) ?? { file: c.file, line, comments: [] };
      t.comments.push(c);
      m.set(key, t);
    }
    return m;
  }, [comments]);
  const outdated = comments.filter((c) => c.anchorLine === null);
  const draftAt = useMemo(() => (draft ? { file: draft.file, endLine: draft.endLine } : null), [draft?.file, draft?.endLine]);
  const where = draft ? `${draft.file}:${draft.line}${draft.endLine > draft.line ? `-${draft.endLine}` : ''}` : '';

  return (
    <section aria-label="review" className="card review-panel">
      <header className="card-header review-head">
        <h2>Review</h2>
        <span aria-label="pending comments">
          {pending} comment{pending === 1 ? '' : 's'}
        </span>
        <DiffLayoutToggle split={split} onChange={setSplit} />
        {steps.length > 0 ? (
          <select
            aria-label="change shown"
            value={step ?? ''}
            onChange={(e) => {
              setDraft(null);
              void useReview.getState().open(runId, e.target.value === '' ? null : Number(e.target.value));
            }}
          >
            <option value="">Whole run</option>
            {steps.map((s) => (
              <option key={s.index} value={s.index}>
                Step {s.index}: {s.title}
              </option>
            ))}
          </select>
        ) : null}
        <span
          className="muted small-text"
          title="In the diff: ] and [ go to the next and previous file, n and p to the next and previous hunk, c comments on the selected lines"
        >
          Keys: ] [ file · n p hunk · c comment
        </span>
        <button type="button" className="primary" disabled={pending === 0 || sending} onClick={() => void useReview.getState().send()}>
          Send to agent
        </button>
      </header>
      {error ? <p role="alert">{error}</p> : null}
      {step !== null ? (
        <p className="muted small-text">Step {step}'s change. Comments are written on the whole run's change, which is what the branch holds now.</p>
      ) : null}
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
                <button type="button" title={f.path} onClick={() => setJump({ fi: files.indexOf(f), nonce: Date.now() })}>
                  {f.path}
                </button>
                <span className="diff-add-text">+{f.added}</span> <span className="diff-del-text">−{f.removed}</span>
                {f.file.status !== 'modified' ? <em> {f.file.status}</em> : null}
                {f.file.binary ? <em> binary</em> : null}
              </li>
            ))}
          </ul>
        </nav>
        <div className="review-diff">
          {files.length > 0 ? (
            <ReviewDiff
              files={files}
              split={split}
              threads={step === null ? threads : NO_THREADS}
              draft={draftAt}
              viewed={viewed}
              onToggleViewed={(p) => useReview.getState().toggleViewed(p)}
              jump={jump}
              readLines={readLines}
              onPick={(file, line, endLine) => {
                // A comment points at the branch as it is now, which is what the whole run's change shows; a step's
                // lines may have moved in later steps.
                if (step === null) setDraft({ file, line, endLine, body: draft?.file === file ? draft.body : '' });
              }}
              renderThread={(t) => (
                <ul aria-label={`comments on ${t.file}:${t.line}`} className="review-comments">
                  {t.comments.map((c) => (
                    <Comment key={c.id} c={c} />
                  ))}
                </ul>
              )}
              renderDraft={() =>
                draft ? (
                  <form
                    aria-label="new comment"
                    className="review-draft"
                    onSubmit={(e) => {
                      e.preventDefault();
                      void useReview
                        .getState()
                        .comment(draft.file, draft.line, draft.body, draft.endLine)
                        .then((ok) => ok && setDraft(null));
                    }}
                  >
                    <label>
                      Comment on {where}
                      <textarea autoFocus value={draft.body} onChange={(e) => setDraft({ ...draft, body: e.target.value })} />
                    </label>
                    <button type="submit" className="small primary" disabled={!draft.body.trim()}>
                      Add comment
                    </button>
                    <button type="button" className="small" onClick={() => setDraft(null)}>
                      Cancel
                    </button>
                  </form>
                ) : null
              }
            />
          ) : (
            <p className="muted">{diff === null ? 'Loading the change…' : 'No change.'}</p>
          )}
          {outdated.length > 0 ? (
            <ul aria-label="outdated comments" className="review-comments">
              {outdated.map((c) => (
                <Comment key={c.id} c={c} />
              ))}
            </ul>
          ) : null}
        </div>
      </div>
    </section>
  );
}
