// Where Ratchet keeps its state: RATCHET_HOME, else the platform's app-data folder + `ratchet` (as Electron's userData would be).
import { homedir } from 'node:os';
import { join } from 'node:path';

export function defaultHome(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  if (env.RATCHET_HOME) return env.RATCHET_HOME;
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'ratchet');
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'ratchet');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'ratchet');
}
