// The environment handed to the agent's shell, gates and validators: an allowlist, never a copy of Ratchet's own.
import { GITHUB_TOKEN_NAMES } from '../settings/forge-token';

const ALWAYS = ['PATH', 'LANG', 'TERM', 'TZ', 'COLORTERM', 'NO_COLOR', 'FORCE_COLOR'];
/** The forge's token is Ratchet's to use against the forge: never handed to a sandboxed command, even when the workflow lists it. */
const NEVER: ReadonlySet<string> = new Set(GITHUB_TOKEN_NAMES);

export interface AllowEnvOptions {
  /** HOME inside the sandbox (the run's private folder, not the user's home). */
  home: string;
  /** TMPDIR inside the sandbox. */
  tmpDir: string;
  /** Extra variable names the workflow lets through (`sandbox: { env: [...] }`). */
  names?: readonly string[];
}

/**
 * Only PATH, LANG, LC_*, TERM (and a few display variables), HOME and TMPDIR set to the sandbox's own folders, and
 * the names the workflow lists. Anything else (keys, tokens, database URLs, SSH_AUTH_SOCK, RATCHET_*) stays out:
 * whatever the agent can read it can print into a transcript or a commit.
 */
export function allowlistEnv(env: NodeJS.ProcessEnv, opts: AllowEnvOptions): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  const named = new Set([...ALWAYS, ...(opts.names ?? [])]);
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if ((named.has(name) || name.startsWith('LC_')) && !NEVER.has(name)) out[name] = value;
  }
  out.HOME = opts.home;
  out.TMPDIR = opts.tmpDir;
  return out;
}

export interface RunEnvOptions extends AllowEnvOptions {
  /** The user's PATH without Ratchet's own entries (see userPath). */
  path: string | undefined;
  /** Certificate and toolchain variables (see toolchainEnv). */
  toolchain: Record<string, string>;
  /** The shared caches' variables (see cacheEnv). */
  caches: Record<string, string>;
}

/**
 * What a run's commands get: the allowlist, with the user's PATH (not Ratchet's), their certificate and toolchain
 * variables, and the shared caches. A name the workflow lists (`sandbox.env`) wins over Ratchet's choice.
 */
export function runEnv(env: NodeJS.ProcessEnv, opts: RunEnvOptions): NodeJS.ProcessEnv {
  const base = allowlistEnv(opts.path === undefined ? env : { ...env, PATH: opts.path }, opts);
  const listed = Object.fromEntries((opts.names ?? []).filter((n) => env[n] !== undefined && !NEVER.has(n)).map((n) => [n, env[n]]));
  return { ...opts.toolchain, ...opts.caches, ...base, ...listed, HOME: opts.home, TMPDIR: opts.tmpDir };
}
