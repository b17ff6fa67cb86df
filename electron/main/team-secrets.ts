// The team database's URL (Settings › Team) in the desktop app: encrypted with Electron safeStorage in its own file under
// userData, like the API key (secrets.ts does the keeping); RATCHET_TEAM_URL from the environment when none is saved.
import type { TeamUrlStore } from '../engine';
import { BASIC_TEXT_WARNING, UNAVAILABLE_WARNING, UNREADABLE_WARNING, loadKeptSecret, type SecretsOptions } from './secrets';

export const TEAM_BASIC_TEXT_WARNING =
  'No system keyring (GNOME Keyring, KWallet) was found, so the team database URL (with its password) is encrypted with a ' +
  'password built into Electron: anyone who can read your files can recover it. Install or unlock a keyring and restart ' +
  'Ratchet, or set RATCHET_TEAM_URL in the environment instead.';
export const TEAM_UNAVAILABLE_WARNING =
  'This system offers no way to encrypt the team database URL, so Ratchet will not save it. Set RATCHET_TEAM_URL in the environment before starting Ratchet.';
export const TEAM_UNREADABLE_WARNING =
  'The saved team database URL could not be decrypted (the keyring changed or was reset). Enter it again in Settings › Team.';

const WORDS: Record<string, string> = {
  [BASIC_TEXT_WARNING]: TEAM_BASIC_TEXT_WARNING,
  [UNAVAILABLE_WARNING]: TEAM_UNAVAILABLE_WARNING,
  [UNREADABLE_WARNING]: TEAM_UNREADABLE_WARNING,
};

/** Loads the saved URL (after app `ready`) and answers the service's store over it. */
export async function loadTeamUrlStore(options: Omit<SecretsOptions, 'envKey'> & { envUrl?: string | null }): Promise<TeamUrlStore> {
  return loadKeptSecret({ ...options, envKey: options.envUrl ?? null }, WORDS);
}
