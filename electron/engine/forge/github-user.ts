// Settings › GitHub's check of a token before it is kept: one call (who the token belongs to), or why GitHub refused it
// in plain words. The token never appears in the sentence.
import { Octokit } from '@octokit/rest';
import { RatchetError } from '../errors';

function statusOf(e: unknown): number | undefined {
  const s = (e as { status?: unknown })?.status;
  return typeof s === 'number' ? s : undefined;
}

/** The login the token acts as; throws a sentence that says what to do when GitHub refuses it or does not answer. */
export async function githubLogin(token: string, apiUrl: string): Promise<string> {
  if (/\s/.test(token)) throw new RatchetError('bad_arguments', 'A GitHub token has no spaces or line breaks in it. Paste the token alone.');
  const octokit = new Octokit({
    auth: token,
    baseUrl: apiUrl.replace(/\/+$/, ''),
    userAgent: 'ratchet',
    log: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  try {
    return (await octokit.users.getAuthenticated()).data.login;
  } catch (e) {
    const status = statusOf(e);
    if (status === 401)
      throw new RatchetError(
        'forge_auth',
        `GitHub at ${apiUrl} refused this token (401 Bad credentials): it is mistyped, expired or revoked. Make a new one and paste it again.`,
        {
          cause: e,
        },
      );
    if (status === 403)
      throw new RatchetError(
        'forge_auth',
        `GitHub at ${apiUrl} answered 403 to this token: it may lack access, or the organisation requires SSO authorisation for it. Check the token's permissions on GitHub.`,
        { cause: e },
      );
    if (status === 404)
      throw new RatchetError('forge_failed', `${apiUrl} is not a GitHub API (404 for /user). For GitHub Enterprise use https://<host>/api/v3.`, { cause: e });
    const why = e instanceof Error ? e.message : String(e);
    throw new RatchetError(
      'forge_unreachable',
      `Could not reach GitHub at ${apiUrl}${status ? ` (${status})` : ''}: ${why.split(token).join('***')}. Check the API address and the network, then save again.`,
      {
        cause: e,
      },
    );
  }
}
