// Open… in the browser host: a folder browser served by the host (repos.browse), since a web page cannot show a native folder dialog.
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { FolderListing } from '../../../shared/contract';
import { errorMessage } from '../lib/errors';
import { useProject } from '../stores/project';
import { useUi } from '../stores/ui';
import { Modal } from './Modal';
import { InlineError, Loading } from './States';

export function FolderBrowser({ onPick, onClose, start = null }: { onPick: (path: string) => void; onClose: () => void; start?: string | null }) {
  const [listing, setListing] = useState<FolderListing | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [typed, setTyped] = useState('');
  const [hidden, setHidden] = useState(false);
  /** The user typed in the path field since the last listing was asked for: an answer arriving now must not overwrite it. */
  const typing = useRef(false);

  const go = useCallback(
    async (dir: string | null, showHidden = hidden) => {
      setLoading(true);
      setError(null);
      typing.current = false;
      try {
        const l = await useProject.getState().browse(dir, showHidden);
        setListing(l);
        if (!typing.current) setTyped(l.dir);
      } catch (err) {
        // The listing shown stays: the error says why the folder asked for cannot be opened.
        setError(errorMessage(err));
      } finally {
        setLoading(false);
      }
    },
    [hidden],
  );
  useEffect(() => {
    void go(start);
    // Once, at open; later moves go through go().
  }, []);

  const footer = (
    <>
      {listing && !listing.isGitRepo && (
        <span className="muted small-text">
          Open a folder marked “git”, or one that holds <code>.git</code>.
        </span>
      )}
      <button type="button" onClick={onClose}>
        Cancel
      </button>
      <button type="button" className="primary" disabled={!listing?.isGitRepo} onClick={() => listing && onPick(listing.dir)}>
        Open this repository
      </button>
    </>
  );
  return (
    <Modal title="Open a repository" onClose={onClose} footer={footer} wide>
      <form
        className="row folder-path"
        onSubmit={(e) => {
          e.preventDefault();
          if (typed.trim()) void go(typed.trim());
        }}
      >
        <input
          className="mono"
          aria-label="folder path"
          value={typed}
          onChange={(e) => {
            typing.current = true;
            setTyped(e.target.value);
          }}
          placeholder="/home/you/code"
        />
        <button type="submit">Go</button>
        <label className="check small-text">
          <input
            type="checkbox"
            checked={hidden}
            onChange={(e) => {
              setHidden(e.target.checked);
              void go(listing?.dir ?? null, e.target.checked);
            }}
          />{' '}
          Show hidden folders
        </label>
      </form>
      <InlineError message={error} />
      {loading && !listing && <Loading label="Reading the folder…" />}
      {listing && (
        <ul className="folder-list plain-list" aria-label={`folders in ${listing.dir}`}>
          {listing.parent && (
            <li>
              <button type="button" className="folder-entry" onClick={() => void go(listing.parent)}>
                ↑ .. <span className="muted">(up to {listing.parent})</span>
              </button>
            </li>
          )}
          {listing.entries.map((e) => (
            <li key={e.path}>
              <button type="button" className="folder-entry" onClick={() => void go(e.path)} onDoubleClick={() => e.isGitRepo && onPick(e.path)}>
                {e.name}
                {e.isGitRepo && <span className="badge tone-good">git</span>}
              </button>
              {e.isGitRepo && (
                <button type="button" className="link-button" onClick={() => onPick(e.path)} aria-label={`open ${e.name}`}>
                  Open
                </button>
              )}
            </li>
          ))}
          {listing.entries.length === 0 && <li className="muted small-text">No folders here{hidden ? '' : ' (hidden ones are not shown)'}.</li>}
          {listing.truncated > 0 && <li className="muted small-text">{listing.truncated} more folders are not shown: type the path above.</li>}
        </ul>
      )}
    </Modal>
  );
}

/**
 * Open…: the native folder dialog in the desktop app (repos.pick), the host's folder browser in a browser.
 * `dialog` is what to render (the browser's modal, or nothing).
 */
export function useRepoPicker(onPicked: (path: string) => void, onError: (message: string) => void): { pick: () => void; dialog: ReactNode } {
  const host = useUi((s) => s.appInfo?.host ?? null);
  const [browsing, setBrowsing] = useState(false);
  const pick = () => {
    void (async () => {
      try {
        const h = host ?? (await useUi.getState().host());
        if (h === 'headless') {
          setBrowsing(true);
          return;
        }
        const path = await useProject.getState().pick();
        if (path) onPicked(path);
      } catch (err) {
        onError(errorMessage(err));
      }
    })();
  };
  const dialog = browsing ? (
    <FolderBrowser
      onClose={() => setBrowsing(false)}
      onPick={(p) => {
        setBrowsing(false);
        onPicked(p);
      }}
    />
  ) : null;
  return { pick, dialog };
}
