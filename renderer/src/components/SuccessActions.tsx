// What comes after a succeeded run: copy the branch, open the worktree, merge into the base branch (previewed), or push and open a pull request.
import { useCallback, useEffect, useState } from 'react';
import type { MergePreviewDoc, MethodOutput } from '../../../shared/contract';
import { errorMessage } from '../lib/errors';
import { useRunDetail } from '../stores/run-detail';
import { useUi } from '../stores/ui';
import { InlineError, Loading } from './States';
import { PrPanel } from './PrPanel';
import { useGithub } from '../stores/github';

type Pushed = MethodOutput<'runs.push'>;
type Merged = MethodOutput<'runs.merge'>;

function CopyButton({ text, label }: { text: string; label: string }) {
  const [done, setDone] = useState<'copied' | 'failed' | null>(null);
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(text);
      setDone('copied');
    } catch {
      setDone('failed');
    }
    setTimeout(() => setDone(null), 2500);
  };
  return (
    <button type="button" onClick={() => void copy()} aria-label={label}>
      {done === 'copied' ? 'Copied' : done === 'failed' ? 'Select and copy it by hand' : 'Copy'}
    </button>
  );
}

/** `checked` false: no gate ran (the run was started without checks), so reviewing comes first and merging is no one's first action. */
export function SuccessActions({ runId, branch, worktree, checked = true }: { runId: string; branch: string; worktree: string; checked?: boolean }) {
  const host = useUi((s) => s.appInfo?.host ?? null);
  const [preview, setPreview] = useState<{ status: 'loading' | 'ready' | 'error'; doc: MergePreviewDoc | null; error: string | null }>({
    status: 'loading',
    doc: null,
    error: null,
  });
  const [busy, setBusy] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [openError, setOpenError] = useState<string | null>(null);
  const [merged, setMerged] = useState<Merged | null>(null);
  const [pushed, setPushed] = useState<Pushed | null>(null);
  const [showPreview, setShowPreview] = useState(false);
  /** Once the pull request is open, its panel's Update pushes: a push-only button beside it would be a second way to the same thing. */
  const prOpen = useGithub((s) => Boolean(s.panels[runId]?.doc?.pr));
  /** The merge waiting for the user's yes: it moves their own branch. */
  const [confirming, setConfirming] = useState<'ff-only' | 'no-ff' | null>(null);

  const load = useCallback(async () => {
    setPreview((p) => ({ ...p, status: 'loading', error: null }));
    try {
      setPreview({ status: 'ready', doc: await useRunDetail.getState().mergePreview(runId), error: null });
    } catch (err) {
      setPreview({ status: 'error', doc: null, error: errorMessage(err) });
    }
  }, [runId]);
  useEffect(() => {
    void load();
  }, [load]);

  const merge = async (mode: 'ff-only' | 'no-ff') => {
    if (!preview.doc) return;
    setConfirming(null);
    setBusy(mode);
    setActionError(null);
    try {
      setMerged(await useRunDetail.getState().merge(runId, mode, preview.doc.baseTip));
      setShowPreview(false);
    } catch (err) {
      setActionError(errorMessage(err));
    } finally {
      setBusy(null);
      void load();
    }
  };
  const push = async () => {
    setBusy('push');
    setActionError(null);
    try {
      setPushed(await useRunDetail.getState().push(runId));
    } catch (err) {
      setActionError(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };
  const open = async (withWhat: 'terminal' | 'editor' | 'folder') => {
    setOpenError(null);
    try {
      await useRunDetail.getState().openWorktree(runId, withWhat);
    } catch (err) {
      setOpenError(errorMessage(err));
    }
  };

  const doc = preview.doc;
  const base = doc?.base ?? 'the base branch';
  return (
    <section className="success-actions card" aria-label="next steps">
      <h2>Next steps</h2>
      {!checked && (
        <p className="warning-box small-text" role="note">
          Unchecked: this run was started without checks, so no gate tested its work. Review the changes (open the worktree, run the tests) before you merge
          them.
        </p>
      )}
      <div className="next-grid">
        <div className="next-item">
          <span className="next-label">Branch</span>
          <span className="row">
            <code className="selectable">{branch}</code>
            <CopyButton text={branch} label="copy the branch name" />
          </span>
        </div>
        <div className="next-item">
          <span className="next-label">Worktree</span>
          {host === 'headless' ? (
            <span className="row">
              <code className="selectable">cd {worktree}</code>
              <CopyButton text={`cd ${worktree}`} label="copy the cd command" />
              <span className="muted small-text">A browser cannot open a terminal: paste this in yours.</span>
            </span>
          ) : (
            <span className="row">
              <button type="button" onClick={() => void open('terminal')}>
                Open in terminal
              </button>
              <button type="button" onClick={() => void open('editor')}>
                Open in editor
              </button>
              <button type="button" onClick={() => void open('folder')}>
                Show folder
              </button>
            </span>
          )}
          <InlineError message={openError} />
        </div>
      </div>

      <div className="next-item">
        <span className="next-label">Merge into {base}</span>
        {preview.status === 'loading' && !doc && <Loading label="Looking at what a merge would bring…" />}
        {preview.status === 'error' && <InlineError message={preview.error} />}
        {merged && (
          <p className="small-text tone-good" role="status">
            {merged.base} is now at <code>{merged.commit.slice(0, 8)}</code> ({merged.mode === 'ff-only' ? 'fast-forward' : 'merge commit'}).
          </p>
        )}
        {doc && !merged && (
          <>
            <p className="small-text">
              {doc.upToDate
                ? `${doc.base} already has every commit of this run.`
                : `${doc.commits.length} commit${doc.commits.length === 1 ? '' : 's'} would land on ${doc.base}; ${doc.canFastForward ? `${doc.base} has not moved, so it can fast-forward.` : `${doc.base} has moved since the run started, so it needs a merge commit.`}`}
              {doc.checkout && !doc.checkout.dirty && (
                <>
                  {' '}
                  {doc.base} is checked out in <code>{doc.checkout.path}</code>: it moves forward there too.
                </>
              )}
            </p>
            {doc.blocked && !doc.upToDate && (
              <p className="warning-box small-text" role="alert">
                {doc.blocked}
              </p>
            )}
            {!doc.upToDate && (
              <div className="row">
                <button type="button" onClick={() => setShowPreview((v) => !v)} aria-expanded={showPreview}>
                  {showPreview ? 'Hide preview' : 'Preview merge'}
                </button>
                <button
                  type="button"
                  className={checked ? 'primary' : undefined}
                  disabled={Boolean(doc.blocked) || !doc.canFastForward || busy !== null}
                  onClick={() => setConfirming('ff-only')}
                >
                  {busy === 'ff-only' ? 'Merging…' : `Fast-forward ${doc.base}`}
                </button>
                <button type="button" disabled={Boolean(doc.blocked) || busy !== null} onClick={() => setConfirming('no-ff')}>
                  {busy === 'no-ff' ? 'Merging…' : 'Merge commit'}
                </button>
              </div>
            )}
            {confirming && !doc.upToDate && (
              <div className="confirm warning-box small-text" role="group" aria-label="confirm the merge">
                <span>
                  Move {doc.base} forward by {doc.commits.length} commit{doc.commits.length === 1 ? '' : 's'}
                  {confirming === 'no-ff' ? ' and a merge commit' : ''}?{!checked && ' No gate checked these commits.'}
                  {doc.checkout ? (
                    <>
                      {' '}
                      {doc.base} is checked out in <code>{doc.checkout.path}</code>: its files change there too.
                    </>
                  ) : (
                    ' It changes your branch, not only the run’s.'
                  )}
                </span>{' '}
                <button type="button" className="primary" onClick={() => void merge(confirming)}>
                  {confirming === 'ff-only' ? `Fast-forward ${doc.base}` : 'Merge commit'}
                </button>
                <button type="button" onClick={() => setConfirming(null)}>
                  Cancel
                </button>
              </div>
            )}
            {showPreview && (
              <div className="merge-preview" aria-label="merge preview">
                <ul className="plain-list small-text">
                  {doc.commits.map((c) => (
                    <li key={c.sha}>
                      <code>{c.sha.slice(0, 8)}</code> {c.subject}
                    </li>
                  ))}
                </ul>
                {doc.diffstat && <pre className="mono small-text diffstat">{doc.diffstat}</pre>}
              </div>
            )}
          </>
        )}
      </div>

      <div className="next-item">
        <span className="next-label">Pull request</span>
        {doc?.remote && <PrPanel runId={runId} branch={branch} />}
        {doc && !doc.remote && (
          <p className="muted small-text">
            This repository has no remote. Add one (<code>git remote add origin &lt;url&gt;</code>) to push the branch and open a pull request.
          </p>
        )}
        {doc?.remote && !pushed && !prOpen && (
          <span className="row">
            <span className="muted small-text">Or only push the branch:</span>
            <button type="button" disabled={busy !== null} onClick={() => void push()}>
              {busy === 'push' ? 'Pushing…' : `Push to ${doc.remote.name}`}
            </button>
            <span className="muted small-text mono">{doc.remote.url}</span>
          </span>
        )}
        {pushed && (
          <p className="small-text" role="status">
            <span className="tone-good">
              Pushed {branch} to {pushed.remote}.
            </span>{' '}
            {pushed.pullRequestUrl ? (
              <a href={pushed.pullRequestUrl} target="_blank" rel="noopener noreferrer">
                Open a pull request
              </a>
            ) : (
              <>
                Open a pull request for <code>{branch}</code> on {pushed.remoteUrl}.
              </>
            )}
          </p>
        )}
      </div>
      <InlineError message={actionError} />
    </section>
  );
}
