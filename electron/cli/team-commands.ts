// The CLI's team mode: `ratchet worker --team <url>`, and `--team <url>` (or RATCHET_TEAM_URL) on run, status, list,
// retry, resume and stop, which then act on the team's runs through its database (electron/engine/team/).
import type { StatusDocument } from '../../shared/domain';
import type { TeamRunItem } from '../../shared/team';
import { money } from '../../shared/money';
import {
  type Engine,
  RatchetError,
  openTeam,
  type TeamClient,
  runWorker,
  startLocalSchedules,
  neverPassed,
  type WorkerAllowances,
  type PreparedRun,
  type SharedDay,
} from '../engine';
import { parse, UsageError, type CliIo } from './cli-kit';
import { progressLine } from './progress';

async function withTeam<T>(url: string, fn: (team: TeamClient) => Promise<T>): Promise<T> {
  const team = await openTeam(url);
  try {
    return await fn(team);
  } finally {
    await team.close();
  }
}

/** The status document a team run prints (`--json`): its worker's document, with the team's status and where it runs. */
export function teamDocument(s: {
  item: TeamRunItem;
  doc: StatusDocument | null;
}): StatusDocument & { team: { worker: string | null; remote: string; submittedBy: string } } {
  const { item } = s;
  const base: StatusDocument = s.doc ?? {
    id: item.id,
    status: item.status,
    reason: item.reason,
    reasonCode: item.reasonCode,
    repo: item.remote,
    branch: item.branch ?? '',
    worktree: '',
    baseCommit: '',
    costUsd: item.costUsd,
    steps: [],
    resumes: [],
  };
  return {
    ...base,
    status: item.status,
    reason: item.reason,
    reasonCode: item.reasonCode,
    team: { worker: item.worker, remote: item.remote, submittedBy: item.submittedBy },
  };
}

function progressOf(s: { item: TeamRunItem }): string {
  const it = s.item;
  const where = it.worker ? ` on ${it.worker}` : '';
  const steps = it.stepsTotal ? ` (${it.stepsDone}/${it.stepsTotal} steps)` : '';
  return `team run ${it.id}: ${it.status}${where}${steps}${it.reason ? ` — ${it.reason.split('\n')[0]}` : ''}`;
}

/** `ratchet run … --team <url>`: submits the prepared run; then, like a local run, waits for its end (or, --detach, returns its id). */
export async function cmdRunTeam(url: string, prepared: PreparedRun, o: { json: boolean; detach: boolean; priority: number }, io: CliIo): Promise<number> {
  return withTeam(url, async (team) => {
    const runId = await team.submit(prepared, { priority: o.priority });
    if (o.detach) {
      io.stdout.write(o.json ? `${JSON.stringify({ id: runId, status: 'queued' })}\n` : `${runId}\n`);
      return 0;
    }
    io.stderr.write(`Submitted to the team's queue as run ${runId} (Ctrl-C leaves it running there; \`ratchet stop ${runId} --team …\` stops it).\n`);
    const controller = new AbortController();
    const onSignal = () => controller.abort();
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    // The engine's own progress lines, from the events the workers carry (as a local run prints them), beside the
    // team's status changes (queued, which worker).
    const printing = (async () => {
      for await (const { event } of team.events(runId, controller.signal)) {
        const line = progressLine(event, prepared.workflow.steps.length);
        if (line) io.stderr.write(`${line}\n`);
      }
    })().catch(() => undefined);
    try {
      const end = await team.follow(runId, (s) => io.stderr.write(`${progressOf(s)}\n`), controller.signal);
      await Promise.race([printing, new Promise((r) => setTimeout(r, 2000))]);
      if (controller.signal.aborted) {
        io.stderr.write(`Left run ${runId} on the team; \`ratchet status ${runId} --team …\` shows it.\n`);
        return 1;
      }
      const doc = teamDocument(end);
      if (o.json) io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
      else io.stderr.write(`status: ${doc.status}  (ratchet status ${runId} --team …)\n`);
      return doc.status === 'succeeded' ? 0 : 1;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  });
}

export async function cmdStatusTeam(url: string, args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args, { json: { type: 'boolean' } });
  if (positionals.length !== 1) throw new UsageError('`ratchet status` takes one run id (see `ratchet list --team <url>`).');
  return withTeam(url, async (team) => {
    const s = await team.status(positionals[0] as string);
    const doc = teamDocument(s);
    if (values.json) {
      io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
      return 0;
    }
    const it = s.item;
    const lines = [
      `team run ${it.id}: ${it.status}${it.reason ? `\n  ${it.reason.replace(/\n/g, '\n  ')}` : ''}`,
      `task ${it.title}`,
      `remote ${it.remote}${it.branch ? `  branch ${it.branch}` : ''}`,
      `worker ${it.worker ?? '(none yet)'}  submitted by ${it.submittedBy}`,
      `cost ${money(it.costUsd)}`,
      ...doc.steps.map(
        (st) =>
          `  ${st.index}. [${st.status}] ${st.title}${st.commit ? ` ${st.commit.slice(0, 10)}` : ''}${st.attempts.length ? ` (${st.attempts.length} attempt${st.attempts.length > 1 ? 's' : ''})` : ''}`,
      ),
    ];
    io.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  });
}

