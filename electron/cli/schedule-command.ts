// `ratchet schedule add|list|remove|pause|resume`: runs of a task on a cron schedule, fired while the app, `ratchet serve`,
// `ratchet mcp` or `ratchet worker` runs (docs/schedules.md); with --team <url> (or RATCHET_TEAM_URL), the team's schedules,
// DBOS scheduled workflows its workers fire. Bad input (cron, time zone, repository, trust) is refused at once, exit 2.
import { cronTimeText } from '../../shared/cron-text';
import type { ScheduleDoc } from '../../shared/contract/schedules';
import { money } from '../../shared/money';
import { openTeam, scheduleBook, type Engine } from '../engine';
import { parse, UsageError, type CliIo } from './cli-kit';
import { teamUrlOf } from './team-url';

/** What `schedule` does on either side: this home's schedules, or the team's (team-schedule.ts). */
interface Book {
  add(input: Parameters<ReturnType<typeof scheduleBook>['add']>[0]): Promise<ScheduleDoc>;
  list(): Promise<ScheduleDoc[]>;
  remove(id: string): Promise<void>;
  setPaused(id: string, paused: boolean): Promise<ScheduleDoc>;
}

function localBook(engine: Engine): Book {
  const book = scheduleBook(engine);
  return { add: (i) => book.add(i), list: async () => book.list(), remove: async (id) => book.remove(id), setPaused: async (id, p) => book.setPaused(id, p) };
}

/** The team's book: a new schedule is checked here as a local one is (trust, workflow), then kept in the team database. */
function teamBook(engine: Engine, team: Awaited<ReturnType<typeof openTeam>>): Book {
  return {
    async add(input) {
      if (input.missed === 'run-once')
        throw new UsageError(
          '--missed run-once is for a local schedule: a team schedule fires while a worker runs, and a tick missed while none ran is skipped.',
        );
      const prepared = await engine.prepareRun({
        repo: input.repo,
        ...(input.workflowFile ? { workflowFile: input.workflowFile, repoWorkflow: true } : {}),
        ...(input.task ? { title: input.task } : {}),
      });
      return team.schedules.add(prepared, { cron: input.cron, tz: input.tz ?? null, taskBudgetUsd: input.budgetUsd ?? null });
    },
    list: () => team.schedules.list(),
    remove: (id) => team.schedules.remove(id),
    setPaused: (id, p) => team.schedules.setPaused(id, p),
  };
}

/** One schedule in a line or two: id, when, what, and its state. */
export function scheduleLines(s: ScheduleDoc): string[] {
  const what = [
    s.task ? `"${s.task}"` : "the workflow's task",
    s.workflowFile ? `with ${s.workflowFile}` : null,
    s.budgetUsd ? `budget ${money(s.budgetUsd)}` : null,
  ]
    .filter(Boolean)
    .join(', ');
  const state = s.paused ? 'paused' : s.nextAt ? `next ${cronTimeText(new Date(s.nextAt), s.tz)}` : 'no next time';
  return [
    `${s.id}  ${s.cron}${s.tz ? ` (${s.tz})` : ''}  ${s.repo}: ${what}; ${state}${s.missed === 'skip' ? ', skips missed ticks' : ''}${s.lastRunId ? `; last run ${s.lastRunId}` : ''}`,
    ...(s.problem ? [`  problem: ${s.problem}`] : []),
  ];
}

export async function cmdSchedule(engine: Engine, allArgs: string[], io: CliIo): Promise<number> {
  const t = teamUrlOf(allArgs, io.env);
  if (!t.url) return scheduleWith(localBook(engine), t.rest, io, false);
  const team = await openTeam(t.url);
  try {
    return await scheduleWith(teamBook(engine, team), t.rest, io, true);
  } finally {
    await team.close();
  }
}

async function scheduleWith(book: Book, args: string[], io: CliIo, team: boolean): Promise<number> {
  const [verb = '', ...rest] = args;
  const out = (s: string) => io.stdout.write(`${s}\n`);
  const show = (s: ScheduleDoc, json: boolean, said: string) => (json ? out(JSON.stringify(s, null, 2)) : [said, ...scheduleLines(s)].forEach(out));
  if (verb === 'add') {
    const { values, positionals } = parse(rest, {
      cron: { type: 'string' },
      workflow: { type: 'string', short: 'w' },
      task: { type: 'string', short: 't' },
      budget: { type: 'string' },
      tz: { type: 'string' },
      missed: { type: 'string' },
      json: { type: 'boolean' },
    });
    if (positionals.length !== 1 || !values.cron) throw new UsageError('`ratchet schedule add` takes one repository path and --cron "<expression>".');
    const budget = values.budget === undefined ? null : Number(values.budget);
    if (budget !== null && !(budget > 0)) throw new UsageError("--budget takes an amount in USD above 0 (each run's task budget).");
    if (values.missed !== undefined && values.missed !== 'run-once' && values.missed !== 'skip')
      throw new UsageError('--missed takes run-once (a tick missed while nothing ran fires once at the next start) or skip.');
    const s = await book.add({
      repo: positionals[0] as string,
      cron: values.cron,
      tz: values.tz ?? null,
      workflowFile: values.workflow ?? null,
      task: values.task ?? null,
      budgetUsd: budget,
      missed: (values.missed as 'run-once' | 'skip' | undefined) ?? (team ? 'skip' : 'run-once'),
    });
    show(
      s,
      Boolean(values.json),
      team
        ? "Added to the team; its ticks fire while a team worker runs, each once across the workers, as runs on the team's queue:"
        : 'Added; its ticks fire while the app, `ratchet serve`, `ratchet mcp` or `ratchet worker` runs:',
    );
    return 0;
  }
  if (verb === 'list') {
    const { values, positionals } = parse(rest, { json: { type: 'boolean' } });
    if (positionals.length) throw new UsageError('`ratchet schedule list` takes no argument.');
    const all = await book.list();
    if (values.json) out(JSON.stringify(all, null, 2));
    else if (!all.length) out(`No ${team ? 'team ' : ''}schedules: \`ratchet schedule add <repo> --cron "<expression>"${team ? ' --team …' : ''}\` makes one.`);
    else all.flatMap(scheduleLines).forEach(out);
    return 0;
  }
  if (verb === 'remove' || verb === 'pause' || verb === 'resume') {
    const { values, positionals } = parse(rest, { json: { type: 'boolean' } });
    if (positionals.length !== 1) throw new UsageError(`\`ratchet schedule ${verb}\` takes one schedule id (see \`ratchet schedule list\`).`);
    const id = positionals[0] as string;
    if (verb === 'remove') {
      await book.remove(id);
      if (values.json) out(JSON.stringify({ id, removed: true }));
      else out(`Removed schedule ${id}.`);
      return 0;
    }
    show(await book.setPaused(id, verb === 'pause'), Boolean(values.json), verb === 'pause' ? 'Paused: its ticks start nothing until resumed.' : 'Resumed:');
    return 0;
  }
  throw new UsageError('`ratchet schedule` takes add, list, remove, pause or resume.');
}
