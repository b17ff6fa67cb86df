// The few contract methods the Electron shell answers differently from the service: saving the API key goes through safeStorage first.
import type { Handlers } from '../../shared/contract';
import type { Secrets } from './secrets';

/**
 * `settings.setApiKey` awaits the encrypted write (the service's secret store is synchronous), then lets the service
 * answer; the engine's environment is then set from what is actually stored, so clearing a saved key falls back to
 * the environment's key instead of leaving none.
 */
export function withShellHandlers(base: Handlers, deps: { secrets: Secrets; env: NodeJS.ProcessEnv }): Handlers {
  return {
    ...base,
    'settings.setApiKey': async (input) => {
      await deps.secrets.set(input.key);
      const settings = await base['settings.setApiKey']({ key: input.key === null ? null : deps.secrets.key() });
      const key = deps.secrets.key();
      if (key) deps.env.ANTHROPIC_API_KEY = key;
      else delete deps.env.ANTHROPIC_API_KEY;
      return settings;
    },
  };
}
