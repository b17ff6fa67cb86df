// `ratchet retry`, `resume`, `plan`, `recover` and `restart`: continuing runs, or starting one's task again.
import { wordTimes } from '../../shared/reason-text';
import { clockWords } from '../../shared/time-ago';
import { readFileSync, existsSync, realpathSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import type { RunStatus } from '../../shared/domain';
import { type ConfirmNext, type Engine, type RunRow, RatchetError, type RecoveryOption, type RequiredAction, StepConfig } from '../engine';
import { ask, confirm, parse, UsageError, withProgress, type CliIo } from './cli-kit';
import { interruptedLine, optionText, renderResumePlan } from './resume-view';
import { money } from '../../shared/money';

const AUTO = ['step', 'phase', 'run'] as const;
type Auto = (typeof AUTO)[number];

export async function cmdRetry(engine: Engine, args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args, { yes: { type: 'boolean', short: 'y' }, json: { type: 'boolean' }, trust: { type: 'boolean' } });
  if (positionals.length !== 1) throw new UsageError('`ratchet retry` takes one run id (see `ratchet list`).');
  const runId = positionals[0] as string;
  const info = await engine.inspectResume(runId);
  // The workflow stored with the run, under the trust it started with: no question, unless that trust no longer stands (exit 2).
  engine.checkRunTrust(runId, Boolean(values.trust));
  if (!values.yes && io.stdin.isTTY) {
    io.stderr.write(`${renderResumePlan(info)}\n`);
    if (!(await confirm(io, 'Retry from the next incomplete step? [Y/n] '))) return 1;
  }
  return withProgress(engine, io, Boolean(values.json), info.facts.steps.length, async (signal) => {
    const { doc, notes } = await engine.retry(runId, { signal, trust: Boolean(values.trust) });
    for (const n of notes) io.stderr.write(`  note: ${n}\n`);
    return doc;
  });
}

/** `ratchet restart <run-id>`: Start again — a new run of the same task, plan and workflow from the repository's HEAD, run here. */
export async function cmdRestart(engine: Engine, args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args, { yes: { type: 'boolean', short: 'y' }, json: { type: 'boolean' }, trust: { type: 'boolean' } });
  if (positionals.length !== 1) throw new UsageError('`ratchet restart` takes one run id (see `ratchet list`).');
  const runId = positionals[0] as string;
  engine.checkRunTrust(runId, Boolean(values.trust));
  if (!values.yes && io.stdin.isTTY) {
    if (!(await confirm(io, `Start run ${runId}'s task again as a new run, from the repository's current HEAD? [Y/n] `))) return 1;
  }
  const fresh = await engine.restart(runId, { trust: Boolean(values.trust) });
  io.stderr.write(`Run ${fresh} started again from run ${runId}.\n`);
  return withProgress(engine, io, Boolean(values.json), engine.status(fresh).steps.length, (signal) => engine.execute(fresh, signal));
}

export interface ResumeFlags {
  yes: boolean;
  json: boolean;
  auto: Auto | null;
  skipStep: boolean;
  /** `--approve`: approve an agent-drafted plan waiting in `waiting_approval`, then start it. */
  approve?: boolean;
  /** `--budget <usd>`: the run's new task budget, set before it resumes. */
  budget?: number | null;
  /** `--trust`: trust again the repository workflow version the run started with, if it is no longer trusted. */
  trust?: boolean;
  /** `--run-anyway`: start the agent though the pre-run check finds the environment not ready (as `ratchet run --run-anyway`). */
  runAnyway?: boolean;
}

