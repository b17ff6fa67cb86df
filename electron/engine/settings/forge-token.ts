// The forge's token, from the environment. It is handed to the forge client only: never to a sandboxed command
// (sandbox/sandbox-env.ts drops these names even when a workflow lists them), a prompt or the store.

/** The names read, in order. */
export const GITHUB_TOKEN_NAMES = ['GITHUB_TOKEN', 'GH_TOKEN'] as const;

export function githubToken(env: NodeJS.ProcessEnv): string | null {
  for (const name of GITHUB_TOKEN_NAMES) {
    const v = env[name]?.trim();
    if (v) return v;
  }
  return null;
}
