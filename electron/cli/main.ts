// The `ratchet` command over the same engine the app uses: run, status, list, check, retry, resume, plan, recover, trust. Exit 0 success, 1 failed or stopped, 2 bad input.
import { cmdMerge } from './merge-command';
import { cmdReview } from './review-command';
import { cliForgeEnv, cmdPr, openRunPull } from './pr-command';
import { cmdEstimate } from './estimate-command';
import { cmdSchedule } from './schedule-command';
import {
  createEngine,
  type Engine,
  isBadInput,
  RatchetError,
  defaultHome,
  type SharedDay,
  draftPlan,
  checkWorkflowText,
  readWorkflowBytes,
  type WorkflowProblem,
  policyDoc,
  policyLines,
  tddCheckLine,
  environmentLines,
  parseTaskRetryConfig,
  UntrustedWorkflow,
  hardenOwnPath,
  githubToken,
  readIssue,
  workflowWithIssue,
} from '../engine';
import { confirm, defaultIo, parse, terminalIo, UsageError, withProgress, type CliIo } from './cli-kit';
import { helpAnswer } from './usage';
import { cmdPlan, cmdRecover, cmdRestart, cmdResume, cmdRetry, resumeById } from './continue-commands';
import { cmdList, movedAsideNotice } from './list-command';
import { waitForSlot } from './queue-wait';
import { cmdServe } from './serve-command';
import { cmdTrust } from './trust-command';
import { cmdInit } from './init-command';
import { cmdListTeam, cmdRunTeam, cmdStatsTeam, cmdStatusTeam, cmdSteerTeam, cmdWorker } from './team-commands';
import { teamUrlOf } from './team-url';
import { cmdDoctor, cmdStats } from './store-commands';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { errorClassLabel } from '../../shared/error-classes';
import { money } from '../../shared/money';
import { budgetWarning, estimateLine, estimateRange } from '../../shared/estimate-text';
import type { PlanEstimate } from '../../shared/domain';

