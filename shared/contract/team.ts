// The contract's documents about team mode (runs on team workers, issue 22): the team database's connection as Settings
// shows it (never its password), and a team run with its status document.
import { z } from 'zod';
import { ErrorClass, StatusDocument } from '../domain';
import { EngineEventDoc } from './runs';
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

/** The team's numbers for the dashboard and the weekly report (the team client's stats): the period's team runs, retries and spend. */
export const TeamStatsDoc = z.object({
  days: z.number().int(),
  runs: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  /** Runs still queued, running, waiting or paused. */
  open: z.number().int(),
  attempts: z.number().int(),
  /** Attempts after a step's first, what they cost and how many passed. */
  retries: z.number().int(),
  retriesThatPassed: z.number().int(),
  retryCostUsd: z.number(),
  costUsd: z.number(),
  reasons: z.array(z.object({ errorClass: ErrorClass, attempts: z.number().int() })),
  byWorker: z.array(z.object({ worker: z.string(), runs: z.number().int(), succeeded: z.number().int(), costUsd: z.number() })),
  /** What every worker spent today (UTC day) against the team's daily budget (null: none). */
  spentTodayUsd: z.number(),
  dailyBudgetUsd: z.number().nullable(),
});
export type TeamStatsDoc = z.infer<typeof TeamStatsDoc>;

/** One engine event of a followed team run, as its worker wrote it on the run's stream; `follow` is the token team.follow was given. */
export const TeamEventDoc = z.object({ runId: z.string(), follow: z.string(), worker: z.string(), event: EngineEventDoc });
export type TeamEventDoc = z.infer<typeof TeamEventDoc>;
