// The OS sandbox (bubblewrap on Linux, sandbox-exec on macOS) through @anthropic-ai/sandbox-runtime: one per engine, per-run policy per command.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { SandboxManager, type SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime';
// Deep import: the library's own quoting, so a path is matched in its bwrap command exactly as it wrote it.
import { quote } from '@anthropic-ai/sandbox-runtime/dist/utils/shell-quote.js';
import { shellQuote } from '../process/shell-quote';
import { ownProgram } from '../process/which';
import type { SandboxLimits } from '../workflow/schema';
import { cacheEnv, ensureCacheDirs, pnpmStoreDir, repoCacheDir } from './cache-env';
import { makeGitConfigView, readOnlyBindArgs } from './git-config-view';
import { effectiveLimits, limitsScript, shmArgs } from './limits';
import { noProxyExport } from './loopback';
import { makePrivateDir, removePrivateDir } from './private-dirs';
import { resolveNetwork } from './registries';
import { joinCgroup, makeRunCgroup } from './run-cgroup';
import { withoutRelays } from './relays';
import { makeTemplate, standIn, TemplateSlot } from './wrap-template';
import { runEnv } from './sandbox-env';
import { runPolicy } from './sandbox-policy';
import { gitCommonDirOf, homeReads, toolchainEnv } from './toolchains';
import { writeUserConfig } from './user-config';
import { ratchetPackageRoot, userPath } from './user-path';
import { vendoredPaths } from './vendor-paths';
import { absentDenies, sweepDenied } from '../fs/worktree-denies';

/** How the engine was asked to sandbox: `auto` sandboxes where the platform can and refuses to run where it cannot. */
export type SandboxMode = 'auto' | 'off';

export interface SandboxStatus {
  /** `on`: commands run sandboxed. `off`: the user opted out. `unavailable`: no sandbox here; runs are refused. */
  state: 'on' | 'off' | 'unavailable';
  /** Why the sandbox is not available, and what to install or which flag to use. */
  message: string | null;
}

export interface RunJailInput {
  worktree: string;
  /** The user's repository the worktree belongs to: its git dir stays readable when the home is denied, and its caches are its own (see repoCacheDir). */
  repo?: string;
  /** Hosts commands may reach (ratchet.yml `sandbox.network`, `registry:<ecosystem>` allowed); empty: none. */
  network: readonly string[];
  /** Variable names the workflow lets through (`sandbox.env`). */
  envNames: readonly string[];
  /** The run's limits (`sandbox.limits`: memory and processes for the run where a cgroup allows, see run-cgroup.ts); unset ones take the defaults. */
  limits?: SandboxLimits;
}

export interface WrapOptions {
  /** Widens the network for this command only (hosts or `registry:<ecosystem>`). */
  extraHosts?: readonly string[];
  env?: NodeJS.ProcessEnv;
  /**
   * Hosts (`host` or `host:port`) this command reaches through the sandbox's proxy although they are on loopback or a
   * private network, which the proxy variables otherwise send direct (to nothing: the sandbox has its own loopback).
   */
  viaProxy?: readonly string[];
}

export interface WrappedCommand {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Call once the process has exited: removes the host-side mount points and the command's network list. */
  done(): void;
}

/** One run's confinement: what every gate, validator and shell command of the run goes through. */
export interface RunJail {
  /** The environment commands get (the allowlist with the sandbox's HOME and TMPDIR). */
  env: NodeJS.ProcessEnv;
  /** Turns `shell -c command` into the process to spawn; `extraHosts` widens the network for this command only. */
  wrap(shell: string, command: string, opts?: WrapOptions): Promise<WrappedCommand>;
  sandboxed: boolean;
}

/** The jail as its owner (the engine) holds it: the one that ends the run releases it. */
export interface OwnedRunJail extends RunJail {
  /** The run is over: removes its private folder (HOME and TMPDIR inside). */
  release(): void;
}

