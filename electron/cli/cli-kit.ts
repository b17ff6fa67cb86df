// What every `ratchet` subcommand shares: its streams, flag parsing, usage errors, questions on a terminal, and live progress.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { terminalSafe } from '../../shared/terminal-text';
import type { StatusDocument } from '../../shared/domain';
import type { Engine } from '../engine';
import { RatchetError } from '../engine/light';
import { quietOnClosedOutput } from './closed-output';
import { progressLine } from './progress';
import { USAGE } from './usage';

export { COMMAND_USAGE, USAGE, commandHelp } from './usage';

export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

/** The process's own streams; a reader that goes away (`| head -1`) ends the output quietly (closed-output.ts). */
export const defaultIo = (): CliIo => {
  quietOnClosedOutput();
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env };
};

/** A stream that writes to `target` with control characters replaced (terminalSafe); it passes each write on at once. */
function safeStream(target: NodeJS.WritableStream): NodeJS.WritableStream {
  const decoder = new StringDecoder('utf8');
  return new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _enc, done) {
      target.write(terminalSafe(typeof chunk === 'string' ? chunk : decoder.write(chunk)));
      done();
    },
  });
}

/**
 * The CLI's streams as every command writes them: much of what it prints is text Ratchet did not write (the model's
 * words, tool input, gate output in a run's reason, step titles an agent drafted, a repository's file and folder
 * names), so nothing reaches the terminal with its control characters. JSON output is unchanged (it escapes them).
 * The streams are no longer TTYs to readline, so a question is asked without line-editing escape codes of its own.
 */
export function terminalIo(io: CliIo): CliIo {
  return { ...io, stdout: safeStream(io.stdout), stderr: safeStream(io.stderr) };
}

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

/** parse(), with the command line's tokens in order: for a flag whose meaning takes the argument after it (`--comment <where> "<text>"`). */
export function parseTokens<O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true, tokens: true });
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
    // Unchecked (--no-gates): the first thing said after it is to review, not to merge.
    else if (doc.checked === false) err(`status: ${doc.status}, unchecked — no gate ran: review the work before you merge it  (ratchet status ${doc.id})`);
    else err(`status: ${doc.status}  (ratchet status ${doc.id})`);
    return doc.status === 'succeeded' ? 0 : 1;
  } finally {
    unsubscribe();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
