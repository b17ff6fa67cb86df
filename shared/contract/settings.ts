// The contract's settings document: what Settings shows and `settings.set` changes.
import { z } from 'zod';
import { NotifySettings } from '../notify';

export const Settings = z.object({
  apiKeySet: z.boolean(),
  /** Where the key lives: the OS keychain (Electron safeStorage), the environment, the headless host's memory until it stops (`session`), or nowhere. */
  apiKeySource: z.enum(['safe_storage', 'environment', 'session', 'none']),
  /** Set when Electron's Linux backend stores secrets as plain text (basic_text). */
  apiKeyWarning: z.string().nullable(),
  /** Never empty: the engine names it in every run it starts (Settings marks an empty one at its field). */
  defaultModel: z.string().trim().min(1),
  preset: z.enum(['conservative', 'aggressive', 'minimal']),
  budget: z.object({ taskUsd: z.number().positive().nullable(), dailyUsd: z.number().positive().nullable(), alertAt: z.number().gt(0).max(1) }),
  notifications: z.boolean(),
  /** Each channel's target (ntfy topic URL, webhook URL, …) for every run (a workflow's `notify:` replaces them for its runs). */
  notify: NotifySettings,
  worktreeFolder: z.string().nullable(),
  /** false: the user chose to run the agent's commands without the OS sandbox. */
  sandbox: z.boolean(),
  /** How many runs execute at once (the app and `serve`); more wait in the queue. */
  concurrency: z.number().int().min(1).max(16),
  /** Whether commands run sandboxed here; `unavailable` (no sandbox on this platform) is shown as a banner. Read-only. */
  sandboxStatus: z.object({ state: z.enum(['on', 'off', 'unavailable']), message: z.string().nullable() }),
  pricing: z.record(
    z.string(),
    z.object({ input: z.number().min(0), output: z.number().min(0), cache_write: z.number().min(0), cache_read: z.number().min(0) }),
  ),
});
export type Settings = z.infer<typeof Settings>;
