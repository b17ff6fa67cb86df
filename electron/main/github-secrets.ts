// Settings › GitHub's token in the desktop app: encrypted with Electron safeStorage in its own file under userData, like
// the API key (secrets.ts does the keeping). GITHUB_TOKEN/GH_TOKEN in the environment win over it (the service says so).
import type { SecretStore } from '../engine';
import { BASIC_TEXT_WARNING, UNAVAILABLE_WARNING, UNREADABLE_WARNING, loadKeptSecret, type SecretsOptions } from './secrets';

export const GITHUB_BASIC_TEXT_WARNING =
  'No system keyring (GNOME Keyring, KWallet) was found, so the GitHub token is encrypted with a password built into ' +
  'Electron: anyone who can read your files can recover it. Install or unlock a keyring and restart Ratchet, or set ' +
  'GITHUB_TOKEN in the environment instead.';
export const GITHUB_UNAVAILABLE_WARNING =
  'This system offers no way to encrypt the GitHub token, so Ratchet will not save it. Set GITHUB_TOKEN in the environment before starting Ratchet.';
export const GITHUB_UNREADABLE_WARNING =
  'The saved GitHub token could not be decrypted (the keyring changed or was reset). Enter it again in Settings › GitHub.';

const WORDS: Record<string, string> = {
  [BASIC_TEXT_WARNING]: GITHUB_BASIC_TEXT_WARNING,
  [UNAVAILABLE_WARNING]: GITHUB_UNAVAILABLE_WARNING,
  [UNREADABLE_WARNING]: GITHUB_UNREADABLE_WARNING,
};

/** Loads the saved token (after app `ready`); the environment's token is not this store's (the service reads it first). */
export function loadGithubTokenStore(options: Omit<SecretsOptions, 'envKey'>): Promise<SecretStore> {
  return loadKeptSecret({ ...options, envKey: null }, WORDS);
}
