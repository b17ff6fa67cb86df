// What every `ratchet` subcommand shares: its streams, flag parsing, usage errors, questions on a terminal, and live progress.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { createInterface } from 'node:readline/promises';
import type { StatusDocument } from '../../shared/domain';
import type { Engine } from '../engine/engine';
import { RatchetError } from '../engine/errors';
import { progressLine } from './progress';

/** Each command's usage line(s), as `ratchet <command> --help` prints them. */
export const COMMAND_USAGE: Record<string, string> = {
  run: `ratchet run <repo> [--workflow <file>] [--task <title>] [--description <text>|@<file.md>] [--draft] [--yes] [--trust] [--json] [--no-sandbox] [--queue [--priority N]]
      run a task's plan in its own worktree; --trust trusts the repository's own workflow file as it is now; --description gives the task its description (a
      "## Retry Configuration" block in it sets max_retries, timeout_seconds, allow_retry_on for this task);
      --draft lets the agent draft the plan, which waits for your approval (resume --approve);
      --queue waits as "queued" until fewer runs than Settings' concurrency (default 2) run anywhere, higher --priority first`,
  status: 'ratchet status <run-id> [--json]          the run\'s status document (its steps, attempts, policy and cost)',
  list: 'ratchet list [--json]                    runs, newest first',
  check: `ratchet check <workflow-file> [--description <text>|@<file.md>]
      validate a workflow without running it (exit 0 valid, 1 invalid) and show the retry policy in force`,
  retry: 'ratchet retry <run-id> [--yes] [--json] [--no-sandbox]   continue a failed run from the next incomplete step',
  resume: `ratchet resume [<run-id>] [--yes] [--json] [--auto step|phase|run] [--skip-step] [--budget <usd>] [--approve] [--no-sandbox]
      resume an interrupted, paused or waiting run from its last checkpoint; --budget raises the run's
      task budget (a run paused for its budget continues); --approve starts an agent-drafted plan`,
  plan: 'ratchet plan <run-id> [--edit <file>] [--json]   show the plan, or revise it (a YAML list of steps)',
  recover: 'ratchet recover <repo>                   rebuild runs from the repository\'s branches after losing the database',
  serve: 'ratchet serve [--port N] [--demo] [--no-sandbox]   the app in a browser (headless host on 127.0.0.1, with a token)',
  stats: `ratchet stats [--days N] [--json]        the dashboard's numbers for the last N days (default 7, today included):
      success rate, retries, reasons, cost per day; --json prints the same object the app's dashboard gets`,
  doctor: `ratchet doctor [--json]                  check the store: full integrity check, schema version, sizes, and what to do
      (exit 0 healthy, 1 damaged); a normal start skips this check unless a process stopped without closing the store`,
};

export const USAGE = `Usage:
${Object.values(COMMAND_USAGE).map((u) => `  ${u}`).join('\n')}

Every command answers --help. run, retry, resume and serve take --no-sandbox: run the agent's commands without the OS
sandbox (see the README's "Sandbox"). Environment: RATCHET_HOME (all state), ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL.`;

/** `ratchet <command> --help`: the command's usage, on stdout. */
export function commandHelp(command: string): string {
  return `Usage:\n  ${COMMAND_USAGE[command]}\n\nEnvironment: RATCHET_HOME (all state), ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL.`;
}

export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

export const defaultIo = (): CliIo => ({ stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env });

export class UsageError extends RatchetError {
  constructor(message: string) {
    super('bad_arguments', `${message}\n\n${USAGE}`);
  }
}

export function parse<O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** A yes/no question; Enter takes the capitalised choice of the prompt: `[Y/n]` yes, `[y/N]` no. */
export async function confirm(io: CliIo, question: string): Promise<boolean> {
  const rl = createInterface({ input: io.stdin, output: io.stderr });
  try {
    const answer = (await rl.question(question)).trim().toLowerCase();
    if (answer === '') return !question.includes('[y/N]');
    return answer === 'y' || answer === 'yes';
  } finally {
    rl.close();
  }
}


/** Asks a question on the terminal; an empty answer takes `fallback`. */
export async function ask(io: CliIo, question: string, fallback: string): Promise<string> {
  const rl = createInterface({ input: io.stdin, output: io.stderr });
  try {
    return (await rl.question(question)).trim() || fallback;
  } finally {
    rl.close();
  }
}

/** Runs `fn` with engine progress on stderr and Ctrl-C wired to a graceful stop; prints the outcome, returns the exit code. */
export async function withProgress(
  engine: Engine,
  io: CliIo,
  json: boolean,
  totalSteps: number,
  fn: (signal: AbortSignal) => Promise<StatusDocument>,
): Promise<number> {
  const err = (s: string) => io.stderr.write(`${s}\n`);
  const unsubscribe = engine.onEvent((e) => {
    const line = progressLine(e, totalSteps);
    if (line) err(line);
  });
  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = () => {
    interrupts++;
    if (interrupts > 1) process.exit(130);
    err('Stopping after the current operation… (Ctrl-C again to quit at once)');
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const doc = await fn(controller.signal);
    if (json) io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
    else err(`status: ${doc.status}  (ratchet status ${doc.id})`);
    return doc.status === 'succeeded' ? 0 : 1;
  } finally {
    unsubscribe();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
