// The one way the engine runs git: hardened config, a minimal environment, no prompt, simple-git's unsafe-operation check.
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { vulnerabilityCheck } from '@simple-git/argv-parser';
import { ownPathOf, ownProgram } from '../process/which';
import { plainLine, plainText } from '../../../shared/terminal-text';
import { runExcludesConfig } from './run-excludes';
import type { PinnedWorktree } from './worktree-integrity';

/**
 * The environment git runs with: enough to find git and the user's config, nothing that could run other programs.
 * GIT_CONFIG_NOSYSTEM: the system config is not the user's to vouch for and is never needed by the engine.
 * GIT_TEST_DISALLOW_ABBREVIATED_OPTIONS: git refuses an abbreviated long option (`--upload-pac`), so the
 * unsafe-operation check, which reads options by their full names, cannot be dodged (simple-git sets it too).
 * PATH keeps only absolute entries outside the checkout Ratchet started in (ownPathOf): git runs in a worktree, where
 * a relative entry (`node_modules/.bin`) would let the agent's files stand in for the programs git starts itself (sh, ssh).
 */
export function gitEnv(): Record<string, string> {
  const keep = ['HOME', 'USER', 'LANG', 'LC_ALL', 'TMPDIR', 'SystemRoot', 'XDG_CONFIG_HOME'];
  const env: Record<string, string> = {};
  for (const k of keep) if (process.env[k] !== undefined) env[k] = process.env[k] as string;
  if (process.env.PATH !== undefined) env.PATH = ownPathOf(process.env.PATH);
  env.GIT_CONFIG_NOSYSTEM = '1';
  env.GIT_TEST_DISALLOW_ABBREVIATED_OPTIONS = 'true';
  return env;
}

/**
 * `-c` settings every git command of Ratchet's runs with. They override whatever the repository's config says
 * (with --no-sandbox the agent can write it; `git config` in a worktree lands in the main repository's .git/config),
 * and git hands them on to the git processes it starts itself: no hooks, no fsmonitor command, no signing, never into
 * a submodule or nested repository (no `git status` run inside one, whose config could name a filter), no `ext::`
 * transport. Ratchet's own diffs add --no-ext-diff and --no-textconv. Filters are switched off on a run's worktree
 * (filtersOffConfig); other commands config can name are caught by the config guard (repo-config-guard.ts), which
 * reverts config changes after each attempt and each gate.
 */
export const HARDENED_GIT_CONFIG: readonly string[] = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'commit.gpgsign=false',
  'tag.gpgSign=false',
  'submodule.recurse=false',
  'diff.ignoreSubmodules=all',
  'push.recurseSubmodules=no',
  'protocol.ext.allow=never',
];

/**
 * simple-git's unsafe-operation check (the code its `unsafe` plugin runs, from its package @simple-git/argv-parser),
 * applied to the arguments and extra config of every command before git starts: an option or `-c` setting that makes
 * git run a program (`--upload-pack`, `--receive-pack`, `--template`, `core.sshCommand`, `core.pager`, `diff.external`,
 * filters, credential helpers, `protocol.*.allow`…) is refused, whatever data put it there (a branch, a ref, a remote,
 * a path). HARDENED_GIT_CONFIG is not checked: it names such keys only to switch them off. Returns why, or null.
 */
export function unsafeGitArguments(args: readonly string[]): string | null {
  const found = vulnerabilityCheck(args, {});
  return found.length ? found.map((v) => v.message).join('; ') : null;
}

/** A config file's identity for the filter cache: size, change time and inode ('-': absent). */
function stamp(file: string): string {
  try {
    const st = statSync(file);
    return `${st.size}:${st.mtimeMs}:${st.ino}`;
  } catch {
    return '-';
  }
}