async function cmdRun(engine: Engine, args: string[], io: CliIo, teamUrl: string | null = null): Promise<number> {
  const { values, positionals } = parse(args, {
    detach: { type: 'boolean' },
    workflow: { type: 'string', short: 'w' },
    task: { type: 'string', short: 't' },
    description: { type: 'string', short: 'd' },
    draft: { type: 'boolean' },
    yes: { type: 'boolean', short: 'y' },
    trust: { type: 'boolean' },
    json: { type: 'boolean' },
    queue: { type: 'boolean' },
    priority: { type: 'string' },
    'no-gates': { type: 'boolean' },
    'run-anyway': { type: 'boolean' },
    pr: { type: 'boolean' },
    'github-repo': { type: 'string' },
    issue: { type: 'string' },
  });
  if (positionals.length !== 1) throw new UsageError('`ratchet run` takes exactly one repository path.');
  if (values.pr && (teamUrl || values.draft))
    throw new UsageError('--pr applies to a local run started here (not --team or --draft): open the pull request later with `ratchet pr <run-id>`.');
  if (values['github-repo'] !== undefined && !values.pr && values.issue === undefined)
    throw new UsageError('--github-repo applies with --pr or --issue (or to `ratchet pr`).');
  // Before any money is spent: a pull request asked for needs a token.
  if (values.pr && !githubToken(io.env))
    throw new RatchetError(
      'forge_no_token',
      'No GitHub token for --pr: set GITHUB_TOKEN (or GH_TOKEN), or run without --pr and open the pull request later with `ratchet pr <run-id>`.',
    );
  if (values['run-anyway'] && teamUrl) throw new UsageError('--run-anyway is for a local run: a team run is checked on its worker.');
  const priority = values.priority === undefined ? 0 : Number(values.priority);
  if (!Number.isInteger(priority) || priority < -100 || priority > 100)
    throw new UsageError('--priority takes a whole number from -100 to 100 (higher starts first).');
  if (values.priority !== undefined && !values.queue && !teamUrl) throw new UsageError('--priority only applies with --queue (or --team).');
  if (values.detach && !teamUrl) throw new UsageError('--detach applies to a run on team workers (--team <url>): a local run lives in this process.');
  if (teamUrl && values.draft) throw new UsageError('--draft is not for team runs yet: draft and approve the plan locally, then submit it with --team.');
  // --issue: the task's title and description from the issue and its comments (--task, --description still win).
  const fromIssue = values.issue === undefined ? null : await issueIntake(engine, positionals[0] as string, values.issue, values['github-repo'], io);
  if (values.draft) return cmdRunDraft(engine, values, positionals[0] as string, io, fromIssue);
  const prepared = withIssue(
    await prepareTrusting(
      engine,
      {
        repo: positionals[0] as string,
        workflowFile: values.workflow as string | undefined,
        title: (values.task as string | undefined) ?? fromIssue?.title,
        description: readDescription(values.description as string | undefined) ?? fromIssue?.description,
        trust: Boolean(values.trust),
        noGates: Boolean(values['no-gates']),
      },
      io,
    ),
    fromIssue,
  );
  const steps = prepared.workflow.steps;
  const err = (s: string) => io.stderr.write(`${s}\n`);
  if (teamUrl) {
    if (!values.yes && io.stdin.isTTY) {
      err(
        `Task: ${prepared.title}\nRepository: ${prepared.repoRoot} (${prepared.baseBranch ?? 'detached'} at ${prepared.headCommit.slice(0, 10)}), on team workers`,
      );
      steps.forEach((s, i) => err(`  ${i + 1}. ${s.title}${s.gates ? ` [${s.gates.join(', ')}]` : ''}`));
      if (!(await confirm(io, 'Submit this run to the team? [Y/n] '))) {
        err('Not submitted.');
        return 1;
      }
    }
    return cmdRunTeam(teamUrl, prepared, { json: Boolean(values.json), detach: Boolean(values.detach), priority }, io);
  }
  // What it would cost and take, before it starts (the status document records the same estimate).
  const estimate = startEstimate(engine, prepared);
  let estimateShown = false;
  if (!values.yes && io.stdin.isTTY) {
    err(`Task: ${prepared.title}\nRepository: ${prepared.repoRoot} (${prepared.baseBranch ?? 'detached'} at ${prepared.headCommit.slice(0, 10)})`);
    steps.forEach((s, i) => err(`  ${i + 1}. ${s.title}${s.gates ? ` [${s.gates.join(', ')}]` : ''}`));
    if (estimate) err(estimate);
    estimateShown = true;
    if (!(await confirm(io, 'Start this run? [Y/n] '))) {
      err('Not started.');
      return 1;
    }
  }
  // The start-up check: a run whose process died while running is interrupted (not "running") before it is looked for.
  engine.detectInterrupted();
  const interrupted = engine.interruptedLike(prepared.repoRoot, prepared.title);
  if (interrupted.length) {
    const same = interrupted.filter((r) => r.task_title === prepared.title);
    const listed = interrupted.map((r) => `"${r.task_title}" (${r.id})`).join(', ');
    // A run paused between steps waits for a resume as an interrupted one does: it is named for what it is.
    const what = interrupted[0]?.status === 'interrupted' ? 'an interrupted run' : 'a run paused between steps';
    err(
      same.length
        ? `Warning: this repository has ${what} of "${prepared.title}" (${same.map((r) => r.id).join(', ')}). \`ratchet resume ${interrupted[0]?.id}\` continues it from its last checkpoint.`
        : `Warning: this repository has ${what}: ${listed}. \`ratchet resume ${interrupted[0]?.id}\` continues it from its last checkpoint; this run starts anyway.`,
    );
    if (!values.yes && io.stdin.isTTY && (await confirm(io, 'Resume it instead of starting over? [Y/n] '))) {
      return resumeById(engine, interrupted[0]?.id as string, { yes: false, json: Boolean(values.json), auto: 'run', skipStep: false }, io);
    }
  }
  if (estimate && !estimateShown) err(estimate);
  let runId = '';
  const code = await withProgress(engine, io, Boolean(values.json), steps.length, async (signal) => {
    runId = await engine.createRun(prepared);
    if (values.queue) await waitForSlot(engine, runId, { priority, signal, say: err });
    return engine.execute(runId, signal, { runAnyway: Boolean(values['run-anyway']) });
  });
  if (!values.pr || code !== 0) return code;
  // --json keeps stdout one status document: the pull request's URL goes to stderr then.
  const r = await openRunPull(engine, runId, io, { draft: false, repoFlag: values['github-repo'] });
  if (!values.json) io.stdout.write(`${r.pr.url}\n`);
  return 0;
}

/** The estimate line `ratchet run` prints before it starts, with the budget warning when the task budget is below its p90; null when none could be made. */
function startEstimate(engine: Engine, prepared: Awaited<ReturnType<Engine['prepareRun']>>): string | null {
  try {
    const est = engine.estimatePrepared(prepared);
    const warning = budgetWarning(est, prepared.workflow.budget?.task_usd ?? null);
    return `Estimate: ${estimateLine(est)}${warning ? `\n${warning} To let it finish, raise budget.task_usd in the workflow (or the task budget in Settings).` : ''}`;
  } catch {
    return null;
  }
}

