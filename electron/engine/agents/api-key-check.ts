// Checks an Anthropic API key with one cheap call before it is kept (GET /v1/models, which costs nothing), so a
// mistyped or revoked key is refused in Settings with what is wrong, instead of failing the first run.
import { RatchetError } from '../errors';

/** The API the agent talks to: ANTHROPIC_BASE_URL when set (a compatible server, the scripted one), else Anthropic's. */
export function apiBase(baseURL: string | undefined): string {
  return (baseURL?.trim() || 'https://api.anthropic.com').replace(/\/+$/, '');
}

/** The error's own words from the API's body (`{ type: 'error', error: { type, message } }`), if it has any. */
async function apiMessage(res: Response): Promise<string | null> {
  try {
    const body = (await res.json()) as { error?: { message?: unknown; type?: unknown } };
    const m = body.error?.message ?? body.error?.type;
    return typeof m === 'string' && m.trim() ? m.trim() : null;
  } catch {
    return null;
  }
}

/** Resolves when the API accepts `key`; otherwise throws a RatchetError whose sentence says what is wrong (never the key). */
export async function checkApiKey(key: string, baseURL: string | undefined, timeoutMs = 10_000): Promise<void> {
  const base = apiBase(baseURL);
  let res: Response;
  try {
    res = await fetch(`${base}/v1/models?limit=1`, {
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const cause = err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
    throw new RatchetError(
      'api_key_unchecked',
      `Could not reach ${base} to check the key (${cause}). The key was not saved: check your connection${baseURL ? ' and ANTHROPIC_BASE_URL' : ''}, then save it again.`,
    );
  }
  if (res.ok) return;
  const said = await apiMessage(res);
  if (res.status === 401) {
    throw new RatchetError(
      'api_key_refused',
      `The API refused this key (${said ?? 'authentication error'}). The key was not saved: copy it again from your Anthropic console (API keys) — the whole key, starting sk-ant- — or make a new one if it was revoked.`,
    );
  }
  if (res.status === 403) {
    throw new RatchetError(
      'api_key_refused',
      `This key may not use the API (${said ?? 'permission error'}). The key was not saved: check its workspace and permissions in your Anthropic console.`,
    );
  }
  throw new RatchetError(
    'api_key_unchecked',
    `${base} answered ${res.status}${said ? ` (${said})` : ''} when asked to check the key. The key was not saved: try again in a moment.`,
  );
}
