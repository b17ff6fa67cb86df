// Runs one gate command in its own process group with a timeout, bounded output and an optional JUnit report.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { openConfined, removeInside, resolveInside } from '../agents/tools/confine';
import type { RunJail, WrappedCommand } from '../sandbox/os-sandbox';
import { whenAborted } from '../on-abort';
import { KILL_GRACE_MS, terminateGroup } from '../process/kill-group';
import { isExecutableFile, whichIn } from '../process/which';
import { BoundedOutput } from './bounded-output';
import { OutputStream, type OutputChunk, type OutputStreamOptions } from './output-stream';

export interface GateSpec {
  name: string;
  run: string;
  /** Seconds before the process group is stopped; 0 or less means no limit. */
  timeoutS: number;
  /** Path, relative to the gate's cwd, of a JUnit XML report the command writes. */
  report?: string;
}

export interface GateResult {
  name: string;
  command: string;
  passed: boolean;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  /** stdout and stderr interleaved in arrival order, head and tail kept when long. */
  output: string;
  outputBytes: number;
  /** The report file's content when the gate names one and the run produced it; bounded. */
  reportXml: string | null;
  spawnError: string | null;
}

export interface RunGateOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** Total bytes of output kept (half head, half tail). Default 128 KB. */
  maxOutputBytes?: number;
  /** Scales `timeoutS`, e.g. for slow CI machines. Default 1. */
  timeoutMultiplier?: number;
  /** The run's OS sandbox: the command runs inside it, with its environment (then `env` is not used). */
  jail?: RunJail;
  /** Live output while the gate runs: bounded chunks, throttled (see OutputStream); the last one before the result. */
  onOutput?: (chunk: OutputChunk) => void;
  outputStream?: OutputStreamOptions;
}

/** Reports above this are cut: a parser gets the start, and memory stays bounded. */
export const MAX_REPORT_BYTES = 4 * 1024 * 1024;
const DEFAULT_MAX_OUTPUT_BYTES = 128 * 1024;
// After the shell exits, background children may still hold the pipes open; wait this long before killing them.
const PIPE_DRAIN_MS = 250;
/** bash from the gate's PATH or the usual places, else sh: gates are written for bash but must still run without it. */
function resolveShell(env: NodeJS.ProcessEnv, cwd: string): string {
  const bash = whichIn('bash', env, cwd) ?? ['/bin/bash', '/usr/bin/bash'].find(isExecutableFile);
  if (bash) return bash;
  return whichIn('sh', env, cwd) ?? '/bin/sh';
}

/**
 * The gate's report, read only where it really is inside the worktree: every link on the way resolved and checked,
 * the file opened without following a link (O_NOFOLLOW) and its descriptor's real path checked again (openConfined).
 * An agent's `ln -s /elsewhere reports` makes `reports/junit.xml` a file outside, which is never read. Null when there
 * is no such file, it is older than the gate (`notBeforeMs`), or it is not the worktree's.
 */