/** The config files that can name filter drivers for a command in `dir` (pinned to `gitDir`): the user's and the repository's. */
function configFiles(dir: string, gitDir: string | null): string[] {
  const home = process.env.HOME ?? '';
  const xdg = process.env.XDG_CONFIG_HOME || path.join(home, '.config');
  const own = gitDir ?? path.join(dir, '.git');
  let common = own;
  try {
    common = path.resolve(own, readFileSync(path.join(own, 'commondir'), 'utf8').trim());
  } catch {
    // Not a linked worktree's admin dir: its own dir is the common one.
  }
  return [path.join(home, '.gitconfig'), path.join(xdg, 'git', 'config'), path.join(common, 'config'), path.join(own, 'config.worktree')];
}

const filterNames = new Map<string, { stamp: string; names: Promise<string[]> }>();

/**
 * `-c` settings that switch off every filter driver git could run (`filter.<name>.clean`, `.smudge`, `.process`
 * emptied, `.required` false), for a command on files the agent controls: a run's worktree, or a checkout of the
 * run's branch. A worktree's `.gitattributes` selects a driver by name (`* filter=lfs`), and the driver configured
 * for it (git-lfs, which also reads the worktree's `.lfsconfig` and its `lfs.url`) would run outside the sandbox.
 * The names are those configured (`git config --get-regexp ^filter\.`), and always `lfs`; looked up once per
 * config state (the files' stamps), since each costs a git process.
 */
export async function filtersOffConfig(dir: string, pinned: readonly string[], gitDir: string | null, env: Record<string, string>): Promise<string[]> {
  const key = `${dir}\0${gitDir ?? ''}`;
  const now = configFiles(dir, gitDir).map(stamp).join('|');
  let hit = filterNames.get(key);
  if (!hit || hit.stamp !== now) {
    const names = new Promise<string[]>((ok) => {
      const child = spawn(
        ownProgram('git'),
        [...HARDENED_GIT_CONFIG.flatMap((c) => ['-c', c]), ...pinned, 'config', '--name-only', '--get-regexp', '^filter\\.'],
        {
          cwd: dir,
          env,
          stdio: ['ignore', 'pipe', 'ignore'],
        },
      );
      const out: Buffer[] = [];
      child.stdout.on('data', (b: Buffer) => out.push(b));
      child.on('error', () => ok([]));
      child.on('close', () => {
        const found = Buffer.concat(out)
          .toString('utf8')
          .split('\n')
          .map((line) => /^filter\.(.+)\.[^.]+$/.exec(line.trim())?.[1])
          .filter((n): n is string => !!n);
        ok(found);
      });
    });
    hit = { stamp: now, names };
    filterNames.set(key, hit);
  }
  const names = [...new Set(['lfs', ...(await hit.names)])];
  return names.flatMap((n) => [`filter.${n}.clean=`, `filter.${n}.smudge=`, `filter.${n}.process=`, `filter.${n}.required=false`]);
}

/** Subcommands whose `-m` is text git stores: a commit's message, a merge commit's, a stash's, a reflog line. */
const MESSAGE_COMMANDS = new Set(['commit', 'commit-tree', 'stash', 'update-ref', 'tag', 'merge', 'notes']);

/**
 * The arguments with every message Ratchet gives git (`-m`) made plain text (plainText; a reflog line plainLine): a
 * step title, a task title or anything else that reached a message carries no escape sequence or other control
 * character into `git log`, whatever its source and however old the run that stored it. The one place every commit,
 * rescue, merge and stash message passes.
 */
export function plainMessages(args: readonly string[]): string[] {
  const out = [...args];
  let i = 0;
  while (out[i] === '-c') i += 2;
  const sub = out[i];
  if (sub === undefined || !MESSAGE_COMMANDS.has(sub)) return out;
  for (let j = i + 1; j + 1 < out.length && out[j] !== '--'; j++) {
    if (out[j] !== '-m') continue;
    out[j + 1] = sub === 'update-ref' ? plainLine(out[j + 1]!) : plainText(out[j + 1]!);
    j++;
  }
  return out;
}

