// Runs one gate command in its own process group with a timeout, bounded output and an optional JUnit report.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { removeInside } from '../fs/confine';
import { readWorktreeFile } from '../fs/worktree-file';
import type { RunJail, WrappedCommand } from '../sandbox/os-sandbox';
import { whenAborted } from '../process/on-abort';
import { KILL_GRACE_MS, terminateGroup } from '../process/kill-group';
import { isExecutableFile, whichIn } from '../process/which';
import { GateLog } from './gate-log';
import { FAILURE_LINE_MARKERS, isFailureLine } from './parse-failures';
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
  /**
   * stdout and stderr interleaved in arrival order. When long: its head and tail, and every failure's lines with
   * context between them (the whole output is read as it streams, gate-log.ts); each run of left-out lines is a note
   * "[… lines 19–7,320 elided (112 KB) …]" naming its original line numbers.
   */
  output: string;
  outputBytes: number;
  /** Lines in the whole output (not the kept copy); absent for results made before this was counted. */
  outputLines?: number;
  /** The report file's content when the gate names one and the run produced it; bounded. */
  reportXml: string | null;
  /** Why the report the gate names was not read although something is at its path (a FIFO, a link out of the worktree…). */
  reportNote?: string;
  spawnError: string | null;
}

export interface RunGateOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** Bytes of output kept as head and tail (half each). Default 128 KB. Failures between them are kept besides (up to 1 MB). */
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

/** Reading the report is the last thing a gate waits for: past this, the gate's result comes back without it. */
const REPORT_DEADLINE_MS = 10_000;

/**
 * The gate's report, read only where it really is inside the worktree, as every worktree file is (readWorktreeFile:
 * links followed only while they stay inside, a regular file opened without blocking, up to MAX_REPORT_BYTES). An
 * agent's `ln -s /elsewhere reports`, a link to `/dev/zero` or a FIFO at the path is never read: the note says why.
 * Null without a note when there is no such file or it is older than the gate (`notBeforeMs`).
 */
async function readReport(cwd: string, report: string, notBeforeMs: number): Promise<{ xml: string | null; note?: string }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<{ xml: null; note: string }>((resolve) => {
    timer = setTimeout(() => resolve({ xml: null, note: `report ${report} ignored: not read within ${REPORT_DEADLINE_MS / 1000} s` }), REPORT_DEADLINE_MS);
  });
  const read = readWorktreeFile(cwd, report, { maxBytes: MAX_REPORT_BYTES }).then((r) => {
    if (r.ok) return { xml: r.mtimeMs < notBeforeMs ? null : r.bytes.toString('utf8') };
    return r.kind === 'absent' ? { xml: null } : { xml: null, note: `report ignored: ${r.message}` };
  });
  try {
    return await Promise.race([read, late]);
  } finally {
    clearTimeout(timer);
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
  const output = new GateLog({
    headBytes: Math.floor(maxOutput / 2),
    tailBytes: maxOutput - Math.floor(maxOutput / 2),
    isFailureLine,
    markers: FAILURE_LINE_MARKERS,
  });
  let ended = false;
  const endOutput = (): void => {
    if (!ended) output.end();
    ended = true;
  };

  const base = (): GateResult => ({
    name: spec.name,
    command: spec.run,
    passed: false,
    exitCode: null,
    signal: null,
    timedOut: false,
    durationMs: Math.round(performance.now() - started),
    output: (endOutput(), output.toString()),
    outputBytes: output.totalBytes,
    outputLines: output.totalLines,
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
      const report: Promise<{ xml: string | null; note?: string }> = spec.report
        ? readReport(opts.cwd, spec.report, reportGuardMs)
        : Promise.resolve({ xml: null });
      void report.then(({ xml, note }) => resolve({ ...base(), ...result, reportXml: xml, ...(note ? { reportNote: note } : {}) }));
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
