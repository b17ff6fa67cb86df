// `ratchet schedule add|list|remove|pause|resume`: runs of a task on a cron schedule, fired while the app, `ratchet serve`
// or `ratchet mcp` runs (docs/schedules.md). Bad input (cron, time zone, repository, trust) is refused at once, exit 2.
import { cronTimeText } from '../../shared/cron-text';
import type { ScheduleDoc } from '../../shared/contract/schedules';
import { money } from '../../shared/money';
import { scheduleBook, type Engine } from '../engine';
import { parse, UsageError, type CliIo } from './cli-kit';

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

export async function cmdSchedule(engine: Engine, args: string[], io: CliIo): Promise<number> {
  const [verb = '', ...rest] = args;
  const book = scheduleBook(engine);
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
      missed: (values.missed as 'run-once' | 'skip' | undefined) ?? 'run-once',
    });
    show(s, Boolean(values.json), 'Added; its ticks fire while the app, `ratchet serve` or `ratchet mcp` runs:');
    return 0;
  }
  if (verb === 'list') {
    const { values, positionals } = parse(rest, { json: { type: 'boolean' } });
    if (positionals.length) throw new UsageError('`ratchet schedule list` takes no argument.');
    const all = book.list();
    if (values.json) out(JSON.stringify(all, null, 2));
    else if (!all.length) out('No schedules: `ratchet schedule add <repo> --cron "<expression>"` makes one.');
    else all.flatMap(scheduleLines).forEach(out);
    return 0;
  }
  if (verb === 'remove' || verb === 'pause' || verb === 'resume') {
    const { values, positionals } = parse(rest, { json: { type: 'boolean' } });
    if (positionals.length !== 1) throw new UsageError(`\`ratchet schedule ${verb}\` takes one schedule id (see \`ratchet schedule list\`).`);
    const id = positionals[0] as string;
    if (verb === 'remove') {
      book.remove(id);
      if (values.json) out(JSON.stringify({ id, removed: true }));
      else out(`Removed schedule ${id}.`);
      return 0;
    }
    show(book.setPaused(id, verb === 'pause'), Boolean(values.json), verb === 'pause' ? 'Paused: its ticks start nothing until resumed.' : 'Resumed:');
    return 0;
  }
  throw new UsageError('`ratchet schedule` takes add, list, remove, pause or resume.');
}