export async function cmdResume(engine: Engine, args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args, {
    yes: { type: 'boolean', short: 'y' },
    json: { type: 'boolean' },
    auto: { type: 'string' },
    'skip-step': { type: 'boolean' },
    budget: { type: 'string' },
    approve: { type: 'boolean' },
    trust: { type: 'boolean' },
    'run-anyway': { type: 'boolean' },
  });
  const auto = values.auto as string | undefined;
  const budgetText = values.budget as string | undefined;
  const budget = budgetText === undefined ? null : Number(budgetText.replace(/^\$/, ''));
  if (budget !== null && !(Number.isFinite(budget) && budget > 0)) throw new UsageError('`--budget` takes an amount in US dollars above 0, e.g. --budget 10.');
  if (auto !== undefined && !AUTO.includes(auto as Auto)) throw new UsageError('`--auto` takes step, phase or run.');
  const flags: ResumeFlags = {
    yes: Boolean(values.yes),
    json: Boolean(values.json),
    auto: (auto as Auto | undefined) ?? null,
    skipStep: Boolean(values['skip-step']),
    budget,
    approve: Boolean(values.approve),
    trust: Boolean(values.trust),
    runAnyway: Boolean(values['run-anyway']),
  };
  if (positionals.length > 1) throw new UsageError('`ratchet resume` takes at most one run id or worktree path.');
  let runId = positionals[0] ? runIdOf(engine, positionals[0]) : undefined;
  // Inside a run's own worktree, `ratchet resume` means that run (the newest one working there).
  if (!runId) runId = runWorkingIn(engine, process.cwd())?.id;
  if (!runId) {
    engine.detectInterrupted();
    const runs = engine.runRows().filter((r) => RESUMABLE.includes(r.status));
    if (!runs.length) {
      io.stderr.write(
        'No run to resume (interrupted, paused, waiting, failed or waiting for approval). `ratchet list` shows every run; `ratchet run <repo>` starts a new one.\n',
      );
      return 0;
    }
    io.stderr.write('Runs to resume:\n');
    runs.forEach((r, i) => {
      const steps = engine.stepRows(r.id);
      const current = steps.find((s) => s.status === 'running') ?? steps.find((s) => s.status !== 'succeeded' && s.status !== 'skipped');
      io.stderr.write(
        `${interruptedLine(i + 1, r, current ? { index: current.step_index, total: steps.length, title: current.title, phase: current.phase } : null)}\n`,
      );
    });
    if (!io.stdin.isTTY) {
      io.stderr.write('Pass the run id to resume one: ratchet resume <run-id>\n');
      return 2;
    }
    const pick = Number(await ask(io, `Select workflow to resume: [1-${runs.length}] `, '1'));
    const chosen = runs[pick - 1];
    if (!chosen) throw new RatchetError('bad_arguments', `Choose a number from 1 to ${runs.length}.`);
    runId = chosen.id;
    // Picking a drafted plan from the list is asking to start it: the resume plan is shown and asked about first.
    if (chosen.status === 'waiting_approval') flags.approve = true;
  }
  return resumeById(engine, runId, flags, io);
}

/** The runs `ratchet resume` with no run id offers: every status a resume continues (a failed run goes on from its next incomplete step). */
const RESUMABLE: readonly RunStatus[] = ['interrupted', 'paused', 'waiting', 'waiting_approval', 'failed'];

/** The newest run whose worktree holds `dir` (the worktree itself or a folder in it), if any. */
function runWorkingIn(engine: Engine, dir: string): RunRow | undefined {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };
  const here = real(dir);
  return engine.runRows().find((r) => {
    const w = real(r.worktree);
    return here === w || here.startsWith(`${w}${sep}`);
  });
}

/**
 * A run id, or (the `worktree_path` argument) the path of a run's worktree: the newest run working there. A
 * path no run works in is refused with what to give instead.
 */
function runIdOf(engine: Engine, arg: string): string {
  if (engine.runRow(arg)) return arg;
  const looksLikePath = arg.includes('/') || arg.includes('\\') || arg === '.' || arg === '..';
  if (!looksLikePath || !existsSync(arg)) return arg;
  const run = runWorkingIn(engine, arg);
  if (!run) throw new RatchetError('run_not_found', `No run works in ${resolve(arg)}: give a run id or a run's worktree (see \`ratchet list\`).`);
  return run.id;
}

export async function resumeById(engine: Engine, runId: string, flags: ResumeFlags, io: CliIo): Promise<number> {
  engine.checkRunTrust(runId, Boolean(flags.trust));
  if (flags.budget) {
    const r = engine.raiseBudget(runId, flags.budget);
    io.stderr.write(`Task budget of run ${runId} raised to ${money(r.taskUsd)}${r.spentUsd !== null ? ` (${money(r.spentUsd)} spent so far)` : ''}.\n`);
  }
  const info = await engine.inspectResume(runId);
  const tty = Boolean(io.stdin.isTTY) && !flags.yes;
  io.stderr.write(`${renderResumePlan(info)}\n`);
  if (info.plan.blocked) {
    const blocker = info.plan.required.find((r) => r.code === 'no_branch' || r.code === 'no_plan');
    throw new RatchetError(blocker?.code === 'no_plan' ? 'no_plan' : 'no_branch', blocker?.message ?? 'This run cannot be resumed.');
  }
  // An agent-drafted plan resumes to its approval: it runs only once approved.
  let approve = Boolean(flags.approve);
  if (info.run.status === 'waiting_approval' && !approve) {
    const plan = engine.plan(runId);
    plan?.steps.forEach((s, i) => io.stderr.write(`  ${i + 1}. ${s.title}\n`));
    if (tty && (await confirm(io, 'Approve this plan and start? [y/N] '))) approve = true;
    else {
      io.stderr.write(
        `The plan waits for your approval: \`ratchet resume ${runId} --approve\` starts it (\`ratchet plan ${runId} --edit <file>\` changes it first).\n`,
      );
      return 1;
    }
  }
  const choices: Partial<Record<RequiredAction['code'], RecoveryOption>> = {};
  if (tty) {
    for (const r of info.plan.required.filter((x) => x.options.length > 1)) {
      const menu = r.options.map((o, i) => `${i + 1}) ${optionText(o)}`).join('  ');
      const answer = await ask(io, `${r.message}\n  ${menu} [${r.options.indexOf(r.safeDefault) + 1}] `, String(r.options.indexOf(r.safeDefault) + 1));
      const option = r.options[Number(answer) - 1];
      if (!option) throw new RatchetError('bad_arguments', `Choose a number from 1 to ${r.options.length}.`);
      choices[r.code] = option;
    }
    if (info.repeatedFailures.length && !(await confirm(io, 'Continue anyway? [y/N] '))) return 1;
    if (!(await confirm(io, 'Proceed with resume? [Y/n] '))) return 1;
  }
  // On a terminal without --auto, interactive auto-progress: asked after each step.
  const auto = flags.auto ?? (tty ? 'step' : 'run');
  const confirmNext: ConfirmNext | undefined =
    !flags.auto && tty
      ? async ({ done, next, total }) => {
          const a = (
            await ask(
              io,
              `Step ${done.index} (${done.title}) completed! Continue to step ${next.index}/${total} (${next.title})?\n  [Y]es, continue / [N]o, pause here / [A]uto to the end of the phase [Y] `,
              'y',
            )
          ).toLowerCase();
          return a.startsWith('n') ? 'no' : a.startsWith('a') ? 'auto' : 'yes';
        }
      : undefined;
  if (info.run.status === 'waiting' && info.run.wake_at && Date.parse(info.run.wake_at) > Date.now()) {
    const ms = Date.parse(info.run.wake_at) - Date.now();
    io.stderr.write(
      `The run waits until ${clockWords(info.run.wake_at)} (${info.run.reason ? wordTimes(info.run.reason) : 'rate limit or budget'}); resuming then. Ctrl-C to stop waiting.\n`,
    );
    await new Promise((resolve) => setTimeout(resolve, ms));
  }
  return withProgress(engine, io, flags.json, info.facts.steps.length, async (signal) => {
    const { doc, notes } = await engine.resume(runId, {
      signal,
      choices,
      auto,
      skipStep: flags.skipStep,
      confirmNext,
      approve,
      trust: Boolean(flags.trust),
      runAnyway: Boolean(flags.runAnyway),
    });
    for (const n of notes) io.stderr.write(`  note: ${n}\n`);
    return doc;
  });
}

