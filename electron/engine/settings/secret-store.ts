// Where the Anthropic API key is kept: the interface the desktop shell's encrypted store and the headless host's memory
// store both give the service (electron/main/secrets.ts, memorySecrets here).
import { RatchetError } from '../errors';

export interface SecretStore {
  source: 'safe_storage' | 'environment' | 'session' | 'none';
  warning: string | null;
  get(): string | null;
  /** Throws a RatchetError where keys cannot be stored (the headless host reads the environment); may be async (safeStorage). */
  set(key: string | null): void | Promise<void>;
}

/** How a kept secret is named in the sentences its store says. */
export interface SecretWords {
  /** "key", "token". */
  what: string;
  /** The sentence's subject: "An API key", "A GitHub token". */
  label: string;
  /** Where to set it instead so it lasts (ANTHROPIC_API_KEY, GITHUB_TOKEN). */
  envName: string;
}

const API_KEY_WORDS: SecretWords = { what: 'key', label: 'An API key', envName: 'ANTHROPIC_API_KEY' };

/**
 * The headless host's key store: the environment's key, or a key saved from the app, kept in this process's memory
 * only (no keychain without Electron) until the host stops; never written to disk.
 */
export function memorySecrets(envKey: string | null, words: SecretWords = API_KEY_WORDS): SecretStore {
  let session: string | null = null;
  return {
    get source() {
      return session ? 'session' : envKey ? 'environment' : 'none';
    },
    get warning() {
      return session
        ? `This ${words.what} is kept in memory only until \`ratchet serve\` stops. To keep it, set ${words.envName} in the environment of \`ratchet serve\`.`
        : null;
    },
    get: () => session ?? envKey,
    set: (key) => {
      const value = key?.trim() ?? '';
      if (value && /\s/.test(value))
        throw new RatchetError('bad_arguments', `${words.label} has no spaces or line breaks in it. Paste the ${words.what} alone.`);
      session = value || null;
    },
  };
}
