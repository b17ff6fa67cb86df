// A schedule's ticks while a host runs (the app, `ratchet serve`, `ratchet mcp`): each tick due is claimed in the store
// (one process wins it, however many run), then starts an ordinary run (trust, budgets, the queue, notifications) that
// says which schedule started it. What stops a tick (repository gone, workflow no longer trusted, budget spent) is kept
// on the schedule as its problem, shown in the list and the app, until a tick works again.
import { dayBounds } from '../policy/budget';
import type { Engine } from '../engine';
import { RatchetError } from '../errors';
import { ScheduleStore, type ScheduleRow } from '../store/schedule-queries';
import { UntrustedWorkflow } from '../trust/check-trust';
import { money } from '../../../shared/money';
import { dueTick } from './schedule-due';

export interface TickerOptions {
  now?: () => Date;
  /** Starts a created run (the host's queue: it waits for a slot like any run). */
  execute: (runId: string) => void;
}

/** How often a host looks at its schedules: RATCHET_SCHEDULE_TICK_MS (a whole number of milliseconds), else 5 s. */
export function scheduleTickMsOf(env: NodeJS.ProcessEnv): number {
  const ms = Number(env.RATCHET_SCHEDULE_TICK_MS);
  return Number.isInteger(ms) && ms >= 50 ? ms : 5000;
}

export interface ScheduleTicker {
  /** Looks at every schedule once: claims and fires what is due. Answers the runs started. */
  tick(): Promise<string[]>;
  /** Ticks now (a missed tick fires at start) and every `everyMs` (default 5 s, scheduleTickMsOf) until stop. */
  start(everyMs?: number): void;
  stop(): Promise<void>;
}

/** The sentence a schedule keeps when its tick started nothing. */
export function tickProblem(err: unknown, s: ScheduleRow): string {
  if (err instanceof UntrustedWorkflow || (err instanceof RatchetError && err.code === 'workflow_untrusted')) {
    const flag = s.workflow_file ? ` --workflow ${JSON.stringify(s.workflow_file)}` : '';
    return `The workflow is not trusted (new or changed since you trusted it), so nothing ran: read it, then trust it with \`ratchet trust ${JSON.stringify(s.repo)}${flag}\`.`;
  }
  if (err instanceof RatchetError && ['not_a_directory', 'not_git_repo'].includes(err.code))
    return `The repository ${s.repo} is gone or no longer a git repository (${err.message}): fix the path with a new schedule, or remove this one.`;
  return err instanceof Error ? err.message : String(err);
}

export function createScheduleTicker(engine: Engine, opts: TickerOptions): ScheduleTicker {
  const now = opts.now ?? (() => new Date());
  const book = new ScheduleStore(engine.store);
  let timer: ReturnType<typeof setInterval> | null = null;
  let running: Promise<string[]> | null = null;

  async function fire(s: ScheduleRow, tick: string): Promise<string> {
    const daily = engine.settings().budget.dailyUsd;
    const spent = engine.store.spentSinceUsd(dayBounds(now()).start.toISOString());
    if (daily !== null && spent >= daily)
      throw new RatchetError(
        'budget_exceeded',
        `Today's budget (${money(daily)}) is already spent (${money(spent)}): the tick at ${tick} started nothing. Raise the daily budget in Settings, or the next tick tomorrow runs.`,
      );
    const prepared = await engine.prepareRun({
      repo: s.repo,
      ...(s.workflow_file ? { workflowFile: s.workflow_file, repoWorkflow: true } : {}),
      ...(s.task ? { title: s.task } : {}),
      ...(s.budget_usd !== null ? { taskBudgetUsd: s.budget_usd } : {}),
    });
    const runId = await engine.createRun(prepared);
    book.recordRun(s.id, runId, tick);
    opts.execute(runId);
    return runId;
  }

  async function once(): Promise<string[]> {
    const started: string[] = [];
    for (const s of book.list()) {
      let d: ReturnType<typeof dueTick>;
      try {
        d = dueTick({ cron: s.cron, tz: s.tz, missed: s.missed, paused: s.paused === 1, lastTickAt: s.last_tick_at, createdAt: s.created_at }, now());
      } catch (e) {
        book.setProblem(s.id, tickProblem(e, s));
        continue;
      }
      if (d.kind === 'none' || !book.claimTick(s.id, d.tick) || d.kind === 'skip') continue;
      try {
        started.push(await fire(s, d.tick));
      } catch (e) {
        book.setProblem(s.id, tickProblem(e, s));
      }
    }
    return started;
  }

  const tick = () => (running ??= once().finally(() => (running = null)));
  return {
    tick,
    start(everyMs = 5000) {
      if (timer) return;
      void tick();
      timer = setInterval(() => void tick(), everyMs);
      timer.unref?.();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