// The library keeps one session per process; every engine initialises it with this same, closed, base config
// (a second identical initialize is a no-op), and each command brings its run's own paths and hosts.
let baseConfig: SandboxRuntimeConfig | null = null;
// The socat the library's relays run inside the sandbox: the plain one (see insideSocat).
let relaySocat: { wrapper: string; plain: string } | null = null;
function sessionConfig(): SandboxRuntimeConfig {
  if (!baseConfig) {
    const socat = process.platform === 'linux' ? socatWithParentDeath() : {};
    if (socat.socatPath && socat.plainSocat) relaySocat = { wrapper: socat.socatPath, plain: socat.plainSocat };
    baseConfig = {
      network: { allowedDomains: [], deniedDomains: [] },
      filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
      ...(socat.socatPath ? { socatPath: socat.socatPath } : {}),
      ...ownSandboxPrograms(),
      // The library lists dangerous names below process.cwd() (Ratchet's launch folder: the user's checkout, their
      // home, `/` for the app) with ripgrep before every command, 3 levels down by default: 0.1 s from a repository,
      // seconds from a big folder, on every gate. What it finds there is read-only in Ratchet's sandbox anyway (a run
      // writes only its worktree, its private folder and the caches), and the worktree's own names are denied by
      // worktreeMandatoryDenies. So the scan goes as shallow as the library allows.
      mandatoryDenySearchDepth: 1,
      ...vendoredPaths(),
    };
  }
  return baseConfig;
}

/**
 * The library's programs by absolute path (found once, see ownProgram): otherwise it starts `bwrap` by name from a
 * shell whose working folder is the run's worktree, and `rg` by name, where a relative PATH entry would pick the
 * agent's `node_modules/.bin/bwrap`.
 */
function ownSandboxPrograms(): Pick<SandboxRuntimeConfig, 'bwrapPath' | 'ripgrep'> {
  const out: Pick<SandboxRuntimeConfig, 'bwrapPath' | 'ripgrep'> = {};
  const rg = ownProgram('rg');
  if (path.isAbsolute(rg)) out.ripgrep = { command: rg };
  const bwrap = process.platform === 'linux' ? ownProgram('bwrap') : '';
  if (path.isAbsolute(bwrap)) out.bwrapPath = bwrap;
  return out;
}

/**
 * The library runs the same socatPath on the host (the bridges, which must die with Ratchet: setpriv's wrapper) and
 * inside each sandboxed command (its relays, which die with the sandbox's pid namespace anyway). Inside, the wrapper
 * only adds a shell and setpriv to every command's start, while the command waits for the relays to listen: the
 * relays run the plain socat. Unchanged when there is no wrapper.
 */
export function insideSocat(wrapped: string, socat: { wrapper: string; plain: string } | null = relaySocat): string {
  // Only bare paths: a quoted one would need quoting again at each level of the library's nesting.
  if (!socat || ![socat.wrapper, socat.plain].every((p) => /^[\w./-]+$/.test(p))) return wrapped;
  return wrapped.split(quote([socat.wrapper])).join(quote([socat.plain]));
}

/**
 * On Linux the library bridges its proxies to the sandbox with host-side `socat UNIX-LISTEN…` processes that only
 * `SandboxManager.reset()` (or its 'exit' hook) stops: a process killed with SIGKILL left them running forever.
 * Started through `setpriv --pdeathsig TERM`, each socat gets SIGTERM from the kernel when its parent dies, however
 * it dies. Without util-linux's setpriv, plain socat (the library's default).
 */
export function socatWithParentDeath(): { socatPath?: string; plainSocat?: string } {
  const setpriv = ownProgram('setpriv');
  const socat = ownProgram('socat');
  if (!path.isAbsolute(socat)) return {};
  // Without setpriv, the plain socat, still by its absolute path.
  if (!path.isAbsolute(setpriv)) return { socatPath: socat };
  const dir = mkdtempSync(path.join(tmpdir(), 'ratchet-socat-'));
  const file = path.join(dir, 'socat');
  writeFileSync(file, `#!/bin/sh\nexec ${quote([setpriv])} --pdeathsig TERM -- ${quote([socat])} "$@"\n`);
  chmodSync(dir, 0o755);
  chmodSync(file, 0o755);
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return { socatPath: file, plainSocat: socat };
}

