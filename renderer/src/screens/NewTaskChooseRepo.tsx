// New task before a repository is chosen: Open… (or drop one on Runs), or one of the recent repositories.
import { useEffect, useState } from 'react';
import { hrefs, navigate } from '../lib/route';
import { useRuns } from '../stores/runs';
import { useUi } from '../stores/ui';
import { Empty, InlineError } from '../components/States';
import { useRepoPicker } from '../components/FolderBrowser';

/** No repository yet: one of the recent ones, or Open… (the native dialog in the app, the host's folder browser in a browser). */
export function ChooseRepo() {
  const [error, setError] = useState<string | null>(null);
  const picker = useRepoPicker((path) => navigate(hrefs.newTask(path)), setError);
  const recent = useRuns((s) => s.recent);
  const loadRecent = useRuns((s) => s.loadRecent);
  useEffect(() => {
    void loadRecent();
  }, [loadRecent]);
  // Open Repository (Ctrl+O) in a browser: the folder browser opens at once, as the menu item says.
  const requested = useUi((s) => s.repoPickerRequested);
  useEffect(() => {
    if (requested && useUi.getState().takeRepoPickerRequest()) picker.pick();
  }, [requested, picker]);
  const canDrop = typeof window.ratchet?.pathForFile === 'function';
  return (
    <div className="screen">
      <h1>New task</h1>
      <Empty title="Choose a repository first">
        <button
          type="button"
          className="primary"
          onClick={() => {
            setError(null);
            picker.pick();
          }}
        >
          Open…
        </button>{' '}
        a git repository
        {canDrop ? (
          <>
            , or <a href={hrefs.home()}>drop one</a> on the Runs screen
          </>
        ) : (
          ''
        )}
        ; the task runs in a worktree of its own.
      </Empty>
      {recent.data.length > 0 && (
        <section className="card recent" aria-labelledby="h-new-recent">
          <h2 id="h-new-recent">Recent repositories</h2>
          <ul className="plain-list recent-list" aria-label="recent repositories">
            {recent.data.map((r) => (
              <li key={r.path}>
                <button type="button" className="link-button" onClick={() => navigate(hrefs.newTask(r.path))}>
                  <strong>{r.name}</strong> <span className="muted small-text mono">{r.path}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <InlineError message={error} />
      {picker.dialog}
    </div>
  );
}
