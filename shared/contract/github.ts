// The contract's documents about GitHub: Settings › GitHub (the token kept like the API key, the API's root), a run's
// pull request as the app's PR panel shows it, and an issue read as a task (New task's "paste an issue URL").
import { z } from 'zod';
import { PrDoc, PrOptions } from '../pull-request';

export const GithubSettingsDoc = z.object({
  /** Where the token in use comes from: the OS keychain, GITHUB_TOKEN/GH_TOKEN (`environment`, which wins), the headless host's memory, or nowhere. */
  tokenSource: z.enum(['safe_storage', 'environment', 'session', 'none']),
  /** The environment variable the token in use comes from (GITHUB_TOKEN or GH_TOKEN), when it does. */
  tokenEnv: z.string().nullable(),
  tokenWarning: z.string().nullable(),
  /** Who the token belongs to, as GitHub said when it was checked (null: not checked in this session). */
  login: z.string().nullable(),
  /** The API's root in use (the public API, or GitHub Enterprise's `https://<host>/api/v3`). */
  apiUrl: z.string(),
  /** Where apiUrl comes from: RATCHET_GITHUB_API_URL (wins), Settings, or the default. */
  apiUrlSource: z.enum(['environment', 'settings', 'default']),
});
export type GithubSettingsDoc = z.infer<typeof GithubSettingsDoc>;

export const PrReviewDoc = z.object({ author: z.string(), state: z.enum(['APPROVED', 'CHANGES_REQUESTED', 'COMMENTED', 'DISMISSED', 'PENDING']) });

/** A run's pull request as the PR panel shows it: the saved document, what the last look saw, and the toggles. */
export const PrPanelDoc = z.object({
  pr: PrDoc.nullable(),
  options: PrOptions,
  /** Whether this process is watching it now (the panel refreshes while it is). */
  watching: z.boolean(),
  /** What the last look of this session saw (null before the first): each reviewer's standing review, and mergeability. */
  live: z
    .object({
      reviews: z.array(PrReviewDoc),
      mergeable: z.boolean().nullable(),
      mergeableState: z.string(),
      /** The watch's verdict: waiting, green, failing, changes_requested, merged, closed, no_checks. */
      verdict: z.string(),
      waitingFor: z.array(z.string()),
    })
    .nullable(),
  /** Why the last look or watch failed, in plain words (the token refused, GitHub unreachable…). */
  error: z.string().nullable(),
  /** What the watch last did or said, in a sentence: a round, a re-run, what merging waits for, how it ended. */
  progress: z.string().nullable(),
});
export type PrPanelDoc = z.infer<typeof PrPanelDoc>;

/** An issue read as a task: its title, and a description from its body and comments. */
export const IssueTaskDoc = z.object({
  number: z.number().int().positive(),
  url: z.string(),
  repo: z.string(),
  title: z.string(),
  description: z.string(),
});
export type IssueTaskDoc = z.infer<typeof IssueTaskDoc>;
