// Settings › GitHub: the token pull requests are opened with (kept like the API key, never shown back, checked with one
// call when saved: who it belongs to, or why GitHub refused it), and the API's root for GitHub Enterprise. A token or
// address from Ratchet's environment wins and is shown as in use.
import { useEffect, useState } from 'react';
import type { GithubSettingsDoc } from '../../../shared/contract';
import { useGithub } from '../stores/github';
import { FormNotices, SecretForm } from '../components/SecretForm';

const TOKEN_SOURCE: Record<GithubSettingsDoc['tokenSource'], string> = {
  safe_storage: 'Kept encrypted by the operating system’s keychain (Electron safeStorage), never in plain text.',
  environment: '',
  session: 'Kept in the browser host’s memory until it stops (a browser host has no keychain).',
  none: 'No token: Ratchet cannot open pull requests or read issues.',
};

export function GithubSettings() {
  const settings = useGithub((s) => s.settings);
  const saving = useGithub((s) => s.saving);
  const saveError = useGithub((s) => s.saveError);
  const [apiUrl, setApiUrl] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  useEffect(() => {
    void useGithub.getState().loadSettings();
  }, []);
  if (!settings) return null;
  const set = settings.tokenSource !== 'none';
  const fromEnv = settings.tokenSource === 'environment';
  const apiFromEnv = settings.apiUrlSource === 'environment';
  const shownApi = apiUrl ?? (settings.apiUrlSource === 'default' ? '' : settings.apiUrl);
  const submit = async (change: { token?: string | null; apiUrl?: string | null }, done: string) => {
    setSaved(null);
    if (!(await useGithub.getState().save(change))) return false;
    setApiUrl(null);
    setSaved(done);
    return true;
  };
  return (
    <section className="card settings-section" aria-labelledby="h-github">
      <h2 id="h-github">GitHub</h2>
      <p className="small-text muted">
        For pull requests: Ratchet pushes a run’s branch, opens its pull request and follows its checks and reviews. The token goes to GitHub only — never to
        the agent, its commands or the run records. It needs to read and write the repository’s contents and pull requests (and issues, to start a task from
        one).
      </p>
      <p className="small-text">
        <span className={`badge tone-${set ? 'good' : 'attention'}`}>{set ? 'set' : 'not set'}</span>{' '}
        {fromEnv ? (
          <>
            In use: <code>{settings.tokenEnv}</code> from the environment Ratchet was started with (it wins over a token saved here).
          </>
        ) : (
          TOKEN_SOURCE[settings.tokenSource]
        )}
        {settings.login && (
          <>
            {' '}
            Signed in as <strong data-testid="github-login">{settings.login}</strong>.
          </>
        )}
      </p>
      {settings.tokenWarning && (
        <div className="warning-box" role="alert">
          {settings.tokenWarning}
        </div>
      )}
      {!fromEnv && (
        <SecretForm
          label="new GitHub token"
          placeholder="ghp_… or github_pat_…"
          replacePlaceholder="Replace the token: ghp_… or github_pat_…"
          set={set}
          saving={saving}
          errorId={saveError ? 'github-error' : null}
          saveText="Save token"
          checkingText="Checking the token…"
          removeText="Remove token"
          onSubmit={(token) => submit({ token }, token ? 'Token checked and saved.' : 'Token removed.')}
        />
      )}
      <form
        className="row github-api"
        onSubmit={(e) => {
          e.preventDefault();
          void submit({ apiUrl: shownApi.trim() || null }, shownApi.trim() ? 'API address checked and saved.' : 'Using GitHub’s public API.');
        }}
      >
        <label className="field grow">
          API address {apiFromEnv && <span className="muted small-text">(from RATCHET_GITHUB_API_URL in the environment)</span>}
          <input
            className="mono"
            spellCheck={false}
            aria-label="GitHub API address"
            placeholder="https://api.github.com — GitHub Enterprise: https://github.example.com/api/v3"
            disabled={apiFromEnv}
            value={apiFromEnv ? settings.apiUrl : shownApi}
            onChange={(e) => setApiUrl(e.target.value)}
          />
        </label>
        {!apiFromEnv && (
          <button type="submit" disabled={saving || apiUrl === null}>
            Save address
          </button>
        )}
      </form>
      <FormNotices error={saveError} errorId="github-error" saved={saved} />
    </section>
  );
}
