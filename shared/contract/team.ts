// The contract's documents about team mode (runs on team workers, issue 22): the team database's connection as Settings
// shows it (never its password), and a team run with its status document.
import { z } from 'zod';
import { StatusDocument } from '../domain';
import { TeamOverview, TeamRunItem } from '../team';

/** Where the team database's URL is kept: the OS keychain (Electron safeStorage), RATCHET_TEAM_URL, the headless host's memory, or nowhere. */
export const TeamUrlSource = z.enum(['safe_storage', 'environment', 'session', 'none']);

export const TeamSettingsDoc = z.object({
  /** The URL with its password replaced by *** (never the password itself); null: no team set. */
  url: z.string().nullable(),
  source: TeamUrlSource,
  /** How safely the URL is kept, when that needs saying (no keyring, memory only). */
  warning: z.string().nullable(),
});
export type TeamSettingsDoc = z.infer<typeof TeamSettingsDoc>;

/** Settings › Team after a save or a check: the connection and, when it answered, the team's workers, limits and spend. */
export const TeamConnectionDoc = TeamSettingsDoc.extend({
  overview: TeamOverview.nullable(),
  /** Why the team database did not answer (what to do included); null when it did, or when no team is set. */
  error: z.string().nullable(),
});
export type TeamConnectionDoc = z.infer<typeof TeamConnectionDoc>;

/** A team run: how the team lists it, and the status document its worker last kept (null until a worker began it). */
export const TeamRunDoc = z.object({ item: TeamRunItem, doc: StatusDocument.nullable() });
export type TeamRunDoc = z.infer<typeof TeamRunDoc>;
