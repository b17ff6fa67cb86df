// The `ratchet` command: run, status and list over the same engine the app uses. Exit 0 success, 1 failed or stopped, 2 bad input.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { createInterface } from 'node:readline/promises';
import { createEngine, type Engine } from '../engine/engine';
import { isBadInput, RatchetError } from '../engine/errors';
import { defaultHome } from '../engine/home';
import { progressLine } from './progress';
import { existsSync, readFileSync } from 'node:fs';
import { checkWorkflowText, type WorkflowProblem } from '../engine/workflow/load-workflow';

const USAGE = `Usage:
  ratchet run <repo> [--workflow <file>] [--task <title>] [--yes] [--json]
  ratchet status <run-id> [--json]
  ratchet list [--json]
  ratchet check <workflow-file>            validate a workflow without running it (exit 0 valid, 1 invalid)

Environment: RATCHET_HOME (all state), ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL.`;

export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

const defaultIo = (): CliIo => ({ stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env });

class UsageError extends RatchetError {
  constructor(message: string) {
    super('bad_arguments', `${message}\n\n${USAGE}`);
  }
}

function parse<O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

async function confirm(io: CliIo, question: string): Promise<boolean> {
  const rl = createInterface({ input: io.stdin, output: io.stderr });
  try {
    const answer = (await rl.question(question)).trim().toLowerCase();
    return answer === '' || answer === 'y' || answer === 'yes';
  } finally {
    rl.close();
  }
}

async function cmdRun(engine: Engine, args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args, {
    workflow: { type: 'string', short: 'w' },
    task: { type: 'string', short: 't' },
    yes: { type: 'boolean', short: 'y' },
    json: { type: 'boolean' },
  });
  if (positionals.length !== 1) throw new UsageError('`ratchet run` takes exactly one repository path.');
  const prepared = await engine.prepareRun({
    repo: positionals[0] as string,
    workflowFile: values.workflow as string | undefined,
    title: values.task as string | undefined,
  });
  const steps = prepared.workflow.steps;
  const err = (s: string) => io.stderr.write(`${s}\n`);
  if (!values.yes && io.stdin.isTTY) {
    err(`Task: ${prepared.title}\nRepository: ${prepared.repoRoot} (${prepared.baseBranch ?? 'detached'} at ${prepared.headCommit.slice(0, 10)})`);
    steps.forEach((s, i) => err(`  ${i + 1}. ${s.title}${s.gates ? ` [${s.gates.join(', ')}]` : ''}`));
    if (!(await confirm(io, 'Start this run? [Y/n] '))) {
      err('Not started.');
      return 1;
    }
  }
  const unsubscribe = engine.onEvent((e) => {
    const line = progressLine(e, steps.length);
    if (line) err(line);
  });
  const controller = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    if (interrupts > 1) process.exit(130);
    err('Stopping after the current operation… (Ctrl-C again to quit at once)');
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  try {
    const runId = await engine.createRun(prepared);
    const doc = await engine.execute(runId, controller.signal);
    if (values.json) io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
    else err(`status: ${doc.status}  (ratchet status ${doc.id})`);
    return doc.status === 'succeeded' ? 0 : 1;
  } finally {
    unsubscribe();
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
  }
}

function cmdStatus(engine: Engine, args: string[], io: CliIo): number {
  const { values, positionals } = parse(args, { json: { type: 'boolean' } });
  if (positionals.length !== 1) throw new UsageError('`ratchet status` takes one run id (see `ratchet list`).');
  engine.detectInterrupted();
  const doc = engine.status(positionals[0] as string);
  if (values.json) {
    io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
    return 0;
  }
  const out = [
    `run ${doc.id}: ${doc.status}${doc.reason ? `\n  ${doc.reason.replace(/\n/g, '\n  ')}` : ''}`,
    `repo ${doc.repo}`,
    `branch ${doc.branch}  base ${doc.baseCommit.slice(0, 10)}`,
    `worktree ${doc.worktree}`,
    `cost ${doc.costUsd === null ? 'unknown' : `$${doc.costUsd.toFixed(4)}`}`,
    ...doc.steps.map(
      (s) => `  ${s.index}. [${s.status}] ${s.title}${s.commit ? ` ${s.commit.slice(0, 10)}` : ''}${s.attempts.length ? ` (${s.attempts.length} attempt${s.attempts.length > 1 ? 's' : ''})` : ''}`,
    ),
  ];
  io.stdout.write(`${out.join('\n')}\n`);
  return 0;
}

function cmdList(engine: Engine, args: string[], io: CliIo): number {
  const { values, positionals } = parse(args, { json: { type: 'boolean' } });
  if (positionals.length) throw new UsageError('`ratchet list` takes no arguments.');
  engine.detectInterrupted();
  const runs = engine.list();
  if (values.json) {
    io.stdout.write(`${JSON.stringify(runs, null, 2)}\n`);
    return 0;
  }
  if (!runs.length) io.stdout.write('No runs yet. Start one with `ratchet run <repo> --workflow <file>`.\n');
  for (const r of runs) io.stdout.write(`${r.id}  ${r.status.padEnd(16)} ${r.createdAt}  ${r.branch}  ${r.repo}\n`);
  return 0;
}

function cmdCheck(args: string[], io: CliIo): number {
  const { positionals } = parse(args, {});
  if (positionals.length !== 1) throw new UsageError('`ratchet check` takes one workflow file.');
  const file = positionals[0] as string;
  if (!existsSync(file)) throw new RatchetError('workflow_missing', `Workflow file ${file} does not exist.`);
  const report = checkWorkflowText(readFileSync(file, 'utf8'));
  const line = (kind: string, p: WorkflowProblem) => `${file}${p.line ? `:${p.line}` : ''}: ${kind}: ${p.path}: ${p.message}\n`;
  for (const p of report.errors) io.stderr.write(line('error', p));
  for (const p of report.warnings) io.stderr.write(line('warning', p));
  if (report.errors.length) {
    io.stderr.write(`${file}: invalid (${report.errors.length} error${report.errors.length > 1 ? 's' : ''})\n`);
    return 1;
  }
  const w = report.workflow;
  io.stdout.write(`${file}: valid — ${w?.steps.length ?? 0} steps, gates: ${Object.keys(w?.gates ?? {}).join(', ') || 'none'}${report.warnings.length ? `, ${report.warnings.length} warning(s)` : ''}\n`);
  return 0;
}

export async function main(argv: string[], io: CliIo = defaultIo()): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    (command ? io.stdout : io.stderr).write(`${USAGE}\n`);
    return command ? 0 : 2;
  }
  let engine: Engine | undefined;
  try {
    if (command === 'check') return cmdCheck(rest, io);
    if (!['run', 'status', 'list'].includes(command)) throw new UsageError(`Unknown command \`${command}\`.`);
    engine = createEngine({ home: defaultHome(io.env), env: io.env });
    if (engine.movedAside) io.stderr.write(`The database could not be opened and was moved aside to ${engine.movedAside}; a new one was created.\n`);
    if (command === 'run') return await cmdRun(engine, rest, io);
    if (command === 'status') return cmdStatus(engine, rest, io);
    return cmdList(engine, rest, io);
  } catch (err) {
    if (isBadInput(err)) {
      io.stderr.write(`ratchet: ${(err as Error).message}\n`);
      return 2;
    }
    io.stderr.write(`ratchet: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    engine?.close();
  }
}
