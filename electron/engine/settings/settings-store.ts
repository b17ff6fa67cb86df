// The user's settings (default model, preset, budgets, notifications, worktree folder), kept as JSON under RATCHET_HOME.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { NO_TARGETS, NotifySettings } from '../../../shared/notify';

export const UserSettings = z.object({
  defaultModel: z.string().min(1).default('claude-sonnet-5-5'),
  preset: z.enum(['conservative', 'aggressive', 'minimal']).default('conservative'),
  budget: z
    .object({
      taskUsd: z.number().positive().nullable().default(null),
      dailyUsd: z.number().positive().nullable().default(null),
      alertAt: z.number().gt(0).max(1).default(0.8),
    })
    .default({ taskUsd: null, dailyUsd: null, alertAt: 0.8 }),
  notifications: z.boolean().default(true),
  /** Each channel's target (ntfy topic URL, webhook URL, …) for every run; a workflow's own `notify:` replaces them for its runs. */
  notify: NotifySettings.default(NO_TARGETS),
  worktreeFolder: z.string().nullable().default(null),
  /** false runs the agent's shell, gates and command agents without the OS sandbox (the user's explicit choice). */
  sandbox: z.boolean().default(true),
  /** How many runs execute at once in the app and `serve`; more wait in the queue (status `queued`). */
  concurrency: z.number().int().min(1).max(16).default(2),
  /** Settings › GitHub's API root (GitHub Enterprise: `https://<host>/api/v3`); null: the public API. RATCHET_GITHUB_API_URL wins. */
  githubApiUrl: z.string().nullable().default(null),
});
export type UserSettings = z.infer<typeof UserSettings>;

export function loadSettings(home: string): UserSettings {
  const file = join(home, 'settings.json');
  if (!existsSync(file)) return UserSettings.parse({});
  try {
    return UserSettings.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    // A damaged file is kept for the user to look at, never overwritten silently.
    renameSync(file, `${file}.invalid-${Date.now()}`);
    return UserSettings.parse({});
  }
}

export function saveSettings(home: string, settings: UserSettings): void {
  const file = join(home, 'settings.json');
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(UserSettings.parse(settings), null, 2)}\n`);
  renameSync(tmp, file);
}