export async function cmdListTeam(url: string, args: string[], io: CliIo): Promise<number> {
  const { values } = parse(args, { json: { type: 'boolean' } });
  return withTeam(url, async (team) => {
    const runs = await team.list();
    if (values.json) {
      io.stdout.write(`${JSON.stringify(runs, null, 2)}\n`);
      return 0;
    }
    const o = await team.overview();
    const alive = o.workers.filter((w) => w.state === 'alive');
    io.stdout.write(
      `team: ${alive.length} worker(s) alive; limits ${o.limits.global} at once, ${o.limits.perWorker} per worker, ${o.limits.perRepo} per repository; spent today ${money(o.spentTodayUsd)}${o.dailyBudgetUsd !== null ? ` of ${money(o.dailyBudgetUsd)}` : ''}\n`,
    );
    for (const r of runs)
      io.stdout.write(
        `${r.id}  ${r.status.padEnd(11)} ${r.repoName}  ${r.title}${r.worker ? `  [${r.worker}]` : ''}  ${r.stepsDone}/${r.stepsTotal}  ${money(r.costUsd)}\n`,
      );
    return 0;
  });
}

/** `ratchet stats --team <url> [--days N] [--json]`: the team's runs, retries and spend (team-stats.ts). */
export async function cmdStatsTeam(url: string, args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args, { days: { type: 'string' }, json: { type: 'boolean' } });
  if (positionals.length) throw new UsageError('`ratchet stats` takes no arguments.');
  const raw = (values.days as string | undefined) ?? '7';
  const days = Number(raw);
  if (!/^\d+$/.test(raw) || days < 1 || days > 3660) throw new UsageError(`--days takes a whole number of days from 1 to 3660, not "${raw}".`);
  return withTeam(url, async (team) => {
    const s = await team.stats(days);
    if (values.json) {
      io.stdout.write(`${JSON.stringify(s, null, 2)}\n`);
      return 0;
    }
    const rate = s.runs ? Math.round((s.succeeded / s.runs) * 100) : 0;
    const lines = [
      `Team, last ${days} day${days > 1 ? 's' : ''}: ${s.runs} runs, ${s.succeeded} succeeded (${rate} %), ${s.failed} failed, ${s.open} open; cost ${money(s.costUsd)}`,
      `Retries: ${s.retries} (${money(s.retryCostUsd)}), ${s.retriesThatPassed} passed`,
      `Today: ${money(s.spentTodayUsd)} spent${s.dailyBudgetUsd !== null ? ` of the team's ${money(s.dailyBudgetUsd)} daily budget` : ''}`,
      ...(s.reasons.length ? ['Failed attempts by reason:', ...s.reasons.map((r) => `  ${r.errorClass}: ${r.attempts}`)] : []),
      ...(s.byWorker.length ? ['By worker:', ...s.byWorker.map((w) => `  ${w.worker}: ${w.runs} runs, ${w.succeeded} succeeded, ${money(w.costUsd)}`)] : []),
    ];
    io.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  });
}

/** `ratchet retry|resume|stop <id> --team <url>`: the run goes back on the queue (retry, resume) or stops where it is. */
export async function cmdSteerTeam(url: string, command: 'retry' | 'resume' | 'stop', args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args, {
    json: { type: 'boolean' },
    yes: { type: 'boolean', short: 'y' },
    trust: { type: 'boolean' },
    budget: { type: 'string' },
  });
  if (positionals.length !== 1) throw new UsageError(`\`ratchet ${command} --team\` takes one team run id (see \`ratchet list --team <url>\`).`);
  if (values.budget !== undefined && command !== 'resume') throw new UsageError('--budget applies to `ratchet resume`.');
  const id = positionals[0] as string;
  return withTeam(url, async (team) => {
    if (command === 'stop') await team.stop(id);
    else if (command === 'retry') await team.retry(id);
    else {
      // --budget raises the run's task budget first (a run paused for its budget then goes on, as locally).
      if (values.budget !== undefined) await team.raiseBudget(id, Number(values.budget));
      const now = await team.item(id);
      if (values.budget === undefined || !['queued', 'running'].includes(now.status)) await team.resume(id);
    }
    const s = await team.status(id);
    if (values.json) io.stdout.write(`${JSON.stringify(teamDocument(s), null, 2)}\n`);
    else io.stderr.write(`${progressOf(s)}\n`);
    return 0;
  });
}

