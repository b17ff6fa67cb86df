// What one run's sandboxed commands may touch: pure data, turned into @anthropic-ai/sandbox-runtime's per-command config.
import path from 'node:path';
import { isBelow, isWithin } from '../fs/within';
import { worktreeMandatoryDenies } from '../fs/worktree-denies';

export interface RunPolicyInput {
  worktree: string;
  /** The run's private folder: TMPDIR and HOME inside the sandbox. */
  privateDir: string;
  /** Where every run's private folder lives (see privateRoot): denied but for this run's own. */
  privateRoot?: string;
  /** Ratchet's own state (database, settings, other runs): never readable. */
  ratchetHome: string;
  /** The user's home: denied, but for `homeReads`; its credential stores are never readable. */
  userHome: string;
  /** Hosts a command may connect to (through the sandbox's proxy), `registry:` entries already resolved; empty means no network. */
  network: readonly string[];
  /** What builds need from the user's home (see homeReads): read-only. */
  homeReads?: readonly string[];
  /** The repository's build caches, shared by its runs (see repoCacheDir): readable and writable. */
  cacheDir?: string;
  /**
   * The repository's git dir (its objects and refs, which git in the worktree reads): readable, read-only, wherever it
   * lives — a team worker's clone sits under RATCHET_HOME. Never when it would open RATCHET_HOME or the home as a whole.
   */
  gitDir?: string | null;
  /** Files inside writable folders that Ratchet writes and sandboxed commands may not change. */
  denyWrite?: readonly string[];
}

/**
 * Credential stores under the user's home that no sandboxed command may read. The home itself is denied too (only
 * what builds need is given back): this list is the second wall, for a folder given back that holds one of these.
 */
export const SECRET_HOME_PATHS = [
  // ssh, cloud and container CLIs
  '.ssh',
  '.aws',
  '.azure',
  '.config/gcloud',
  '.config/gh',
  '.config/hub',
  '.docker',
  '.kube',
  '.oci',
  '.config/doctl',
  '.config/heroku',
  '.netlify',
  '.config/netlify',
  '.vercel',
  '.config/vercel',
  '.fly',
  '.terraform.d',
  '.terraformrc',
  '.vault-token',
  '.config/op',
  '.config/1Password',
  '.pulumi',
  '.config/hcloud',
  '.s3cfg',
  '.boto',
  '.databrickscfg',
  // package managers and build tools
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.yarnrc',
  '.yarnrc.yml',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.cargo/config',
  '.cargo/config.toml',
  '.gem/credentials',
  '.m2/settings.xml',
  '.m2/settings-security.xml',
  '.gradle/gradle.properties',
  '.ivy2/.credentials',
  '.sbt/.credentials',
  '.nuget/NuGet/NuGet.Config',
  '.composer/auth.json',
  '.config/composer/auth.json',
  '.pip/pip.conf',
  '.config/pip/pip.conf',
  '.config/uv/uv.toml',
  '.config/pypoetry/auth.toml',
  '.local/share/pypoetry/auth.toml',
  '.config/hatch',
  '.docker/config.json',
  // git and source hosts
  '.git-credentials',
  '.config/git/credentials',
  '.gitconfig',
  '.config/git/config',
  '.config/glab-cli',
  '.config/tea',
  // databases
  '.pgpass',
  '.my.cnf',
  '.mylogin.cnf',
  '.psql_history',
  '.mysql_history',
  '.rediscli_history',
  '.dbshell',
  '.mongoshrc.js',
  // agent CLIs (Ratchet's own command agent among them)
  '.claude',
  '.claude.json',
  '.claude.json.backup',
  '.config/claude',
  '.codex',
  '.gemini',
  '.config/github-copilot',
  '.aider',
  '.aider.conf.yml',
  '.cursor',
  '.continue',
  '.config/openai',
  '.anthropic',
  // keyrings, password stores, GPG
  '.gnupg',
  '.password-store',
  '.local/share/keyrings',
  '.config/keybase',
  '.pki',
  '.mozilla',
  '.config/google-chrome',
  '.config/chromium',
  '.thunderbird',
  // shell and REPL histories
  '.bash_history',
  '.zsh_history',
  '.zhistory',
  '.history',
  '.sh_history',
  '.local/share/fish/fish_history',
  '.python_history',
  '.node_repl_history',
  '.irb_history',
  '.lesshst',
  '.viminfo',
  '.wget-hsts',
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

/** Whether the home can be denied as a whole: an absolute folder below the root. */
function deniableHome(home: string): boolean {
  return path.isAbsolute(home) && path.resolve(home) !== path.parse(home).root;
}

/**
 * Writes: the worktree, the private folder and the shared caches only (everything else, the repository's `.git`
 * included, is mounted read-only, so `git status`/`diff`/`log` work and `git commit` does not). Reads: everything but
 * RATCHET_HOME and the user's home; of the home, what builds need (`homeReads`) comes back read-only, minus the
 * credential stores; the repository's git dir comes back read-only wherever it is (`gitDir`). The worktree, private folder and caches stay readable where they live under a denied folder.
 */
export function runPolicy(input: RunPolicyInput): RunPolicy {
  const home = path.resolve(input.userHome);
  const writable = [input.worktree, input.privateDir, ...(input.cacheDir ? [input.cacheDir] : [])].map((p) => path.resolve(p));
  const secrets = SECRET_HOME_PATHS.map((p) => path.join(home, p));
  const homeDenied = deniableHome(home);
  // Given back: strictly below the home, never at or below a credential store (a PATH entry in ~/.ssh stays hidden).
  const homeReads = (input.homeReads ?? []).map((p) => path.resolve(p)).filter((p) => isBelow(home, p) && !secrets.some((s) => isWithin(s, p)));
  // With the home denied, a credential store needs its own deny only inside a folder given back (each entry costs
  // every command a mount to plan: ~100 ms a command for the whole list); without it, all of them.
  const walled = homeDenied ? secrets.filter((s) => [...homeReads, ...writable].some((r) => isWithin(r, s))) : secrets;
  const denyRead = [path.resolve(input.ratchetHome), ...(input.privateRoot ? [path.resolve(input.privateRoot)] : []), ...(homeDenied ? [home] : []), ...walled];
  const gitDir = input.gitDir ? path.resolve(input.gitDir) : null;
  const gitReads = gitDir && ![path.resolve(input.ratchetHome), home].some((d) => isWithin(gitDir, d)) ? [gitDir] : [];
  const allowRead = [...new Set([...writable.filter((w) => denyRead.some((d) => isWithin(d, w))), ...homeReads, ...gitReads])];
  return {
    filesystem: {
      denyRead,
      allowRead,
      allowWrite: writable,
      denyWrite: [...worktreeMandatoryDenies(input.worktree), ...(input.denyWrite ?? []).map((p) => path.resolve(p))],
    },
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