async function readReport(cwd: string, report: string, notBeforeMs: number): Promise<string | null> {
  try {
    const real = await resolveInside(cwd, report, 'read');
    const { handle } = await openConfined(cwd, real, { create: false, readOnly: true });
    try {
      const st = await handle.stat();
      if (st.mtimeMs < notBeforeMs) return null;
      const buf = Buffer.alloc(Math.min(MAX_REPORT_BYTES, st.size));
      const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
      return buf.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
}

function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

/**
 * Runs `spec.run` with bash (or sh) in `opts.cwd`. Never throws for a failing command: a failure to start is reported
 * in `spawnError`. On timeout or abort the whole process group gets SIGTERM, then SIGKILL after KILL_GRACE_MS.
 * If `opts.signal` is already aborted the command is not started and the result has every status field null.
 */
export async function runGate(spec: GateSpec, opts: RunGateOptions): Promise<GateResult> {
  const started = performance.now();
  const maxOutput = Math.max(2, Math.floor(opts.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES));
  const output = new BoundedOutput(Math.floor(maxOutput / 2), maxOutput - Math.floor(maxOutput / 2));

  const base = (): GateResult => ({
    name: spec.name,
    command: spec.run,
    passed: false,
    exitCode: null,
    signal: null,
    timedOut: false,
    durationMs: Math.round(performance.now() - started),
    output: output.toString(),
    outputBytes: output.totalBytes,
    reportXml: null,
    spawnError: null,
  });

  if (opts.signal?.aborted) return Promise.resolve(base());

  try {
    if (!fs.statSync(opts.cwd).isDirectory()) {
      return Promise.resolve({ ...base(), spawnError: `working directory is not a directory: ${opts.cwd}` });
    }
  } catch {
    return Promise.resolve({ ...base(), spawnError: `working directory does not exist: ${opts.cwd}` });
  }

  // A stale report must not pass for this run's: remove it, only ever inside the worktree (never through a link the
  // agent made to a folder outside); the mtime guard keeps one that could not be removed from being read.
  let reportGuardMs = 0;
  if (spec.report) {
    await removeInside(opts.cwd, spec.report).catch(() => false);
    reportGuardMs = Date.now() - 1000;
  }

  const shell = resolveShell(opts.jail?.env ?? opts.env, opts.cwd);
  let launch: WrappedCommand;
  try {
    launch = opts.jail ? await opts.jail.wrap(shell, spec.run) : { file: shell, args: ['-c', spec.run], env: opts.env, done() {} };
  } catch (err) {
    return { ...base(), spawnError: `could not start the sandbox: ${errorText(err)}` };
  }
  // Stopped while the sandbox was wrapping the command: do not start it.
  if (opts.signal?.aborted) {
    launch.done();
    return base();
  }

  return new Promise<GateResult>((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn(launch.file, launch.args, {
        cwd: opts.cwd,
        env: launch.env,
        // Its own process group, so a timeout can kill everything the command started, not just the shell.
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (err) {
      launch.done();
      resolve({ ...base(), spawnError: errorText(err) });
      return;
    }

    let exitCode: number | null = null;
    let exitSignal: string | null = null;
    let exited = false;
    let timedOut = false;
    let spawnError: string | null = null;
    let done = false;
    const timers: NodeJS.Timeout[] = [];

    let terminating = false;
    const terminate = (): void => {
      if (terminating || done) return;
      terminating = true;
      terminateGroup(child.pid);
      // A grandchild that left our process group (setsid) can keep the pipes open forever; stop waiting for it.
      timers.push(setTimeout(finish, KILL_GRACE_MS + 1000));
    };

    let stopListening = (): void => undefined;
    const live = opts.onOutput ? new OutputStream(opts.onOutput, opts.outputStream) : null;

    function finish(): void {
      if (done) return;
      done = true;
      launch.done();
      for (const t of timers) clearTimeout(t);
      stopListening();
      // Background processes the command left behind (servers, watchers) do not outlive the gate.
      if (exited && !terminating) {
        terminateGroup(child.pid);
      }
      child.stdout?.destroy();
      child.stderr?.destroy();
      live?.close();

      const result = { passed: spawnError === null && !timedOut && exitCode === 0, exitCode, signal: exitSignal, timedOut, spawnError };
      void (spec.report ? readReport(opts.cwd, spec.report, reportGuardMs) : Promise.resolve(null)).then((reportXml) => resolve({ ...base(), ...result, reportXml }));
    }

    const onData = (chunk: Buffer) => {
      output.push(chunk);
      live?.push(chunk);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);

    child.on('error', (err) => {
      // 'error' without a pid means the shell never started; later errors (kill failures) are not fatal.
      if (child.pid === undefined) {
        spawnError = errorText(err);
        finish();
      }
    });

    child.on('exit', (code, sig) => {
      exited = true;
      exitCode = code;
      exitSignal = sig;
      // The result is known; whatever still holds the pipes is a leftover background process.
      if (!terminating) timers.push(setTimeout(terminate, PIPE_DRAIN_MS));
    });

    child.on('close', () => finish());

    const multiplier = opts.timeoutMultiplier ?? 1;
    const timeoutMs = spec.timeoutS * multiplier * 1000;
    if (Number.isFinite(timeoutMs) && timeoutMs > 0) {
      timers.push(
        setTimeout(
          () => {
            if (exited) return;
            timedOut = true;
            terminate();
          },
          // setTimeout treats anything above 2^31-1 ms as 1 ms.
          Math.min(timeoutMs, 2 ** 31 - 1),
        ),
      );
    }
    stopListening = whenAborted(opts.signal, terminate);
  });
}

// Programs (not shell words) that run another program given as an argument.
const WRAPPERS = new Set(['env', 'nice', 'nohup', 'timeout', 'stdbuf', 'xargs']);

const BASH_KEYWORDS = new Set([
  'if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done',
  'function', '{', '}', '[[', ']]', 'in', 'coproc', '!',
]);

const BASH_BUILTINS = new Set([
  '.', ':', '[', 'alias', 'bg', 'bind', 'break', 'builtin', 'caller', 'cd', 'command', 'compgen', 'complete',
  'compopt', 'continue', 'declare', 'dirs', 'disown', 'echo', 'enable', 'eval', 'exec', 'exit', 'export', 'false',
  'fc', 'fg', 'getopts', 'hash', 'help', 'history', 'jobs', 'kill', 'let', 'local', 'logout', 'mapfile', 'popd',
  'printf', 'pushd', 'pwd', 'read', 'readarray', 'readonly', 'return', 'set', 'shift', 'shopt', 'source', 'suspend',
  'test', 'times', 'trap', 'true', 'type', 'typeset', 'ulimit', 'umask', 'unalias', 'unset', 'wait',
]);

interface Word {
  text: string;
  /** Contains an unquoted expansion ($, backtick, glob) we cannot evaluate statically. */
  dynamic: boolean;
  /** The character right after the word, '' at the end. */
  next: string;
}

/** Reads the words of the first simple command; null when the text starts with something we do not analyse. */
function firstCommandWords(run: string): Word[] | null {
  const words: Word[] = [];
  let i = 0;
  const n = run.length;
  // Leading blank lines and comment lines are not commands.
  for (;;) {
    while (i < n && /\s/.test(run[i]!)) i++;
    if (run[i] !== '#') break;
    while (i < n && run[i] !== '\n') i++;
  }
  while (i < n) {
    while (i < n && (run[i] === ' ' || run[i] === '\t' || (run[i] === '\\' && run[i + 1] === '\n'))) {
      i += run[i] === '\\' ? 2 : 1;
    }
    if (i >= n) break;
    const c = run[i]!;
    if (';&|\n<>()'.includes(c)) {
      if (words.length === 0) return null;
      break;
    }
    if (c === '#' && words.length > 0) break;
    let text = '';
    let dynamic = false;
    while (i < n) {
      const ch = run[i]!;
      if (/[\s;&|<>()]/.test(ch)) break;
      if (ch === "'") {
        const end = run.indexOf("'", i + 1);
        if (end < 0) return null;
        text += run.slice(i + 1, end);
        i = end + 1;
      } else if (ch === '"') {
        let j = i + 1;
        while (j < n && run[j] !== '"') {
          if (run[j] === '\\' && j + 1 < n && '"\\$`\n'.includes(run[j + 1]!)) {
            if (run[j + 1] !== '\n') text += run[j + 1];
            j += 2;
            continue;
          }
          if (run[j] === '$' || run[j] === '`') dynamic = true;
          text += run[j];
          j++;
        }
        if (j >= n) return null;
        i = j + 1;
      } else if (ch === '\\') {
        if (i + 1 < n) text += run[i + 1];
        i += 2;
      } else if ((ch === '$' && (run[i + 1] === '(' || run[i + 1] === '{')) || ch === '`') {
        const end = ch === '`' ? run.indexOf('`', i + 1) : matchingClose(run, i + 1);
        if (end < 0) return null;
        text += run.slice(i, end + 1);
        dynamic = true;
        i = end + 1;
      } else {
        if (ch === '$' || ch === '*' || ch === '?' || ch === '[') dynamic = true;
        text += ch;
        i++;
      }
    }
    words.push({ text, dynamic, next: run[i] ?? '' });
  }
  return words;
}

/** Index of the bracket closing the one at `open`, skipping quoted text; -1 when unbalanced. */
function matchingClose(run: string, open: number): number {
  const pairs: Record<string, string> = { '(': ')', '{': '}' };
  const stack: string[] = [];
  for (let i = open; i < run.length; i++) {
    const ch = run[i]!;
    if (ch === '\\') {
      i++;
    } else if (ch === "'") {
      const end = run.indexOf("'", i + 1);
      if (end < 0) return -1;
      i = end;
    } else if (ch === '(' || ch === '{') {
      stack.push(pairs[ch]!);
    } else if (ch === stack[stack.length - 1]) {
      stack.pop();
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

/** Index of the wrapped command after a wrapper at `i`, or -1 when the wrapper runs nothing we can name. */
function skipWrapper(words: Word[], i: number): number {
  const name = words[i]!.text;
  let j = i + 1;
  const opt = (): boolean => j < words.length && words[j]!.text.startsWith('-') && words[j]!.text !== '-';
  switch (name) {
    case 'env':
      while (j < words.length) {
        const w = words[j]!.text;
        if (w === '--') { j++; break; }
        if (w === '-u' || w === '-C' || w === '--unset' || w === '--chdir' || w === '-S' || w === '--split-string') {
          if (w === '-S' || w === '--split-string') return -1;
          j += 2;
        } else if (w.startsWith('-')) j++;
        else if (ASSIGNMENT.test(w)) {
          if (w.startsWith('PATH=')) return -1;
          j++;
        } else break;
      }
      return j;
    case 'exec':
      while (opt()) j += words[j]!.text === '-a' ? 2 : 1;
      return j;
    case 'time':
      while (opt()) j++;
      return j;
    case 'nice':
      while (opt()) j += words[j]!.text === '-n' ? 2 : 1;
      return j;
    case 'command':
      while (opt()) {
        // `command -v foo` only asks whether foo exists; it runs nothing.
        if (words[j]!.text === '-v' || words[j]!.text === '-V') return -1;
        j++;
      }
      return j;
    case 'timeout':
      while (opt()) j += ['-s', '-k', '--signal', '--kill-after'].includes(words[j]!.text) ? 2 : 1;
      return j + 1; // the duration
    case 'stdbuf':
      while (opt()) j += ['-i', '-o', '-e'].includes(words[j]!.text) ? 2 : 1;
      return j;
    case 'xargs':
      // Its options take arguments in too many ways to skip reliably.
      return -1;
    default:
      return j;
  }
}

/**
 * The first program `run` would start when it is not a builtin, keyword or function and cannot be found on the
 * env's PATH (or, for a name with a slash, relative to cwd); null when it exists or the command is too dynamic to tell.
 */
export function findMissingCommand(run: string, cwd: string, env: NodeJS.ProcessEnv): string | null {
  const words = firstCommandWords(run);
  if (!words) return null;
  let i = 0;
  while (i < words.length) {
    const w = words[i]!;
    if (ASSIGNMENT.test(w.text)) {
      // The shell looks the command up with a PATH set this way, which we would have to evaluate.
      if (w.text.startsWith('PATH=') || w.text.startsWith('PATH+=')) return null;
      i++;
      continue;
    }
    if (w.dynamic) return null;
    // `name()` defines a function; `name=(...)` is an array assignment. Either way nothing runs yet.
    if (w.next === '(') return null;
    if (w.text === '!' || w.text === 'time' || w.text === 'builtin') {
      i = w.text === 'builtin' ? i + 1 : skipWrapper(words, i);
      continue;
    }
    if (BASH_KEYWORDS.has(w.text)) return null;
    if (w.text === 'exec' || w.text === 'command') {
      i = skipWrapper(words, i);
      if (i < 0) return null;
      continue;
    }
    if (BASH_BUILTINS.has(w.text)) return null;
    const resolved = resolveProgram(w.text, cwd, env);
    if (!resolved) return w.text;
    if (WRAPPERS.has(path.basename(w.text))) {
      i = skipWrapper(words, i);
      if (i < 0) return null;
      continue;
    }
    return null;
  }
  return null;
}

function resolveProgram(name: string, cwd: string, env: NodeJS.ProcessEnv): string | null {
  let target = name;
  if (target === '~' || target.startsWith('~/')) {
    if (!env.HOME) return target;
    target = path.join(env.HOME, target.slice(1));
  }
  if (target.includes('/')) {
    const full = path.resolve(cwd, target);
    // A file that exists but is not executable is a permission problem, reported by the run itself.
    return fs.existsSync(full) ? full : null;
  }
  return whichIn(target, env, cwd);
}
