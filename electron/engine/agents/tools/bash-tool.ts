// Executes Anthropic's bash tool (bash_20250124) for an agent: one `bash -c` per command in its own process group, the working directory kept across calls and confined to the worktree.
import { spawn } from 'node:child_process';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { BoundedOutput } from '../../gates/bounded-output';
import { whenAborted } from '../../process/on-abort';
import type { RunJail, WrappedCommand } from '../../sandbox/os-sandbox';
import { isWithin } from '../../fs/within';
import { terminateGroup } from '../../process/kill-group';
import { describeInvalidInput, type ToolOutcome } from './tool-replies';

export const BASH_TOOL_NAME = 'bash';
export const DEFAULT_BASH_TIMEOUT_S = 120;
export const DEFAULT_BASH_MAX_OUTPUT_BYTES = 100_000;
// After bash exits, how long to wait for its pipes to drain; background jobs may hold them open forever.
const DRAIN_GRACE_MS = 200;

export interface BashSessionOptions {
  /** The worktree root: commands start here and may not leave it between calls. */
  cwd: string;
  /** Environment for every command: an allowlist built by the caller (see allowlistEnv); the jail's when there is one. */
  env: NodeJS.ProcessEnv;
  /** The run's OS sandbox; every command runs inside it. */
  jail?: RunJail;
  timeoutS?: number;
  maxOutputBytes?: number;
}

export interface BashSession {
  run(input: unknown, signal?: AbortSignal): Promise<ToolOutcome>;
  /** Stops whatever is still running (including background jobs) and refuses further commands. */
  close(): void;
}

const BashInput = z.object({
  command: z.string().optional(),
  restart: z.boolean().optional(),
});

type KillReason = 'timeout' | 'abort' | 'close';

interface RawResult {
  output: string;
  exitCode: number | null;
  exitSignal: NodeJS.Signals | null;
  killedFor?: KillReason;
  spawnError?: Error;
  pwd: string;
  backgroundStillRunning: boolean;
}

