// Hash routes (#/, #/new?repo=…, #/runs/<id>, #/team/<id>, #/dashboard, #/settings): parsed into data, built back into hashes.

export type Route =
  | { name: 'home' }
  | { name: 'new'; repo: string | null }
  | { name: 'run'; runId: string; step: number | null }
  | { name: 'team-run'; runId: string; step: number | null }
  | { name: 'dashboard' }
  | { name: 'settings' }
  | { name: 'not-found'; hash: string };

export function parseHash(hash: string): Route {
  const raw = hash.replace(/^#/, '') || '/';
  const [path = '/', query = ''] = raw.split('?', 2);
  const params = new URLSearchParams(query);
  if (path === '/' || path === '') return { name: 'home' };
  if (path === '/new') return { name: 'new', repo: params.get('repo') };
  if (path === '/dashboard') return { name: 'dashboard' };
  if (path === '/settings') return { name: 'settings' };
  const run = /^\/(runs|team)\/([^/]+)$/.exec(path);
  if (run?.[2]) {
    const step = Number(params.get('step'));
    return { name: run[1] === 'team' ? 'team-run' : 'run', runId: decodeURIComponent(run[2]), step: Number.isInteger(step) && step > 0 ? step : null };
  }
  return { name: 'not-found', hash };
}

export const hrefs = {
  home: () => '#/',
  newTask: (repo?: string) => (repo ? `#/new?repo=${encodeURIComponent(repo)}` : '#/new'),
  run: (runId: string, step?: number) => `#/runs/${encodeURIComponent(runId)}${step ? `?step=${step}` : ''}`,
  /** A run on team workers (its status document comes from the team database). */
  teamRun: (runId: string, step?: number) => `#/team/${encodeURIComponent(runId)}${step ? `?step=${step}` : ''}`,
  dashboard: () => '#/dashboard',
  settings: () => '#/settings',
};

export function navigate(href: string): void {
  location.hash = href.replace(/^#/, '');
}
