// Runs the workflow's setup commands in the run's sandbox, one after another, with setup's own timeout and network, streaming their output like a gate's.
import { runGate, type GateResult } from '../gates/run-gate';
import type { OutputChunk } from '../gates/output-stream';
import type { RunJail } from '../sandbox/os-sandbox';
import type { SetupConfig } from '../workflow/schema';

export interface SetupRunOptions {
  worktree: string;
  setup: SetupConfig;
  /** The run's sandbox; setup runs in it as gates do (unsandboxed only when the user opted out). */
  jail?: RunJail;
  /** The environment when there is no jail (the jail brings its own). */
  env: NodeJS.ProcessEnv;
  /** Hosts reachable during setup only, on top of the run's `sandbox.network` (setup.network, resolved). */
  hosts: readonly string[];
  signal?: AbortSignal;
  /** Live output of every command, each preceded by a `$ command` line. */
  onOutput?: (chunk: OutputChunk) => void;
}

export interface SetupRunResult {
  ok: boolean;
  /** Stopped by the signal (the user's Stop), not failed. */
  stopped: boolean;
  timedOut: boolean;
  durationMs: number;
  /** The command that failed, and how. */
  failed: Pick<GateResult, 'command' | 'exitCode' | 'signal' | 'spawnError'> | null;
  /** Every command's output, each after its `$ command` line (each bounded as a gate's is). */
  output: string;
}

/** The commands of a setup, in order. */
export function setupCommands(setup: SetupConfig): string[] {
  return typeof setup.run === 'string' ? [setup.run] : [...setup.run];
}

/** A jail whose commands may also reach `hosts` (setup's network, not the gates'). */
function withHosts(jail: RunJail, hosts: readonly string[]): RunJail {
  if (!hosts.length) return jail;
  return { ...jail, wrap: (shell, command, o) => jail.wrap(shell, command, { ...o, extraHosts: [...(o?.extraHosts ?? []), ...hosts] }) };
}

export async function runSetup(opts: SetupRunOptions): Promise<SetupRunResult> {
  const started = performance.now();
  const deadline = started + opts.setup.timeout * 1000;
  const jail = opts.jail ? withHosts(opts.jail, opts.hosts) : undefined;
  const outputs: string[] = [];
  let seq = 0;
  const emit = (text: string, skippedBytes = 0) => opts.onOutput?.({ text, skippedBytes, seq: ++seq });
  const result = (r: Partial<SetupRunResult>): SetupRunResult => ({
    ok: false,
    stopped: false,
    timedOut: false,
    failed: null,
    ...r,
    durationMs: Math.round(performance.now() - started),
    output: outputs.join(''),
  });
  for (const command of setupCommands(opts.setup)) {
    if (opts.signal?.aborted) return result({ stopped: true });
    const header = `$ ${command}\n`;
    outputs.push(header);
    emit(header);
    const left = (deadline - performance.now()) / 1000;
    const r = await runGate(
      { name: 'setup', run: command, timeoutS: Math.max(left, 0.001) },
      { cwd: opts.worktree, env: opts.env, jail, signal: opts.signal, onOutput: (c) => emit(c.text, c.skippedBytes) },
    );
    outputs.push(r.output.endsWith('\n') || r.output === '' ? r.output : `${r.output}\n`);
    if (opts.signal?.aborted) return result({ stopped: true });
    if (!r.passed) return result({ timedOut: r.timedOut, failed: { command, exitCode: r.exitCode, signal: r.signal, spawnError: r.spawnError } });
  }
  return result({ ok: true });
}