type IssueIntake = Awaited<ReturnType<typeof readIssue>>;

/** `--issue <number|URL>`: the issue read through the forge (its repository: the URL's, else --github-repo, else the remote's). */
async function issueIntake(engine: Engine, repo: string, ref: string, repoFlag: string | undefined, io: CliIo): Promise<IssueIntake> {
  const r = await readIssue({ env: cliForgeEnv(engine, io.env), repoPath: repo, ref, repoFlag });
  io.stderr.write(`Task from issue #${r.issue.number} of ${r.repo.owner}/${r.repo.name}: ${r.title}\n`);
  return r;
}

/** The run's copy of the workflow remembers the issue (its pull request says "Fixes #N" and links back to it). */
function withIssue(prepared: Awaited<ReturnType<Engine['prepareRun']>>, intake: IssueIntake | null): Awaited<ReturnType<Engine['prepareRun']>> {
  return intake ? { ...prepared, workflow: workflowWithIssue(prepared.workflow, { number: intake.issue.number, repo: intake.repo }) } : prepared;
}

/** `run --draft`: the agent drafts the plan; the run waits in `waiting_approval` until the user approves it. */
async function cmdRunDraft(engine: Engine, values: Record<string, unknown>, repo: string, io: CliIo, fromIssue: IssueIntake | null = null): Promise<number> {
  const prepared = withIssue(
    await prepareTrusting(
      engine,
      {
        repo,
        workflowFile: values.workflow as string | undefined,
        title: (values.task as string | undefined) ?? fromIssue?.title,
        description: readDescription(values.description as string | undefined) ?? fromIssue?.description,
        trust: Boolean(values.trust),
        noGates: Boolean(values['no-gates']),
        planLater: true,
      },
      io,
    ),
    fromIssue,
  );
  const files = readdirSync(prepared.repoRoot)
    .filter((f) => !f.startsWith('.'))
    .slice(0, 40);
  const draft = await draftPlan({
    apiKey: io.env.ANTHROPIC_API_KEY,
    baseURL: io.env.ANTHROPIC_BASE_URL,
    model: prepared.workflow.agent.model,
    title: prepared.title,
    description: prepared.description,
    repoSummary: `${prepared.repoName} (branch ${prepared.baseBranch ?? 'detached'}); top-level files: ${files.join(', ')}`,
  });
  const drafted = { ...prepared, workflow: { ...prepared.workflow, steps: draft.steps } };
  // Each step's share of the estimate, and the run's (made before the drafted run exists, from the runs before it).
  let est: PlanEstimate | null = null;
  try {
    est = engine.estimatePrepared(drafted);
  } catch {
    // No estimate (a damaged row): the plan is listed without one.
  }
  const runId = await engine.createRun(drafted, { awaitApproval: true });
  const err = (s: string) => io.stderr.write(`${s}\n`);
  err(`Drafted plan for "${prepared.title}" (run ${runId}):`);
  draft.steps.forEach((s, i) => {
    const share = est?.steps[i];
    err(`  ${i + 1}. ${s.title}${share ? `  ${estimateRange(share)}` : ''}`);
  });
  if (est) err(`Estimate: ${estimateLine(est)}`);
  if (!values.yes && io.stdin.isTTY && (await confirm(io, 'Approve this plan and start? [y/N] '))) {
    return resumeById(engine, runId, { yes: true, json: Boolean(values.json), auto: 'run', skipStep: false, approve: true }, io);
  }
  err(`The run waits for your approval: \`ratchet plan ${runId} --edit <file>\` to change it, \`ratchet resume ${runId} --approve\` to start it.`);
  if (values.json) io.stdout.write(`${JSON.stringify(engine.status(runId), null, 2)}\n`);
  return 0;
}

/**
 * prepareRun, and when the repository's own workflow file is not trusted yet: on a terminal, show what it would
 * run and allow, and ask (`--yes` does not answer this); unattended, the engine's `workflow_untrusted` error stands (exit 2).
 */