const PlanFile = z.union([
  z.array(StepConfig).min(1),
  z
    .object({ steps: z.array(StepConfig).min(1) })
    .passthrough()
    .transform((o) => o.steps),
]);

export async function cmdPlan(engine: Engine, args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args, { edit: { type: 'string', short: 'e' }, json: { type: 'boolean' } });
  if (positionals.length !== 1) throw new UsageError('`ratchet plan` takes one run id.');
  const runId = positionals[0] as string;
  if (values.edit !== undefined) {
    const file = values.edit as string;
    if (!existsSync(file)) throw new RatchetError('workflow_missing', `Plan file ${file} does not exist.`);
    let data: unknown;
    try {
      data = parseYaml(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new RatchetError('workflow_invalid', `${file} is not valid YAML: ${(err as Error).message}`);
    }
    const steps = PlanFile.safeParse(data);
    if (!steps.success) {
      throw new RatchetError(
        'workflow_invalid',
        `${file} must hold a list of steps (or \`steps:\` with one), each with a title: ${steps.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      );
    }
    const r = await engine.revisePlan(runId, steps.data);
    io.stderr.write(
      `plan revision ${r.revision}: ${steps.data.length} steps; kept commits of step(s) ${r.kept.join(', ') || 'none'}${r.reset.length ? `; step(s) ${r.reset.join(', ')} changed and will run again` : ''}. \`ratchet retry ${runId}\` or \`ratchet resume ${runId}\` follows it.\n`,
    );
  }
  const plan = engine.plan(runId);
  if (!plan) throw new RatchetError('run_not_found', `No run with id ${runId}, or it has no plan.`);
  const steps = engine.stepRows(runId);
  if (values.json) io.stdout.write(`${JSON.stringify({ revision: plan.revision, steps: plan.steps }, null, 2)}\n`);
  else {
    io.stdout.write(`plan revision ${plan.revision}\n`);
    plan.steps.forEach((s, i) => io.stdout.write(`  ${i + 1}. [${steps.find((r) => r.step_index === i + 1)?.status ?? 'pending'}] ${s.title}\n`));
  }
  return 0;
}

export async function cmdRecover(engine: Engine, args: string[], io: CliIo): Promise<number> {
  const { positionals } = parse(args, {});
  if (positionals.length !== 1) throw new UsageError('`ratchet recover` takes one repository path.');
  const r = await engine.recover(positionals[0] as string);
  io.stdout.write(`rebuilt ${r.rebuilt.length} run(s) from git${r.rebuilt.length ? `: ${r.rebuilt.join(', ')}` : ''}; ${r.known.length} already known\n`);
  if (r.branchesWithoutMeta.length) io.stdout.write(`branches without run metadata (left alone): ${r.branchesWithoutMeta.join(', ')}\n`);
  if (r.rebuilt.length) io.stdout.write(`resume one with: ratchet resume ${r.rebuilt[0]}\n`);
  return 0;
}
