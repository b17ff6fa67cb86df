// The API key store: encrypted on disk, never the plain key in the file or the log; basic_text and no keyring are reported.
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => import('./testing/fake-electron'));
const fake = await import('./testing/fake-electron');
const { asSecretStore, BASIC_TEXT_WARNING, createSecrets, UNAVAILABLE_WARNING, UNREADABLE_WARNING } = await import('./secrets');

const KEY = 'sk-ant-api03-SECRETSECRETSECRET';
let dir: string;
let file: string;
const logged: string[] = [];
beforeEach(() => {
  fake.resetFakeElectron();
  dir = mkdtempSync(join(tmpdir(), 'ratchet-secrets-'));
  file = join(dir, 'userData', 'api-key.enc');
  logged.length = 0;
  for (const m of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, m).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
  }
});
afterEach(() => {
  vi.restoreAllMocks();
  // Nothing the store did may have put the key in the log.
  expect(logged.join('\n')).not.toContain(KEY);
});

const make = (extra: Record<string, unknown> = {}) => createSecrets({ file, platform: 'linux', ...extra });

describe('createSecrets', () => {
  it('saves the key encrypted (never in plain text, 0600) and reads it back in the next session', async () => {
    const a = make();
    await a.load();
    await a.set(`  ${KEY}\n`);
    const bytes = readFileSync(file);
    expect(bytes.toString('utf8')).not.toContain(KEY);
    expect(bytes.toString('latin1')).not.toContain(KEY);
    expect(fake.safeStorage.encryptStringAsync).toHaveBeenCalledWith(KEY);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir, 'userData'))).toEqual(['api-key.enc']);

    const b = make();
    await b.load();
    expect(b.key()).toBe(KEY);
    expect(b.status()).toEqual({ apiKeySet: true, apiKeySource: 'safe_storage', apiKeyWarning: null });
  });

  it('warns when Linux stores secrets with basic_text, and only on Linux', async () => {
    fake.safeStorage.backend = 'basic_text';
    const linux = make();
    await linux.load();
    expect(linux.status().apiKeyWarning).toBe(BASIC_TEXT_WARNING);
    const mac = make({ platform: 'darwin' });
    await mac.load();
    expect(mac.status().apiKeyWarning).toBeNull();
    fake.safeStorage.backend = 'gnome_libsecret';
    expect(linux.status().apiKeyWarning).toBeNull();
  });

  it('refuses to save when no encryption is available, and writes nothing', async () => {
    fake.safeStorage.available = false;
    const s = make();
    await s.load();
    await expect(s.set(KEY)).rejects.toMatchObject({ code: 'keychain_unavailable' });
    expect(existsSync(file)).toBe(false);
    expect(s.key()).toBeNull();
    expect(s.status()).toEqual({ apiKeySet: false, apiKeySource: 'none', apiKeyWarning: UNAVAILABLE_WARNING });
  });

  it('falls back to the environment key, and back to it when the saved key is removed', async () => {
    const s = make({ envKey: 'sk-ant-from-env' });
    await s.load();
    expect(s.status()).toMatchObject({ apiKeySet: true, apiKeySource: 'environment' });
    await s.set(KEY);
    expect(s.key()).toBe(KEY);
    await s.set(null);
    expect(existsSync(file)).toBe(false);
    expect(s.key()).toBe('sk-ant-from-env');
    expect(s.status().apiKeySource).toBe('environment');
  });

  it('rejects a key with whitespace inside', async () => {
    const s = make();
    await s.load();
    await expect(s.set('sk-ant one\ntwo')).rejects.toMatchObject({ code: 'bad_arguments' });
    expect(existsSync(file)).toBe(false);
  });

  it('keeps an undecryptable file aside and says so', async () => {
    const s0 = make();
    await s0.load();
    await s0.set(KEY);
    writeFileSync(file, 'garbage');
    const s = make({ now: () => 1234 });
    await s.load();
    expect(s.key()).toBeNull();
    expect(s.status().apiKeyWarning).toBe(UNREADABLE_WARNING);
    expect(existsSync(`${file}.unreadable-1234`)).toBe(true);
    expect(existsSync(file)).toBe(false);
  });

  it('gives the service a SecretStore that reflects the saved key', async () => {
    const s = make();
    await s.load();
    const store = asSecretStore(s);
    expect(store.source).toBe('none');
    await s.set(KEY);
    expect(store.source).toBe('safe_storage');
    expect(store.get()).toBe(KEY);
    expect(() => store.set(KEY)).not.toThrow();
    expect(() => store.set('sk-ant-never-saved')).toThrow(/not saved/);
  });
});
