// The few contract methods the Electron shell answers differently from the service: saving the API key goes through safeStorage first; a run's worktree opens in a terminal or editor.
import { shell } from 'electron';
import type { Handlers } from '../../shared/contract';
import { openWorktree } from './open-worktree';
import type { Secrets } from './secrets';

/**
 * `settings.setApiKey` checks the key with the API (`checkKey`), awaits the encrypted write (the service's secret store is synchronous), then lets the service
 * answer; the engine's environment is then set from what is actually stored, so clearing a saved key falls back to
 * the environment's key instead of leaving none.
 */
export function withShellHandlers(base: Handlers, deps: { secrets: Secrets; env: NodeJS.ProcessEnv; checkKey?: (key: string) => Promise<void> }): Handlers {
  return {
    ...base,
    ...worktreeHandlers(base),
    'settings.setApiKey': async (input) => {
      // A refused key is never written: checked (one cheap API call) before the encrypted write.
      const wanted = input.key?.trim() ?? '';
      if (wanted && wanted !== deps.secrets.key()) await deps.checkKey?.(wanted);
      await deps.secrets.set(input.key);
      const settings = await base['settings.setApiKey']({ key: input.key === null ? null : deps.secrets.key() });
      const key = deps.secrets.key();
      if (key) deps.env.ANTHROPIC_API_KEY = key;
      else delete deps.env.ANTHROPIC_API_KEY;
      return settings;
    },
  };
}

/**
 * `runs.openWorktree` in the desktop app: a terminal, an editor or the file manager at the run's worktree
 * (the service's own answer says a browser cannot). `openFolder` is Electron's shell.openPath.
 */
export function worktreeHandlers(base: Handlers, openFolder?: (path: string) => Promise<string>): Pick<Handlers, 'runs.openWorktree'> {
  return {
    'runs.openWorktree': async ({ runId, with: withWhat }) => {
      const doc = await base['runs.get']({ runId });
      await openWorktree(doc.worktree, withWhat, openFolder ?? ((p) => shell.openPath(p)));
      return { ok: true as const };
    },
  };
}
