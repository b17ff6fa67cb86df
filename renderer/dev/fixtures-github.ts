// The dev page's and renderer tests' GitHub: Settings › GitHub with a token kept for the session, a run's pull request
// opened on the first ask with its check pending, then passing on the next look (the PR panel's states), and an issue.
import type { GithubSettingsDoc, IssueTaskDoc, MethodInput, PrPanelDoc } from '../../shared/contract';

export function createFakeGithub() {
  let settings: GithubSettingsDoc = {
    tokenSource: 'none',
    tokenEnv: null,
    tokenWarning: null,
    login: null,
    apiUrl: 'https://api.github.com',
    apiUrlSource: 'default',
  };
  const panels = new Map<string, PrPanelDoc & { looks: number }>();
  let next = 42;
  const of = (runId: string) => {
    let p = panels.get(runId);
    if (!p) panels.set(runId, (p = { pr: null, options: { fix: ['ci'], merge: null }, watching: false, live: null, error: null, progress: null, looks: 0 }));
    return p;
  };
  const doc = ({ looks: _looks, ...p }: PrPanelDoc & { looks: number }): PrPanelDoc => p;
  return {
    settings: (): GithubSettingsDoc => settings,
    set: ({ token, apiUrl }: MethodInput<'github.set'>): GithubSettingsDoc => {
      if (token && !token.startsWith('ghp_'))
        throw Object.assign(
          new Error('GitHub refused this token (401 Bad credentials): it is mistyped, expired or revoked. Make a new one and paste it again.'),
          { code: 'forge_auth' },
        );
      if (token === null) settings = { ...settings, tokenSource: 'none', login: null };
      else if (token) settings = { ...settings, tokenSource: 'safe_storage', login: 'octo-dev' };
      if (apiUrl !== undefined) settings = { ...settings, apiUrl: apiUrl ?? 'https://api.github.com', apiUrlSource: apiUrl ? 'settings' : 'default' };
      return settings;
    },
    get: ({ runId }: MethodInput<'pr.get'>): PrPanelDoc => {
      const p = of(runId);
      if (p.pr && p.watching && ++p.looks >= 2) {
        p.pr = { ...p.pr, checks: p.pr.checks.map((c) => ({ ...c, conclusion: 'success' })) };
        p.live = { reviews: [{ author: 'mara', state: 'APPROVED' }], mergeable: true, mergeableState: 'clean', verdict: 'green', waitingFor: [] };
        p.progress = `#${p.pr.number} is green: every check that counts passed on ${p.pr.headSha.slice(0, 8)}.`;
        p.watching = false;
      }
      return doc(p);
    },
    open: ({ runId, options }: MethodInput<'pr.open'>): PrPanelDoc => {
      const p = of(runId);
      if (options) p.options = options;
      const number = p.pr?.number ?? next++;
      p.pr = {
        number,
        url: `https://github.com/acme/calc/pull/${number}`,
        state: 'open',
        headSha: '9f3c2a1be4d5c6f7a8b9c0d1e2f3a4b5c6d7e8f9',
        merged: false,
        checks: [
          { name: 'test', conclusion: null, required: true },
          { name: 'lint', conclusion: null, required: false },
        ],
        rounds: [],
      };
      p.live = { reviews: [], mergeable: null, mergeableState: 'unknown', verdict: 'waiting', waitingFor: ['test'] };
      p.progress = null;
      p.watching = true;
      p.looks = 0;
      return doc(p);
    },
    setOptions: ({ runId, fix, merge }: MethodInput<'pr.setOptions'>): PrPanelDoc => {
      const p = of(runId);
      p.options = { fix: [...new Set(fix)].sort(), merge };
      return doc(p);
    },
    issue: ({ ref }: MethodInput<'issues.read'>): IssueTaskDoc => {
      const number = Number(/(\d+)\/?$/.exec(ref)?.[1] ?? NaN);
      if (!Number.isFinite(number))
        throw Object.assign(new Error(`"${ref}" is not an issue: give its number (12) or its page's URL.`), { code: 'bad_arguments' });
      return {
        number,
        url: `https://github.com/acme/calc/issues/${number}`,
        repo: 'acme/calc',
        title: 'Division by zero crashes the calculator',
        description: 'Dividing by zero throws instead of showing an error.\n\n## Comments on the issue\n\n### Comment 1\n\nSeen on 1.2 too.',
      };
    },
  };
}
