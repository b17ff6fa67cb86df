// Where the forge is and who Ratchet is there: the GitHub token from the environment, the API's root, and the
// repository (the --github-repo flag, else the workflow's `forge: { repo }`, else origin's URL). Pure: the caller
// passes the environment and the remote's URL.
import { RatchetError } from '../errors';
import { remoteHostPath } from '../git/run-merge';
import type { ForgeRepo } from './forge';

import { githubToken } from '../settings/forge-token';

export { GITHUB_TOKEN_NAMES, githubToken } from '../settings/forge-token';

export const PUBLIC_GITHUB_API = 'https://api.github.com';

/** `RATCHET_GITHUB_API_URL` (GitHub Enterprise: `https://<host>/api/v3`), else GitHub's public API. */
export function githubApiUrl(env: NodeJS.ProcessEnv): string {
  const v = env.RATCHET_GITHUB_API_URL?.trim();
  if (!v) return PUBLIC_GITHUB_API;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw new RatchetError(
      'bad_arguments',
      `RATCHET_GITHUB_API_URL is not a URL (${v}). Set it to your GitHub Enterprise API, e.g. https://github.example.com/api/v3.`,
    );
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname))) {
    throw new RatchetError('bad_arguments', `RATCHET_GITHUB_API_URL must be https (the token travels with every request): ${v}.`);
  }
  return v.replace(/\/+$/, '');
}

/**
 * The environment the forge client gets, read by the app and the CLI alike: `env` (never changed), with Settings ›
 * GitHub's token and API address filled in where it sets none — GITHUB_TOKEN/GH_TOKEN and RATCHET_GITHUB_API_URL win.
 */
export function withSavedForge(env: NodeJS.ProcessEnv, saved: { token?: string | null; apiUrl?: string | null }): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env };
  if (!githubToken(env) && saved.token) out.GITHUB_TOKEN = saved.token;
  if (!env.RATCHET_GITHUB_API_URL?.trim() && saved.apiUrl) out.RATCHET_GITHUB_API_URL = saved.apiUrl;
  return out;
}

/** The web hosts whose remotes are GitHub repositories for this API: github.com for the public API, else the API's own host. */
function githubHosts(apiUrl: string): string[] {
  if (apiUrl === PUBLIC_GITHUB_API) return ['github.com', 'www.github.com', 'ssh.github.com'];
  return [new URL(apiUrl).hostname.toLowerCase()];
}

const SLUG = /^([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\/([A-Za-z0-9._-]{1,100})$/;

export function parseRepoSlug(slug: string): ForgeRepo | null {
  const m = SLUG.exec(slug.trim());
  if (!m || m[2] === '.' || m[2] === '..') return null;
  return { owner: m[1] as string, name: (m[2] as string).replace(/\.git$/, '') };
}

/** owner/name from a remote URL on a GitHub host, in any form git takes; null for another host or a local path. */
export function repoFromRemoteUrl(remoteUrl: string, apiUrl: string): ForgeRepo | null {
  const hp = remoteHostPath(remoteUrl);
  if (!hp || !githubHosts(apiUrl).includes(hp.host)) return null;
  return parseRepoSlug(hp.path);
}

export interface RepoChoice {
  repo: ForgeRepo;
  from: 'flag' | 'workflow' | 'origin';
}

/** The repository the forge acts on: --github-repo, else the workflow's `forge.repo`, else the remote's URL. */
export function chooseRepo(p: { flag?: string | undefined; workflow?: string | undefined; remoteUrl?: string | null; apiUrl: string }): RepoChoice {
  for (const [from, slug] of [
    ['flag', p.flag],
    ['workflow', p.workflow],
  ] as const) {
    if (slug === undefined) continue;
    const repo = parseRepoSlug(slug);
    if (!repo) throw new RatchetError('bad_arguments', `${from === 'flag' ? '--github-repo' : "The workflow's forge.repo"} must be owner/name, not "${slug}".`);
    return { repo, from };
  }
  const repo = p.remoteUrl ? repoFromRemoteUrl(p.remoteUrl, p.apiUrl) : null;
  if (repo) return { repo, from: 'origin' };
  throw new RatchetError(
    'bad_arguments',
    `Cannot tell which GitHub repository to use: the remote${p.remoteUrl ? ` (${p.remoteUrl})` : ''} is not on ${githubHosts(p.apiUrl)[0]}. Pass --github-repo owner/name or set forge: { repo: owner/name } in the workflow.`,
  );
}