export function createBashSession(opts: BashSessionOptions): BashSession {
  const root = path.resolve(opts.cwd);
  const timeoutS = opts.timeoutS ?? DEFAULT_BASH_TIMEOUT_S;
  const maxOutputBytes = opts.maxOutputBytes ?? DEFAULT_BASH_MAX_OUTPUT_BYTES;
  let cwd = root;
  let closed = false;
  // One command at a time: a later command must see the directory the earlier one left.
  let queue: Promise<unknown> = Promise.resolve();
  let killCurrent: ((reason: KillReason) => void) | undefined;
  // Groups whose pipes were still held open (background jobs) when their command returned.
  const lingering = new Set<number>();

  function stopLingering(): void {
    for (const pgid of lingering) {
      terminateGroup(pgid);
    }
    lingering.clear();
  }

  async function spawnCommand(command: string, signal: AbortSignal | undefined): Promise<RawResult> {
    // fd 3 carries the final $PWD back out of band, so the command's own output can neither hide nor fake it;
    // the command itself runs with fd 3 closed so its background jobs do not inherit it.
    const script = `exec 2>&1\n{\n${command}\n} 3>&-\n__ratchet_status=$?\nprintf '%s' "$PWD" >&3\nexit $__ratchet_status\n`;
    const env = { ...(opts.jail?.env ?? opts.env), PWD: cwd };
    let launch: WrappedCommand;
    try {
      launch = opts.jail ? await opts.jail.wrap('bash', script, { env }) : { file: 'bash', args: ['-c', script], env, done() {} };
    } catch (err) {
      return {
        output: '',
        exitCode: null,
        exitSignal: null,
        spawnError: err instanceof Error ? err : new Error(String(err)),
        pwd: '',
        backgroundStillRunning: false,
      };
    }
    // Stopped while the sandbox was wrapping the command: it never starts.
    if (signal?.aborted) {
      launch.done();
      return { output: '', exitCode: null, exitSignal: null, killedFor: 'abort', pwd: '', backgroundStillRunning: false };
    }
    return new Promise<RawResult>((resolve) => {
      const output = new BoundedOutput(Math.floor(maxOutputBytes / 2), maxOutputBytes - Math.floor(maxOutputBytes / 2));
      let pwd = '';
      let exitCode: number | null = null;
      let exitSignal: NodeJS.Signals | null = null;
      let killedFor: KillReason | undefined;
      let settled = false;
      let drainTimer: NodeJS.Timeout | undefined;

      const child = spawn(launch.file, launch.args, {
        cwd,
        env: launch.env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      });
      const pgid = child.pid;
      const streams = [child.stdout, child.stderr, child.stdio[3]].filter((s): s is Readable => s !== null && s !== undefined);
      const open = new Set<Readable>(streams);
      child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
      child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
      (child.stdio[3] as Readable | null | undefined)?.on('data', (chunk: Buffer) => {
        pwd += chunk.toString('utf8');
      });

      const kill = (reason: KillReason): void => {
        if (killedFor || settled || pgid === undefined) return;
        killedFor = reason;
        // SIGKILL follows even when bash exits first: a grandchild that ignores SIGTERM still has to go.
        terminateGroup(pgid);
      };
      const timer = setTimeout(() => kill('timeout'), timeoutS * 1000);
      const stopListening = whenAborted(signal, () => kill('abort'));
      killCurrent = kill;

      const finish = (spawnError?: Error): void => {
        if (settled) return;
        settled = true;
        launch.done();
        clearTimeout(timer);
        if (drainTimer) clearTimeout(drainTimer);
        stopListening();
        killCurrent = undefined;
        const backgroundStillRunning = open.size > 0 && !spawnError && !killedFor;
        for (const stream of open) {
          // Keep draining into nothing so background jobs writing to the pipe are not killed by SIGPIPE.
          stream.removeAllListeners('data');
          stream.resume();
          (stream as Readable & { unref?: () => void }).unref?.();
        }
        if (backgroundStillRunning && pgid !== undefined) lingering.add(pgid);
        resolve({ output: output.toString(), exitCode, exitSignal, killedFor, spawnError, pwd, backgroundStillRunning });
      };

      for (const stream of streams) {
        stream.once('close', () => {
          open.delete(stream);
          if (open.size === 0 && pgid !== undefined) lingering.delete(pgid);
          if (open.size === 0 && drainTimer) finish();
        });
      }
      child.once('error', (err) => finish(err));
      child.once('exit', (code, sig) => {
        exitCode = code;
        exitSignal = sig;
        if (open.size === 0) finish();
        else drainTimer = setTimeout(() => finish(), DRAIN_GRACE_MS);
      });
    });
  }

  async function adoptCwd(reported: string, notes: string[]): Promise<void> {
    if (reported === '') return;
    try {
      const [realRoot, realReported] = await Promise.all([realpath(root), realpath(reported)]);
      if (isWithin(realRoot, realReported)) {
        cwd = reported;
        return;
      }
    } catch {
      // The directory vanished or cannot be resolved: treat it like leaving the worktree.
    }
    cwd = root;
    notes.push(`Note: the working directory ${reported} is outside the worktree; it was reset to the worktree root ${root}.`);
  }

  async function runOne(input: unknown, signal: AbortSignal | undefined): Promise<ToolOutcome> {
    if (closed) return { content: 'The bash session is closed; no command was run.', isError: true };
    const parsed = BashInput.safeParse(input);
    if (!parsed.success) return { content: describeInvalidInput(BASH_TOOL_NAME, input, parsed.error), isError: true };
    if (parsed.data.restart === true) {
      stopLingering();
      cwd = root;
      return { content: `The bash tool has been restarted; the working directory is the worktree root ${root}.`, isError: false };
    }
    const command = parsed.data.command;
    if (command === undefined || command.trim() === '') {
      const problem = command === undefined ? 'is missing (expected a string)' : 'is empty';
      return {
        content: `Invalid input for ${BASH_TOOL_NAME}: \`command\` ${problem}; send {"restart": true} to restart the shell instead.`,
        isError: true,
      };
    }
    if (signal?.aborted) return { content: 'The command was not run: the run was aborted.', isError: true };

    const notes: string[] = [];
    const cwdStillThere = await stat(cwd).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (!cwdStillThere) {
      notes.push(`Note: the working directory ${cwd} no longer exists; the command ran in the worktree root ${root}.`);
      cwd = root;
    }

    const raw = await spawnCommand(command, signal);
    if (raw.spawnError) {
      return { content: `Could not start bash: ${raw.spawnError.message}`, isError: true };
    }
    if (!raw.killedFor) await adoptCwd(raw.pwd, notes);

    const parts: string[] = [];
    const text = raw.output.replace(/\n+$/, '');
    if (text !== '') parts.push(text);
    if (raw.killedFor === 'timeout') {
      parts.push(
        `<the command timed out after ${timeoutS} s and its process group was killed; run long tasks in the background with output redirected to a file>`,
      );
    } else if (raw.killedFor === 'abort') {
      parts.push('<the command was aborted and its process group was killed>');
    } else if (raw.killedFor === 'close') {
      parts.push('<the bash session was closed and the command was killed>');
    } else if (raw.exitSignal) {
      parts.push(`terminated by signal ${raw.exitSignal}`);
    } else if (raw.exitCode !== null && raw.exitCode !== 0) {
      parts.push(`exit code ${raw.exitCode}`);
    }
    if (raw.backgroundStillRunning) {
      notes.push(
        'Note: background processes from this command are still running; their further output is discarded (redirect it to a file), and they are stopped when the bash tool restarts.',
      );
    }
    parts.push(...notes);
    return { content: parts.length > 0 ? parts.join('\n') : '(no output)', isError: raw.killedFor !== undefined };
  }

  return {
    run(input, signal) {
      const result = queue
        .then(() => runOne(input, signal))
        .catch((err: unknown): ToolOutcome => ({
          content: `The bash tool failed: ${err instanceof Error ? err.message : String(err)}`,
          isError: true,
        }));
      queue = result;
      return result;
    },
    close() {
      closed = true;
      killCurrent?.('close');
      stopLingering();
    },
  };
}
