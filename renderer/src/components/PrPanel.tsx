// The run screen's pull request (issue 31): Open pull request (pushes the branch, opens it or updates the one open),
// then, live while the engine watches it, the head commit's checks (required first; pending or missing never green),
// the reviews, mergeability, the rounds of remote gates and what the watch last did; and what Ratchet may do on its own
// (the toggles, which the engine's loop reads again before each round).
import { useEffect } from 'react';
import type { PrOptions } from '../../../shared/pull-request';
import { checkMark, mergeableLine, orderedChecks, prHeadline, reviewLine, roundLine } from '../lib/pr-view';
import { usePoll } from '../lib/use-poll';
import { PR_POLL_MS, useGithub } from '../stores/github';
import { InlineError } from './States';

const DEFAULT_OPTIONS: PrOptions = { fix: ['ci'], merge: null };

function Toggles({ options, disabled, onChange }: { options: PrOptions; disabled: boolean; onChange: (o: PrOptions) => void }) {
  const fix = (kind: 'ci' | 'review', on: boolean) => onChange({ ...options, fix: on ? [...options.fix, kind] : options.fix.filter((k) => k !== kind) });
  return (
    <fieldset className="pr-options" disabled={disabled}>
      <legend className="next-label">While it is open</legend>
      <label className="check-row">
        <input type="checkbox" checked={options.fix.includes('ci')} onChange={(e) => fix('ci', e.target.checked)} />
        Fix failing CI checks
      </label>
      <label className="check-row">
        <input type="checkbox" checked={options.fix.includes('review')} onChange={(e) => fix('review', e.target.checked)} />
        Answer review comments
      </label>
      <span className="check-row">
        <label className="check-row">
          <input type="checkbox" checked={options.merge !== null} onChange={(e) => onChange({ ...options, merge: e.target.checked ? 'squash' : null })} />
          Merge when green
        </label>
        {options.merge !== null && (
          <select
            aria-label="how to merge"
            value={options.merge}
            onChange={(e) => onChange({ ...options, merge: e.target.value as NonNullable<PrOptions['merge']> })}
          >
            <option value="squash">Squash and merge</option>
            <option value="merge">Merge commit</option>
            <option value="rebase">Rebase and merge</option>
          </select>
        )}
      </span>
    </fieldset>
  );
}

export function PrPanel({ runId, branch }: { runId: string; branch: string }) {
  const panel = useGithub((s) => s.panels[runId]);
  const doc = panel?.doc ?? null;
  useEffect(() => {
    void useGithub.getState().loadPr(runId, true);
  }, [runId]);
  // While the engine watches it, the panel follows what each of its looks saw.
  usePoll(() => useGithub.getState().loadPr(runId, false), PR_POLL_MS, Boolean(doc?.watching));

  const options = doc?.options ?? DEFAULT_OPTIONS;
  const pr = doc?.pr ?? null;
  const busy = panel?.busy ?? null;
  const open = () => void useGithub.getState().openPr(runId, options);
  const setOptions = (o: PrOptions) => {
    if (doc) void useGithub.getState().setOptions(runId, o);
  };
  const headline = doc ? prHeadline(doc) : null;
  const review = doc ? reviewLine(doc) : null;
  const mergeable = doc ? mergeableLine(doc) : null;

  return (
    <div className="pr-panel" aria-label="pull request on GitHub" data-testid="pr-panel">
      {!pr && (
        <div className="row">
          <button type="button" className="primary" disabled={busy !== null || !doc} onClick={open}>
            {busy === 'open' ? 'Opening…' : 'Open pull request'}
          </button>
          <span className="muted small-text">
            Pushes <code>{branch}</code> and opens a pull request on GitHub with what the run did.
          </span>
        </div>
      )}
      {pr && headline && (
        <>
          <div className="pr-head">
            <a href={pr.url} target="_blank" rel="noopener noreferrer" className="pr-number">
              #{pr.number}
            </a>
            <span className={`badge tone-${pr.merged ? 'good' : pr.state === 'closed' ? 'muted' : 'info'}`}>{pr.merged ? 'merged' : pr.state}</span>
            <span className={`pr-headline tone-${headline.tone}`} role="status">
              {headline.text}
            </span>
            <span className="pr-head-end">
              {doc?.watching && <span className="muted small-text">watching…</span>}
              {!pr.merged && pr.state === 'open' && (
                <>
                  <button
                    type="button"
                    disabled={busy !== null}
                    onClick={open}
                    title="Pushes the branch again and rewrites the pull request’s description from the run"
                  >
                    {busy === 'open' ? 'Updating…' : 'Update'}
                  </button>
                  {!doc?.watching && (
                    <button type="button" onClick={() => void useGithub.getState().loadPr(runId, true)}>
                      Check again
                    </button>
                  )}
                </>
              )}
            </span>
          </div>
          <a className="small-text mono pr-url" href={pr.url} target="_blank" rel="noopener noreferrer">
            {pr.url}
          </a>
          {doc?.progress && (
            <p className="small-text pr-progress" data-testid="pr-progress">
              {doc.progress}
            </p>
          )}
          <div className="pr-body">
            <div className="pr-checks">
              <span className="next-label">
                Checks on <code>{pr.headSha.slice(0, 8)}</code>
              </span>
              {pr.checks.length === 0 ? (
                <p className="muted small-text">{doc?.watching ? 'No check has reported yet.' : 'No check reported on this commit.'}</p>
              ) : (
                <ul className="plain-list pr-check-list">
                  {orderedChecks(pr.checks).map((c) => {
                    const mark = checkMark(c, Boolean(doc?.watching));
                    return (
                      <li key={c.name} data-testid="pr-check">
                        <span className={`badge tone-${mark.tone}`}>{mark.label}</span> <span className="mono">{c.name}</span>
                        {c.required && <span className="muted small-text"> required</span>}
                      </li>
                    );
                  })}
                </ul>
              )}
            </div>
            <dl className="pr-facts small-text">
              <dt>Review</dt>
              <dd className={`tone-${review?.tone}`}>{review?.text}</dd>
              <dt>Merge</dt>
              <dd className={`tone-${mergeable?.tone}`}>{mergeable?.text}</dd>
              {pr.rounds.length > 0 && (
                <>
                  <dt>Rounds</dt>
                  <dd>
                    <ul className="plain-list">
                      {pr.rounds.map((r, i) => (
                        <li key={i}>{roundLine(r)}</li>
                      ))}
                    </ul>
                  </dd>
                </>
              )}
            </dl>
          </div>
        </>
      )}
      {!pr?.merged && pr?.state !== 'closed' && (
        <Toggles
          options={options}
          disabled={!doc || busy === 'open'}
          onChange={(o) => (pr ? setOptions(o) : useGithub.setState((s) => withOptions(s, runId, o)))}
        />
      )}
      {doc?.error && (
        <p className="warning-box small-text" role="alert">
          {doc.error}
        </p>
      )}
      <InlineError message={panel?.error ?? null} />
    </div>
  );
}

/** Before the pull request exists the toggles are the panel's own, sent with Open pull request. */
function withOptions(s: ReturnType<typeof useGithub.getState>, runId: string, options: PrOptions) {
  const p = s.panels[runId];
  if (!p?.doc) return {};
  return { panels: { ...s.panels, [runId]: { ...p, doc: { ...p.doc, options } } } };
}