/** `--allow-env A --allow-env B` or `--allow-env A,B`: the names, hosts given to a worker's --allow-* flags. */
function listed(v: unknown): string[] {
  return ((v as string[] | undefined) ?? [])
    .flatMap((x) => x.split(','))
    .map((x) => x.trim())
    .filter(Boolean);
}

/** What this worker's operator lets a submitted workflow have (team-allow.ts); a name it never passes is refused here. */
export function allowancesOf(values: Record<string, unknown>): WorkerAllowances {
  const env = listed(values['allow-env']);
  for (const name of env) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new UsageError(`--allow-env takes variable names (got "${name}").`);
    if (neverPassed(name)) throw new UsageError(`--allow-env ${name}: a worker never passes its API key or Ratchet's own variables to a submitted workflow.`);
  }
  return { env, network: listed(values['allow-network']), commandAgent: Boolean(values['allow-command-agent']) };
}

/** `ratchet worker --team <url> [--concurrency N] [--global-limit N] [--repo-limit N] [--allow-…]`: runs the team's runs here until Ctrl-C. */
export async function cmdWorker(engine: Engine, url: string | null, args: string[], io: CliIo, onSharedDay?: (d: SharedDay) => void): Promise<number> {
  const { values, positionals } = parse(args, {
    concurrency: { type: 'string' },
    'daily-budget': { type: 'string' },
    'global-limit': { type: 'string' },
    'repo-limit': { type: 'string' },
    'allow-env': { type: 'string', multiple: true },
    'allow-network': { type: 'string', multiple: true },
    'allow-command-agent': { type: 'boolean' },
  });
  if (positionals.length) throw new UsageError('`ratchet worker` takes no arguments but its options (see `ratchet worker --help`).');
  if (!url)
    throw new UsageError(
      '`ratchet worker` needs the team database: --team-file <file>, RATCHET_TEAM_URL or RATCHET_TEAM_URL_FILE (or --team <postgres-url>, which others see in `ps`).',
    );
  const count = (name: string, v: unknown): number | undefined => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1 || n > 1000) throw new UsageError(`--${name} takes a whole number from 1 to 1000 (got ${String(v)}).`);
    return n;
  };
  const allow = allowancesOf(values);
  const concurrency = count('concurrency', values.concurrency);
  const global = count('global-limit', values['global-limit']);
  const perRepo = count('repo-limit', values['repo-limit']);
  const budget = values['daily-budget'];
  let dailyBudgetUsd: number | null | undefined;
  if (budget !== undefined) {
    dailyBudgetUsd = budget === 'none' ? null : Number(budget);
    if (dailyBudgetUsd !== null && !(Number.isFinite(dailyBudgetUsd) && dailyBudgetUsd > 0))
      throw new UsageError(`--daily-budget takes an amount in US dollars above 0, or \`none\` (got ${String(budget)}).`);
  }
  const st = engine.sandboxStatus();
  if (st.state === 'unavailable')
    throw new RatchetError(
      'sandbox_unavailable',
      `${st.message ?? 'No OS sandbox here.'} A worker runs agents' commands only in the OS sandbox (or with --no-sandbox).`,
    );
  const controller = new AbortController();
  let signals = 0;
  const onSignal = () => {
    signals++;
    if (signals > 1) process.exit(130);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // The home's local schedules fire here too, as in the app and `ratchet serve` (each tick once between them).
  const local = startLocalSchedules(engine, { env: io.env, say: (line) => io.stderr.write(`ratchet worker: ${line}\n`) });
  try {
    await runWorker({
      url,
      engine,
      env: io.env,
      allow,
      concurrency,
      dailyBudgetUsd,
      onSharedDay,
      limits:
        global !== undefined || perRepo !== undefined
          ? { ...(global !== undefined ? { global } : {}), ...(perRepo !== undefined ? { perRepo } : {}) }
          : undefined,
      say: (line) => io.stderr.write(`${line}\n`),
      signal: controller.signal,
      goneMs: io.env.RATCHET_WORKER_GONE_MS ? Number(io.env.RATCHET_WORKER_GONE_MS) : undefined,
    });
    return 0;
  } finally {
    await local.close();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
