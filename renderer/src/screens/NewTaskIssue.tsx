// New task's "From a GitHub issue": paste an issue's URL (or its number) and the task's title and description are
// written from the issue and its comments; the run remembers the issue, so its pull request says "Fixes #N".
import { useState } from 'react';
import type { IssueTaskDoc } from '../../../shared/contract';
import { errorMessage } from '../lib/errors';
import { useGithub } from '../stores/github';

export function NewTaskIssue({ repo, issue, onIssue }: { repo: string; issue: IssueTaskDoc | null; onIssue: (issue: IssueTaskDoc | null) => void }) {
  const [ref, setRef] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const read = async () => {
    setBusy(true);
    setError(null);
    try {
      onIssue(await useGithub.getState().readIssue(repo, ref.trim()));
      setRef('');
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="field issue-intake">
      From a GitHub issue <span className="muted small-text">(optional)</span>
      {issue ? (
        <span className="row small-text" role="status">
          <span>
            Task from issue{' '}
            <a href={issue.url} target="_blank" rel="noopener noreferrer">
              #{issue.number}
            </a>{' '}
            of {issue.repo}: its pull request will say “Fixes #{issue.number}”, and the issue gets a comment linking it.
          </span>
          <button type="button" onClick={() => onIssue(null)}>
            Not from an issue
          </button>
        </span>
      ) : (
        <span className="row">
          <input
            aria-label="issue URL"
            className="mono"
            spellCheck={false}
            placeholder="Paste an issue’s URL: https://github.com/owner/name/issues/12"
            value={ref}
            onChange={(e) => setRef(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && ref.trim()) {
                e.preventDefault();
                void read();
              }
            }}
          />
          <button type="button" disabled={!ref.trim() || busy} onClick={() => void read()}>
            {busy ? 'Reading…' : 'Read issue'}
          </button>
        </span>
      )}
      {error && (
        <span className="inline-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