// How many of this process's sandboxes use the library's session: the last one to let go resets it, so one
// engine's releaseSandbox() does not pull the proxy from under another engine's running commands.
let sessionUsers = 0;
let sessionQueue: Promise<unknown> = Promise.resolve();
function serially<T>(fn: () => Promise<T>): Promise<T> {
  const next = sessionQueue.then(fn, fn);
  sessionQueue = next.catch(() => undefined);
  return next;
}

/** How many sandboxes of this process hold the library's session (for tests). */
export function sandboxSessionUsers(): number {
  return sessionUsers;
}

/**
 * bubblewrap hides a read-denied directory under a writable tmpfs, so a write into RATCHET_HOME (its database, its
 * settings) would "succeed" into a throwaway layer. Remounting that tmpfs read-only as the last mount makes the write
 * fail with EROFS instead, while the worktree bound inside it stays writable (a remount touches only that mount).
 * Unchanged when the command is not bubblewrap's or the directory is not a tmpfs there.
 */
export function remountReadOnly(wrapped: string, dir: string): string {
  let real = dir;
  try {
    real = realpathSync(dir);
  } catch {
    // Not there (yet): nothing is mounted over it either.
  }
  const q = quote([real]);
  const sep = wrapped.indexOf(' -- ');
  const first = wrapped.slice(0, wrapped.indexOf(' '));
  if ((first !== 'bwrap' && !first.endsWith('/bwrap')) || sep < 0 || !wrapped.slice(0, sep).includes(` --tmpfs ${q} `)) return wrapped;
  return `${wrapped.slice(0, sep)} --remount-ro ${q}${wrapped.slice(sep)}`;
}

const sizeSupport = new Map<string, boolean>();
/** Whether this bubblewrap takes `--size` (0.5 and later): asked of it once per binary. */
function bwrapHasSize(bin: string): boolean {
  let has = sizeSupport.get(bin);
  if (has === undefined) {
    const r = spawnSync(bin, ['--help'], { encoding: 'utf8', timeout: 5000 });
    has = `${r.stdout ?? ''}${r.stderr ?? ''}`.includes('--size');
    sizeSupport.set(bin, has);
  }
  return has;
}

/** bubblewrap's command with `args` (already quoted) added as its last options; unchanged when it is not bubblewrap's. */
export function withBwrapArgs(wrapped: string, args: string): string {
  const sep = wrapped.indexOf(' -- ');
  if (!args || sep < 0 || !/^(\S*\/)?bwrap /.test(wrapped)) return wrapped;
  return `${wrapped.slice(0, sep)} ${args}${wrapped.slice(sep)}`;
}

/** What to tell a user on a platform without a sandbox: what to install, or how to opt out. */
export function unavailableMessage(platform: NodeJS.Platform, problems: readonly string[]): string {
  const install =
    platform === 'linux'
      ? 'Install bubblewrap, socat and ripgrep (Debian/Ubuntu: `sudo apt-get install bubblewrap socat ripgrep`)'
      : platform === 'darwin'
        ? 'Install ripgrep (`brew install ripgrep`); sandbox-exec ships with macOS'
        : `Ratchet has no OS sandbox on ${platform}`;
  const why = problems.length ? ` (${problems.join('; ')})` : '';
  return `No OS sandbox is available here${why}. ${install}, or run unsandboxed at your own risk: pass --no-sandbox, or set "Sandbox" off in Settings (settings.json: "sandbox": false).`;
}

export function sandboxStatus(mode: SandboxMode, platform: NodeJS.Platform = process.platform): SandboxStatus {
  if (mode === 'off') return { state: 'off', message: null };
  if (!SandboxManager.isSupportedPlatform() || (platform !== 'linux' && platform !== 'darwin')) {
    return { state: 'unavailable', message: unavailableMessage(platform, []) };
  }
  const deps = SandboxManager.checkDependencies();
  if (deps.errors.length) return { state: 'unavailable', message: unavailableMessage(platform, deps.errors) };
  return { state: 'on', message: null };
}

export interface OsSandbox {
  status: SandboxStatus;
  /** The confinement for one run. Throws `sandbox_unavailable` semantics are the engine's: call only when state is not `unavailable`. */
  forRun(input: RunJailInput): Promise<OwnedRunJail>;
  /** Lets go of the library's session; the last sandbox of the process to let go stops its proxies, so a CLI process can exit. */
  dispose(): Promise<void>;
}

