// settings.setApiKey in the shell: saved through safeStorage before the service answers; the engine's env follows what is stored.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Handlers } from '../../shared/contract';

vi.mock('electron', () => import('./testing/fake-electron'));
const fake = await import('./testing/fake-electron');
const { asSecretStore, createSecrets } = await import('./secrets');
const { withShellHandlers } = await import('./shell-handlers');

beforeEach(() => fake.resetFakeElectron());

async function setup(envKey: string | null, checkKey?: (key: string) => Promise<void>) {
  const file = join(mkdtempSync(join(tmpdir(), 'ratchet-shell-')), 'api-key.enc');
  const secrets = createSecrets({ file, platform: 'linux', envKey });
  await secrets.load();
  const env: NodeJS.ProcessEnv = envKey ? { ANTHROPIC_API_KEY: envKey } : {};
  const store = asSecretStore(secrets);
  // What the service's own handler does: store.set, then env, then the settings document.
  const base = {
    'settings.setApiKey': vi.fn(async ({ key }: { key: string | null }) => {
      store.set(key);
      if (key) env.ANTHROPIC_API_KEY = key;
      else delete env.ANTHROPIC_API_KEY;
      return { apiKeySet: Boolean(store.get()), apiKeySource: store.source } as never;
    }),
  } as unknown as Handlers;
  return { file, env, secrets, handlers: withShellHandlers(base, { secrets, env, checkKey }), base };
}

describe('withShellHandlers', () => {
  it('encrypts the key before the service sees it, and puts the trimmed key in the engine env', async () => {
    const { file, env, handlers, base } = await setup(null);
    const settings = await handlers['settings.setApiKey']({ key: ' sk-ant-new ' });
    expect(settings).toMatchObject({ apiKeySet: true, apiKeySource: 'safe_storage' });
    expect(readFileSync(file, 'utf8')).not.toContain('sk-ant-new');
    expect(base['settings.setApiKey']).toHaveBeenCalledWith({ key: 'sk-ant-new' });
    expect(env.ANTHROPIC_API_KEY).toBe('sk-ant-new');
  });

  it('clearing the saved key falls back to the environment key instead of none', async () => {
    const { env, handlers } = await setup('sk-ant-env');
    await handlers['settings.setApiKey']({ key: 'sk-ant-saved' });
    expect(env.ANTHROPIC_API_KEY).toBe('sk-ant-saved');
    await handlers['settings.setApiKey']({ key: null });
    expect(env.ANTHROPIC_API_KEY).toBe('sk-ant-env');
  });

  it('does not reach the service when the key cannot be saved', async () => {
    fake.safeStorage.available = false;
    const { env, handlers, base } = await setup(null);
    await expect(handlers['settings.setApiKey']({ key: 'sk-ant-x' })).rejects.toMatchObject({ code: 'keychain_unavailable' });
    expect(base['settings.setApiKey']).not.toHaveBeenCalled();
    expect(env.ANTHROPIC_API_KEY).toBeUndefined();
  });
});

describe('a refused key (issue 20 item 18)', () => {
  it('is checked before the encrypted write, and never written', async () => {
    const refuse = vi.fn(async () => {
      throw Object.assign(new Error('The API refused this key (invalid x-api-key). The key was not saved.'), { code: 'api_key_refused' });
    });
    const { file, env, handlers, base } = await setup(null, refuse);
    await expect(handlers['settings.setApiKey']({ key: ' sk-ant-typo ' })).rejects.toMatchObject({ code: 'api_key_refused' });
    expect(refuse).toHaveBeenCalledWith('sk-ant-typo');
    expect(existsSync(file)).toBe(false);
    expect(base['settings.setApiKey']).not.toHaveBeenCalled();
    expect(env.ANTHROPIC_API_KEY).toBeUndefined();
  });
});

describe('runs.openWorktree in the desktop app', () => {
  it("opens the run's worktree in the file manager, and says so when it no longer exists", async () => {
    const { worktreeHandlers } = await import('./shell-handlers');
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-wt-'));
    const opened: string[] = [];
    const base = { 'runs.get': async () => ({ worktree: dir }) } as unknown as Handlers;
    const h = worktreeHandlers(base, async (p) => {
      opened.push(p);
      return '';
    });
    expect(await h['runs.openWorktree']({ runId: 'r', with: 'folder' })).toEqual({ ok: true });
    expect(opened).toEqual([dir]);
    const gone = { 'runs.get': async () => ({ worktree: join(dir, 'gone') }) } as unknown as Handlers;
    await expect(worktreeHandlers(gone, async () => '')['runs.openWorktree']({ runId: 'r', with: 'terminal' })).rejects.toMatchObject({ code: 'no_worktree' });
  });
});
