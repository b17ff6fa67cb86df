// What one run's sandboxed commands may touch: pure data, turned into @anthropic-ai/sandbox-runtime's per-command config.
import path from 'node:path';
import { worktreeMandatoryDenies } from './worktree-denies';

export interface RunPolicyInput {
  worktree: string;
  /** The run's private folder: TMPDIR and HOME inside the sandbox. */
  privateDir: string;
  /** Ratchet's own state (database, settings, other runs): never readable. */
  ratchetHome: string;
  /** The user's home: its credential stores are never readable. */
  userHome: string;
  /** Hosts a command may connect to (through the sandbox's proxy); empty means no network. */
  network: readonly string[];
}

/** Credential stores under the user's home that no sandboxed command may read. */
export const SECRET_HOME_PATHS = [
  '.ssh', '.aws', '.azure', '.config/gcloud', '.config/gh', '.config/hub', '.docker', '.kube', '.gnupg',
  '.netrc', '.npmrc', '.pypirc', '.git-credentials', '.config/git/credentials', '.cargo/credentials',
  '.cargo/credentials.toml', '.vault-token', '.terraformrc', '.gem/credentials', '.yarnrc', '.yarnrc.yml',
];

export interface SandboxFilesystem {
  denyRead: string[];
  allowRead: string[];
  allowWrite: string[];
  denyWrite: string[];
}

export interface RunPolicy {
  filesystem: SandboxFilesystem;
  allowedDomains: string[];
}

function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Writes: the worktree and the private folder only (everything else, the repository's `.git` included, is mounted
 * read-only, so `git status`/`diff`/`log` work and `git commit` does not). Reads: everything but RATCHET_HOME and
 * the credential stores; the worktree and private folder stay readable when they live under RATCHET_HOME.
 */
export function runPolicy(input: RunPolicyInput): RunPolicy {
  const writable = [path.resolve(input.worktree), path.resolve(input.privateDir)];
  const denyRead = [path.resolve(input.ratchetHome), ...SECRET_HOME_PATHS.map((p) => path.join(input.userHome, p))];
  const allowRead = writable.filter((w) => denyRead.some((d) => isInside(d, w)));
  return {
    filesystem: { denyRead, allowRead, allowWrite: writable, denyWrite: worktreeMandatoryDenies(input.worktree) },
    allowedDomains: [...new Set(input.network.map((h) => h.trim()).filter((h) => h !== ''))],
  };
}

/** The API host a command agent needs: ANTHROPIC_BASE_URL's host, else Anthropic's. */
export function anthropicApiHost(env: NodeJS.ProcessEnv): string {
  const base = env.ANTHROPIC_BASE_URL;
  if (base) {
    try {
      const u = new URL(base);
      return u.port ? `${u.hostname}:${u.port}` : u.hostname;
    } catch {
      // Not a URL: the agent will fail on it anyway; fall back to the default host.
    }
  }
  return 'api.anthropic.com';
}