/** What a git command did: its exit code (null when a signal ended it) and its output. */
export interface GitResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The one way the engine runs git: hardened config, a minimal environment, no prompt, simple-git's unsafe-operation check. */
export interface Git {
  /**
   * Runs `git <args>` and resolves with its stdout. It rejects when git cannot start or the check refuses the
   * arguments, or when git exits non-zero having written to stderr (the error's message is that text); a non-zero exit
   * with nothing on stderr resolves with stdout, which is how git's quiet lookups (`rev-parse --verify -q`,
   * `config --get`, `symbolic-ref -q`) answer a miss.
   */
  raw(args: readonly string[]): Promise<string>;
  /** Runs `git <args>` and resolves with its exit code and output, for commands whose exit code is the answer (`merge-tree`). Rejects as raw() does when git cannot start or the check refuses. */
  run(args: readonly string[]): Promise<GitResult>;
}

/** Every git command the engine ran in this process (dir and arguments), for benchmarks and tests that count them; off by default. */
export const gitLog: { record: boolean; commands: Array<{ dir: string; args: readonly string[] }> } = { record: false, commands: [] };

/**
 * Where a git command runs: a repository folder of the user's (a string), or a run's worktree pinned to the admin dir
 * found for it in the user's repository — then git is told `--git-dir` and `--work-tree` and never reads the worktree's
 * `.git` file, which the agent could have rewritten.
 */
export type GitPlace = string | PinnedWorktree;

/**
 * Spawned here rather than through simple-git's own runner: simple-git (4.0.2, the newest) waits 50 ms after every
 * command that wrote nothing to stdout or stderr, whatever its `completion` setting (completion-detection.plugin.ts:
 * `if (deferClose) await delay(50)`, outside the onClose/onExit options). A step runs four such commands (`add`,
 * `update-ref`, two `ls-files`), and the engine-overhead benchmark P9 measured 1.48 and 1.71 with every command run
 * through simple-git, 1.06–1.22 spawned here (goal ≤ 1.3); see docs/architecture.md for the figures.
 */
export function git(place: GitPlace, extraConfig: string[] = [], extraEnv: Record<string, string> = {}, opts: { filtersOff?: boolean } = {}): Git {
  // Never prompt (no TTY here) and never sign: the engine's commits must not block on the user's setup.
  // Hooks are off on purpose: the user's hooks must not run (or block) inside the engine's own operations.
  // fsmonitor is off for the same reason: a command set by the agent would run on every status.
  const dir = typeof place === 'string' ? place : place.worktree;
  const pinned = typeof place === 'string' ? [] : [`--git-dir=${place.gitDir}`, `--work-tree=${place.worktree}`];
  // A run's worktree has its own exclude file (copied files, installed dependencies, gates' leftovers): never committed.
  const checkedConfig = [...runExcludesConfig(dir), ...extraConfig].flatMap((c) => ['-c', c]);
  const config = [...HARDENED_GIT_CONFIG.flatMap((c) => ['-c', c]), ...checkedConfig];
  const env = { ...gitEnv(), ...extraEnv };
  // A run's worktree (and a checkout of its branch) holds the agent's .gitattributes: no filter runs there.
  const filtersOff = typeof place !== 'string' || opts.filtersOff === true;
  async function run(given: readonly string[]): Promise<GitResult> {
    const args = plainMessages(given);
    const unsafe = unsafeGitArguments([...checkedConfig, ...args]);
    if (unsafe) throw new Error(`Ratchet refused to run git: ${unsafe}`);
    if (gitLog.record) gitLog.commands.push({ dir, args });
    const noFilters = filtersOff ? (await filtersOffConfig(dir, pinned, typeof place === 'string' ? null : place.gitDir, env)).flatMap((c) => ['-c', c]) : [];
    return new Promise((ok, fail) => {
      const child = spawn(ownProgram('git'), [...config, ...noFilters, ...pinned, ...args], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (b: Buffer) => out.push(b));
      child.stderr.on('data', (b: Buffer) => err.push(b));
      child.on('error', (e) => fail(new Error(`git could not start in ${dir}: ${e.message}`)));
      child.on('close', (code) => ok({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
    });
  }
  return {
    run,
    async raw(args) {
      const r = await run(args);
      if (r.code !== 0 && r.stderr !== '') throw new Error(r.stderr);
      return r.stdout;
    },
  };
}