async function prepareTrusting(engine: Engine, input: Parameters<Engine['prepareRun']>[0], io: CliIo): ReturnType<Engine['prepareRun']> {
  try {
    return await engine.prepareRun(input);
  } catch (e) {
    if (!(e instanceof UntrustedWorkflow) || !io.stdin.isTTY) throw e;
    io.stderr.write(`${e.shown}\n`);
    if (!(await confirm(io, 'Trust this workflow file and run its commands? [y/N] '))) {
      throw new RatchetError('workflow_untrusted', 'Not trusted: nothing was run. Pass --trust, or trust the workflow in the app, to run it.');
    }
    // The yes is for the content shown: a file changed while the question was open is refused, and not trusted.
    return engine.prepareRun({ ...input, trust: true, trustSha256: e.sha256 });
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
    `run ${doc.id}: ${doc.status}${doc.checked === false ? ', unchecked (no gate ran: review the work before you merge it)' : ''}${doc.reason ? `\n  ${doc.reason.replace(/\n/g, '\n  ')}` : ''}`,
    ...(doc.schedule
      ? [
          `started by schedule ${doc.schedule.id}${doc.schedule.cron ? ` · ${doc.schedule.cron}${doc.schedule.tz ? ` (${doc.schedule.tz})` : ''}` : ' (removed since)'}`,
        ]
      : []),
    `repo ${doc.repo}`,
    `branch ${doc.branch}  base ${doc.baseCommit.slice(0, 10)}`,
    `worktree ${doc.worktree}`,
    `cost ${money(doc.costUsd)}`,
    ...(doc.policy ? policyLines(doc.policy, doc.steps) : []),
    ...environmentLines(doc.environment),
    ...doc.steps.flatMap((s) => [
      `  ${s.index}. [${s.status}] ${s.title}${s.commit ? ` ${s.commit.slice(0, 10)}` : ''}${s.attempts.length ? ` (${s.attempts.length} attempt${s.attempts.length > 1 ? 's' : ''})` : ''}`,
      // What each failed attempt ended with ("your attempt changed no files", "the gate ran no tests"…).
      ...s.attempts
        .filter((a) => a.message)
        .map((a) => `     attempt ${a.n}: ${a.errorClass ? errorClassLabel(a.errorClass) : a.outcome}: ${a.message!.split('\n')[0]}`),
    ]),
  ];
  io.stdout.write(`${out.join('\n')}\n`);
  return 0;
}

/** `--description <text>` or `--description @file.md`. */
function readDescription(value: string | undefined): string | undefined {
  if (value === undefined || !value.startsWith('@')) return value;
  const file = value.slice(1);
  if (!existsSync(file))
    throw new RatchetError('bad_arguments', `The description file ${file} does not exist. Pass --description <text> or --description @<file.md>.`);
  return readFileSync(file, 'utf8');
}

function cmdCheck(args: string[], io: CliIo): number {
  const { positionals, values } = parse(args, { description: { type: 'string', short: 'd' } });
  if (positionals.length !== 1) throw new UsageError('`ratchet check` takes one workflow file.');
  const file = positionals[0] as string;
  // Read as Ratchet reads every workflow file: a regular file, never a FIFO or a device, bounded.
  const bytes = readWorkflowBytes(file);
  if (!bytes) throw new RatchetError('workflow_missing', `Workflow file ${file} does not exist.`);
  const report = checkWorkflowText(bytes.toString('utf8'));
  const line = (kind: string, p: WorkflowProblem) => `${file}${p.line ? `:${p.line}` : ''}: ${kind}: ${p.path}: ${p.message}\n`;
  for (const p of report.errors) io.stderr.write(line('error', p));
  for (const p of report.warnings) io.stderr.write(line('warning', p));
  if (report.errors.length) {
    io.stderr.write(`${file}: invalid (${report.errors.length} error${report.errors.length > 1 ? 's' : ''})\n`);
    return 1;
  }
  const w = report.workflow;
  const steps = w?.steps.length ? `${w.steps.length} steps` : 'no steps (each task gives its own)';
  io.stdout.write(
    `${file}: valid — ${steps}, gates: ${Object.keys(w?.gates ?? {}).join(', ') || 'none'}${report.warnings.length ? `, ${report.warnings.length} warning(s)` : ''}\n`,
  );
  if (w) {
    const description = readDescription(values.description as string | undefined) ?? w.task?.description ?? '';
    parseTaskRetryConfig(description);
    io.stdout.write(`${policyLines(policyDoc(w, description, w.steps), w.steps).join('\n')}\n`);
    const tdd = tddCheckLine(w);
    if (tdd) io.stdout.write(`${tdd}\n`);
  }
  return 0;
}

/** Says once, loudly, when commands will run without the OS sandbox (a run without one is refused by the engine). */
function warnSandbox(engine: Engine, command: string, io: CliIo): void {
  if (!['run', 'retry', 'restart', 'resume', 'review', 'worker'].includes(command)) return;
  const st = engine.sandboxStatus();
  if (st.state === 'off')
    io.stderr.write(
      "ratchet: WARNING: the OS sandbox is OFF (--no-sandbox or settings): the agent's shell, gates and command agents can write anywhere you can, read your keys and reach any host.\n",
    );
}

