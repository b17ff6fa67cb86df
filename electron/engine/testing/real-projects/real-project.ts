// Test helper: what every realistic fixture project is made of, and the tools they need (checked, never assumed).
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ScriptResponse } from '../../../scripted/server';
import { sh, tempDir } from '../temp-repo';

export type Ecosystem = 'npm' | 'python' | 'rust' | 'go' | 'c';

/**
 * A project as its developer has it: a git repository with a real bug committed, its dependencies installed by its
 * own tool in the checkout (gitignored), and the test command its README gives.
 */
export interface RealProject {
  ecosystem: Ecosystem;
  repo: string;
  /** The project's own test command, as its README says to run it. */
  testCommand: string;
  /** The developer's shell that Ratchet is started from (see developerEnv; an activated venv puts its bin first on PATH). */
  shellEnv: NodeJS.ProcessEnv;
  /** The bug report: the run's one step. */
  step: { title: string; prompt: string };
  /** A test that fails on the committed code (its name as the runner prints it). */
  failingTest: string;
  /** The scripted agent: attempt 1 makes a wrong or incomplete change, attempt 2 writes the correct fix. */
  attempts: [ScriptResponse[], ScriptResponse[]];
  /** The test the wrong attempt 1 leaves failing, as the runner names it. */
  attempt1FailingTest: string;
  /** The tracked files the fix changes: all a step commit may contain. */
  fixFiles: string[];
  /** Folders the developer's tools made in the checkout that git must never carry (node_modules, .venv, target). */
  untrackedDirs: string[];
}

/** A failure to build a fixture because this machine lacks a tool or its registry: the test is skipped with this. */
export class Unavailable extends Error {}

/**
 * This process's variables as the developer's own shell has them: without those a test runner or `npm run` set for its
 * children (npm_config_*, npm_package_*, VITEST*, NODE_ENV), which would steer the fixture's tools and Ratchet, and
 * without API keys and Ratchet's own settings (each test gives Ratchet its own home and the scripted server).
 */
export function developerEnv(over: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_|VITEST|__VITEST|NODE_ENV$|TEST$|ANTHROPIC_|RATCHET_)/i.test(k)));
  return { ...env, ...over };
}

/** Runs a developer's command in `cwd`; throws with its output when it fails. */
export function run(cwd: string, command: string, args: string[], opts: SpawnSyncOptions & { timeoutMs?: number } = {}): string {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: opts.timeoutMs ?? 300_000, ...opts, env: opts.env ?? developerEnv() });
  if (r.error || r.status !== 0) {
    const out = `${String(r.stdout ?? '')}${String(r.stderr ?? '')}`.trim();
    throw new Error(`\`${command} ${args.join(' ')}\` in ${cwd} failed (${r.error?.message ?? `exit ${r.status}`}):\n${out.slice(-3000)}`);
  }
  return String(r.stdout ?? '');
}

/** Whether `command --version` (or the given arguments) runs here: the toolchain is installed. */
export function has(command: string, ...args: string[]): boolean {
  const r = spawnSync(command, args.length ? args : ['--version'], { encoding: 'utf8', timeout: 60_000 });
  return !r.error && r.status === 0;
}

/** A new repository on `main` with `files` committed as the developer's first commit. */
export function gitProject(prefix: string, files: Record<string, string>): string {
  const dir = tempDir(`ratchet-real-${prefix}-`);
  sh(dir, 'init', '-q', '-b', 'main');
  writeFiles(dir, files);
  return dir;
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

export function commitAll(repo: string, message: string): void {
  sh(repo, 'add', '-A');
  sh(repo, 'commit', '-q', '-m', message);
}

/** One agent turn that runs a shell command with the agent's bash tool. */
export function bash(command: string): ScriptResponse {
  return { content: [{ type: 'tool_use', name: 'bash', input: { command } }] };
}

export interface CheckoutState {
  head: string;
  branch: string;
  /** `git status --porcelain --ignored`: tracked changes, untracked and ignored files alike. */
  status: string;
  /** Every file of the working tree (ignored ones included: node_modules, .venv, target) and the repository's own settings. */
  files: Record<string, string>;
}

// Inside .git only what is the user's own (config, excludes, hooks): refs, objects and worktree entries are Ratchet's to add.
const GIT_OWN = ['config', 'info', 'hooks'];

function walk(root: string, rel: string, out: Record<string, string>): void {
  for (const name of readdirSync(join(root, rel)).sort()) {
    const path = rel ? `${rel}/${name}` : name;
    if (path === '.git') {
      for (const own of GIT_OWN) {
        try {
          walk(root, `.git/${own}`, out);
        } catch {
          // Not there in this repository: nothing of the user's to compare.
        }
      }
      continue;
    }
    const full = join(root, path);
    const st = lstatSync(full);
    if (st.isDirectory()) walk(root, path, out);
    else if (st.isSymbolicLink()) out[path] = `link ${readlinkSync(full)}`;
    else out[path] = `${(st.mode & 0o777).toString(8)} ${st.size} ${st.mtimeMs} ${createHash('sha1').update(readFileSync(full)).digest('hex')}`;
  }
}

/** What a run must leave as it found it in the user's checkout. */
export function checkoutState(repo: string): CheckoutState {
  const files: Record<string, string> = {};
  walk(repo, '', files);
  return {
    head: sh(repo, 'rev-parse', 'HEAD'),
    branch: sh(repo, 'symbolic-ref', '--short', 'HEAD'),
    status: sh(repo, 'status', '--porcelain', '--ignored', '--untracked-files=all'),
    files,
  };
}

/**
 * Runs the project's test command in the checkout, as its developer would before reporting the bug: it must fail,
 * naming `test` (so the fixture's bug is real), and leaves the tool's caches warm.
 */
export function confirmBug(repo: string, command: string, env: NodeJS.ProcessEnv, test: string): string {
  const r = spawnSync('bash', ['-c', command], { cwd: repo, encoding: 'utf8', timeout: 300_000, env });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (r.error) throw new Error(`\`${command}\` did not run in ${repo}: ${r.error.message}`);
  if (r.status === 0 || !out.includes(test)) {
    throw new Error(`\`${command}\` in ${repo} was to fail on ${test} (exit ${r.status}):\n${out.slice(-3000)}`);
  }
  return out;
}

/** Applies the scripted agent's edits (both attempts, in order) to the checkout and commits them: the project with its bug fixed. */
export function commitFix(p: RealProject): void {
  for (const response of p.attempts.flat()) {
    if (!('content' in response)) continue;
    for (const block of response.content) {
      if (block.type !== 'tool_use' || block.name !== 'str_replace_based_edit_tool') continue;
      const input = block.input as { command: string; path: string; old_str?: string; new_str?: string; file_text?: string };
      const file = join(p.repo, input.path);
      if (input.command === 'create') writeFileSync(file, input.file_text ?? '');
      else if (input.command === 'str_replace')
        writeFileSync(
          file,
          readFileSync(file, 'utf8').replace(input.old_str ?? '', () => input.new_str ?? ''),
        );
    }
  }
  commitAll(p.repo, `fix: ${p.step.title}`);
}