export function createOsSandbox(opts: {
  mode: SandboxMode;
  ratchetHome: string;
  env: NodeJS.ProcessEnv;
  /** The user's home (denied but for what builds need); default: the environment's HOME. */
  userHome?: string;
}): OsSandbox {
  const status = sandboxStatus(opts.mode);
  let started = false;
  return {
    status,
    dispose() {
      return serially(async () => {
        if (!started) return;
        started = false;
        sessionUsers--;
        if (sessionUsers === 0 && SandboxManager.isSandboxingEnabled()) await SandboxManager.reset();
      });
    },
    async forRun(input) {
      const userHome = opts.userHome ?? (opts.env.HOME || homedir());
      const priv = makePrivateDir(input.worktree);
      const limitsOf = effectiveLimits(input.limits);
      // The run's memory and processes bounded together where the machine gives a cgroup (see run-cgroup.ts).
      const cgroup =
        status.state === 'on' && process.platform === 'linux'
          ? makeRunCgroup({ memoryBytes: limitsOf.memory_mb * 1024 * 1024, pids: limitsOf.processes })
          : null;
      const released = { done: false };
      // The run's sandboxed commands share one wrap of the library's (see wrap-template.ts).
      // What the run's commands may make where the sandbox protects is removed when the last of them ends (see absentDenies).
      let absentBefore: string[] = [];
      const slot = new TemplateSlot(() => SandboxManager.cleanupAfterCommand(), {
        busy: () => (absentBefore = absentDenies(input.worktree)),
        idle: () => void sweepDenied(absentBefore),
      });
      const release = () => {
        if (released.done) return;
        released.done = true;
        slot.close();
        cgroup?.release();
        removePrivateDir(priv.dir);
      };
      try {
        // A run without its repository named (a test's) keeps caches of its worktree's own.
        const cacheDir = ensureCacheDirs(repoCacheDir(opts.ratchetHome, input.repo ?? input.worktree));
        const caches = cacheEnv(cacheDir, priv.home);
        const tools = toolchainEnv(opts.env, userHome);
        const PATH = userPath(opts.env.PATH, { ratchetRoot: ratchetPackageRoot(), execPath: process.execPath, env: opts.env });
        const env = runEnv(opts.env, { home: priv.home, tmpDir: priv.tmp, names: input.envNames, path: PATH, toolchain: tools, caches });
        writeUserConfig({ userHome, home: priv.home, cargoHome: caches.CARGO_HOME, pnpmStore: pnpmStoreDir(cacheDir), env: opts.env });
        if (status.state !== 'on') {
          return {
            env,
            sandboxed: false,
            release,
            async wrap(shell, command, o) {
              return { file: shell, args: ['-c', command], env: o?.env ?? env, done() {} };
            },
          };
        }
        const network = await resolveNetwork(input.network, opts.env);
        // Git inside sees the repository's config without its credentials (tokens in URLs, extra headers…).
        const gitView = input.repo ? await makeGitConfigView({ repo: input.repo, worktree: input.worktree, dir: path.join(priv.dir, 'git-config') }) : null;
        // The first run of this sandbox joins the process's session, starting it when no other sandbox holds it.
        await serially(async () => {
          if (!SandboxManager.isSandboxingEnabled()) await SandboxManager.initialize(sessionConfig());
          if (!started) {
            started = true;
            sessionUsers++;
          }
        });
        const gitDir = input.repo ? gitCommonDirOf(input.repo) : null;
        const policy = runPolicy({
          worktree: input.worktree,
          privateDir: priv.dir,
          privateRoot: path.dirname(priv.dir),
          ratchetHome: opts.ratchetHome,
          userHome,
          network,
          cacheDir,
          homeReads: homeReads({ userHome, path: PATH ?? '', toolchainEnv: tools, gitCommonDir: gitDir }),
          gitDir,
          // Ratchet writes cargo's configuration; a command that rewrote it would steer every later run's cargo.
          // The sanitised git config too: a command that made it a link would have bubblewrap bind what it points at.
          denyWrite: [path.join(caches.CARGO_HOME ?? '', 'config.toml'), ...(gitView ? [gitView.dir] : [])],
        });
        const limits = limitsScript(limitsOf, [input.worktree, priv.dir], cgroup?.oomFile);
        const policyPaths = [...Object.values(policy.filesystem).flat(), ...(gitView?.watched ?? [])];
        /** The library's bubblewrap command for `command`, with Ratchet's changes to it. */
        const libraryWrap = async (shell: string, script: string, command: { id: string; text: string }, plain: boolean): Promise<string> => {
          // No placeholder in the worktree: on Linux a protected path absent now is left out (see absentDenies); macOS's
          // profile denies making it without one.
          const absent = new Set(process.platform === 'linux' ? absentDenies(input.worktree) : []);
          const filesystem = { ...policy.filesystem, denyWrite: policy.filesystem.denyWrite.filter((p) => !absent.has(p)) };
          let wrapped = await SandboxManager.wrapWithSandbox(script, shell, { filesystem }, undefined, {
            commandId: command.id,
            commandText: command.text,
          });
          // No host to reach (and none through the proxy): no relays to start (see withoutRelays).
          if (plain) wrapped = withoutRelays(wrapped);
          for (const denied of [opts.ratchetHome, userHome, path.dirname(priv.dir)]) wrapped = remountReadOnly(wrapped, denied);
          wrapped = withBwrapArgs(wrapped, shmArgs(limitsOf, bwrapHasSize(wrapped.slice(0, wrapped.indexOf(' ')))));
          // The sanitised git config last, so its binds lie over every other mount of those paths.
          return insideSocat(withBwrapArgs(wrapped, readOnlyBindArgs(gitView?.binds() ?? [])));
        };
        /** A command that may reach no host runs on the run's template, made on first use and again when it no longer holds. */
        const templated = async (shell: string, script: string) => {
          if (!slot.current(shell)) {
            const stand = standIn(randomBytes(12).toString('hex'));
            const wrapped = await libraryWrap(shell, stand, { id: randomBytes(16).toString('base64url'), text: 'sandboxed command' }, true);
            const template = makeTemplate(wrapped, stand, policyPaths);
            if (!template) {
              // Not a shape this can fill: every command is wrapped by the library (its wrap is let go at once).
              SandboxManager.cleanupAfterCommand();
              return null;
            }
            slot.hold(shell, template);
          }
          return slot.use(shell, script);
        };
        return {
          env,
          sandboxed: true,
          release,
          async wrap(shell, command, o) {
            await gitView?.refresh();
            const hosts = [...policy.allowedDomains, ...(await resolveNetwork(o?.extraHosts ?? [], opts.env))];
            // An unguessable id binds this command's connections to its own host list (see registerCommandNetworkLists).
            const commandId = randomBytes(16).toString('base64url');
            if (hosts.length) SandboxManager.registerCommandNetworkLists(commandId, { allowedDomains: hosts });
            // The library sets its own TMPDIR inside the sandbox; ours is the run's private folder. Then the limits.
            const inner = [`export TMPDIR=${shellQuote(priv.tmp)}`, noProxyExport(o?.viaProxy ?? []), limits, command].filter(Boolean).join('\n');
            const plain = !hosts.length && !o?.viaProxy?.length;
            if (plain) {
              const launch = await templated(shell, inner);
              if (launch) return { ...launch, ...(cgroup ? joinCgroup(cgroup, launch) : {}), env: o?.env ?? env };
            }
            try {
              const wrapped = await libraryWrap(shell, inner, { id: commandId, text: command }, plain);
              // Counted with the run's templated commands: their placeholders stay while this one runs.
              const ended = slot.begin();
              // exec: bubblewrap replaces the shell, so its --die-with-parent binds it to the process that spawned it.
              const launch = { file: '/bin/sh', args: ['-c', `exec ${wrapped}`] };
              return {
                ...(cgroup ? joinCgroup(cgroup, launch) : launch),
                env: o?.env ?? env,
                done() {
                  if (!ended()) return;
                  SandboxManager.unregisterCommandNetworkLists(commandId);
                  SandboxManager.cleanupAfterCommand();
                },
              };
            } catch (err) {
              SandboxManager.unregisterCommandNetworkLists(commandId);
              throw err;
            }
          },
        };
      } catch (err) {
        release();
        throw err;
      }
    },
  };
}