export async function main(argv: string[], rawIo: CliIo = defaultIo()): Promise<number> {
  // Ratchet's own programs (git, the sandbox's launcher) are never found through a relative PATH entry.
  hardenOwnPath();
  const io = terminalIo(rawIo);
  const help = helpAnswer(argv);
  if (help) {
    io[help.stream].write(help.text);
    return help.code;
  }
  const [command = '', ...rest] = argv;
  let engine: Engine | undefined;
  let teamUrl: string | null = null;
  try {
    if (command === 'check') return cmdCheck(rest, io);
    if (command === 'init') return await cmdInit(rest, io);
    if (command === 'serve') return await cmdServe(rest, io);
    // Loaded on demand: the MCP SDK stays out of every other command's start.
    if (command === 'mcp') return await (await import('./mcp-command')).cmdMcp(rest, io);
    // Team mode (--team <url> or RATCHET_TEAM_URL): the command acts on the team's runs through its database.
    if (['run', 'status', 'list', 'retry', 'resume', 'stop', 'worker', 'stats'].includes(command)) {
      const team = teamUrlOf(rest, io.env);
      rest.splice(0, rest.length, ...team.rest);
      if (team.url && command === 'status') return await cmdStatusTeam(team.url, rest, io);
      if (team.url && command === 'list') return await cmdListTeam(team.url, rest, io);
      if (team.url && command === 'stats') return await cmdStatsTeam(team.url, rest, io);
      if (team.url && (command === 'retry' || command === 'resume' || command === 'stop')) return await cmdSteerTeam(team.url, command, rest, io);
      if (command === 'stop')
        throw new UsageError('`ratchet stop` stops a team run (--team <url>). A local run stops with Ctrl-C in its terminal, or Stop in the app.');
      teamUrl = team.url;
    }
    if (command === 'list') return cmdList(rest, io);
    if (command === 'doctor') return cmdDoctor(defaultHome(io.env), rest, io);
    if (
      !['run', 'status', 'retry', 'restart', 'resume', 'plan', 'recover', 'trust', 'stats', 'merge', 'review', 'pr', 'worker', 'estimate', 'schedule'].includes(
        command,
      )
    )
      throw new UsageError(`Unknown command \`${command}\`.`);
    // --no-sandbox (run, retry, restart, resume): the user's explicit choice to run the agent's commands unconfined.
    const noSandbox = ['run', 'retry', 'restart', 'resume', 'review', 'worker'].includes(command) && rest.includes('--no-sandbox');
    if (noSandbox) rest.splice(0, rest.length, ...rest.filter((a) => a !== '--no-sandbox'));
    // A team worker's budgets count the whole team's day (the team database says it, the worker keeps it current).
    let teamDay: SharedDay = { dailyUsd: null, elsewhereUsd: 0 };
    engine = createEngine({
      home: defaultHome(io.env),
      env: io.env,
      sandbox: noSandbox ? 'off' : 'auto',
      ...(command === 'worker' ? { sharedDay: () => teamDay } : {}),
    });
    warnSandbox(engine, command, io);
    if (engine.movedAside) io.stderr.write(movedAsideNotice(engine.movedAside));
    if (command === 'worker') return await cmdWorker(engine, teamUrl, rest, io, (d) => (teamDay = d));
    if (command === 'run') return await cmdRun(engine, rest, io, teamUrl);
    if (command === 'status') return cmdStatus(engine, rest, io);
    if (command === 'retry') return await cmdRetry(engine, rest, io);
    if (command === 'restart') return await cmdRestart(engine, rest, io);
    if (command === 'resume') return await cmdResume(engine, rest, io);
    if (command === 'plan') return await cmdPlan(engine, rest, io);
    if (command === 'trust') return await cmdTrust(engine, rest, io);
    if (command === 'stats') return cmdStats(engine, rest, io);
    if (command === 'merge') return await cmdMerge(engine, rest, io);
    if (command === 'review') return await cmdReview(engine, rest, io);
    if (command === 'pr') return await cmdPr(engine, rest, io);
    if (command === 'estimate') return await cmdEstimate(engine, rest, io);
    if (command === 'schedule') return await cmdSchedule(engine, rest, io);
    return await cmdRecover(engine, rest, io);
  } catch (err) {
    if (isBadInput(err)) {
      io.stderr.write(`ratchet: ${(err as Error).message}\n`);
      return 2;
    }
    io.stderr.write(`ratchet: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    await engine?.settled();
    engine?.close();
    await engine?.releaseSandbox();
  }
}
