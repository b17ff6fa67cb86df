// The Anthropic API key, encrypted with Electron safeStorage in a file under userData: never written in plain text, never logged.
import { safeStorage } from 'electron';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Settings } from '../../shared/contract';
import { RatchetError, type SecretStore } from '../engine';

export const BASIC_TEXT_WARNING =
  'No system keyring (GNOME Keyring, KWallet) was found, so the API key is encrypted with a password built into ' +
  'Electron: anyone who can read your files can recover it. Install or unlock a keyring and restart Ratchet, or set ' +
  'ANTHROPIC_API_KEY in the environment instead of saving the key here.';
export const UNAVAILABLE_WARNING =
  'This system offers no way to encrypt the API key, so Ratchet will not save it. Set ANTHROPIC_API_KEY in the ' + 'environment before starting Ratchet.';
export const UNREADABLE_WARNING = 'The saved API key could not be decrypted (the keyring changed or was reset). Enter the key again in Settings.';

export type KeyStatus = Pick<Settings, 'apiKeySet' | 'apiKeySource' | 'apiKeyWarning'>;

type SafeStoragePort = Pick<typeof safeStorage, 'isAsyncEncryptionAvailable' | 'encryptStringAsync' | 'decryptStringAsync' | 'getSelectedStorageBackend'>;

export interface SecretsOptions {
  /** The encrypted file, under userData. */
  file: string;
  /** ANTHROPIC_API_KEY from the environment Ratchet was started with, used when no key is saved. */
  envKey?: string | null;
  platform?: NodeJS.Platform;
  storage?: SafeStoragePort;
  now?: () => number;
}

export interface Secrets {
  /** Reads the saved key (after app `ready`); call once before status() and key(). */
  load(): Promise<void>;
  /** Saves a new key, or forgets the saved one with null. */
  set(key: string | null): Promise<void>;
  /** The key the engine should use: the saved one, else the environment's. */
  key(): string | null;
  status(): KeyStatus;
}

export function createSecrets(options: SecretsOptions): Secrets {
  const storage = options.storage ?? safeStorage;
  const platform = options.platform ?? process.platform;
  const envKey = options.envKey?.trim() || null;
  let saved: string | null = null;
  let available = false;
  let unreadable = false;

  function backendWarning(): string | null {
    if (!available) return UNAVAILABLE_WARNING;
    // Only Linux has a choice of backends; basic_text means a hard-coded password, i.e. obfuscation at best.
    if (platform === 'linux' && storage.getSelectedStorageBackend() === 'basic_text') return BASIC_TEXT_WARNING;
    return null;
  }

  async function writeEncrypted(key: string): Promise<void> {
    const encrypted = await storage.encryptStringAsync(key);
    await mkdir(dirname(options.file), { recursive: true });
    const tmp = `${options.file}.tmp`;
    // Written beside and renamed, so a crash never leaves half a key; 0600 since even ciphertext is nobody else's business.
    await writeFile(tmp, encrypted, { mode: 0o600 });
    await rename(tmp, options.file);
  }

  return {
    async load() {
      available = await storage.isAsyncEncryptionAvailable();
      let data: Buffer;
      try {
        data = await readFile(options.file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw err;
      }
      try {
        const { result, shouldReEncrypt } = await storage.decryptStringAsync(data);
        saved = result || null;
        if (saved && shouldReEncrypt) await writeEncrypted(saved);
      } catch {
        // Kept aside rather than deleted: the user may get the keyring back.
        unreadable = true;
        await rename(options.file, `${options.file}.unreadable-${(options.now ?? Date.now)()}`).catch(() => undefined);
      }
    },
    async set(key) {
      const value = key?.trim() ?? '';
      if (!value) {
        saved = null;
        unreadable = false;
        await rm(options.file, { force: true });
        return;
      }
      if (/\s/.test(value)) throw new RatchetError('bad_arguments', 'An API key has no spaces or line breaks in it. Paste the key alone.');
      if (!available) throw new RatchetError('keychain_unavailable', UNAVAILABLE_WARNING);
      await writeEncrypted(value);
      saved = value;
      unreadable = false;
    },
    key() {
      return saved ?? envKey;
    },
    status() {
      const source: KeyStatus['apiKeySource'] = saved ? 'safe_storage' : envKey ? 'environment' : 'none';
      return {
        apiKeySet: source !== 'none',
        apiKeySource: source,
        apiKeyWarning: unreadable && !saved ? UNREADABLE_WARNING : backendWarning(),
      };
    },
  };
}

/**
 * The service's view of the key. The service's `set` is synchronous while safeStorage encrypts asynchronously, so the
 * shell saves the key first (see shell-handlers.ts) and this `set` only checks that it did.
 */
export function asSecretStore(secrets: Secrets): SecretStore {
  return {
    get source() {
      return secrets.status().apiKeySource;
    },
    get warning() {
      return secrets.status().apiKeyWarning;
    },
    get: () => secrets.key(),
    set: (key) => {
      const wanted = key?.trim() || null;
      if (wanted !== null && wanted !== secrets.key()) {
        throw new RatchetError('internal', 'The API key was not saved before use; this is a bug in Ratchet.');
      }
    },
  };
}

/**
 * Another secret kept exactly like the API key (its own encrypted file under userData), as the service's store: the
 * team database's URL, the GitHub token. `words` replaces the API key's warnings with this secret's own.
 */
export async function loadKeptSecret(options: SecretsOptions, words: Record<string, string>): Promise<SecretStore> {
  const secrets = createSecrets(options);
  await secrets.load();
  return {
    get source() {
      return secrets.status().apiKeySource;
    },
    get warning() {
      const w = secrets.status().apiKeyWarning;
      return w ? (words[w] ?? w) : null;
    },
    get: () => secrets.key(),
    async set(value) {
      try {
        await secrets.set(value);
      } catch (e) {
        if (e instanceof RatchetError && e.code === 'keychain_unavailable') throw new RatchetError(e.code, words[UNAVAILABLE_WARNING] ?? e.message);
        throw e;
      }
    },
  };
}
