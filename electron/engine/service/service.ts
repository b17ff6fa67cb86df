// The contract's handlers over the engine: what the Electron IPC binding and the headless host both serve. Runs execute in the background here.
import { loadEstimateRecord } from '../stats/estimate-record';
import { existsSync, readdirSync } from 'node:fs';
import { hostname } from 'node:os';
import type { StatusDocument, StepSpec } from '../../../shared/domain';
import type { CallError, EventName, Handlers, NoticeCode, ResumeInfoDoc, RunSummary, Settings } from '../../../shared/contract';
import { ContractError, RUNS_PAGE } from '../../../shared/contract';
import { draftPlan } from '../agents/plan-draft';
import { checkApiKey } from '../agents/api-key-check';
import { withRetryConfig } from '../policy/task-retry-config';
import type { Engine } from '../engine';
import { RatchetError } from '../errors';
import { createScheduler } from '../lifecycle/run-scheduler';
import { GateLogCache } from '../attempts/gate-log';
import { logPage } from '../../../shared/line-index';
import { inspectRepo } from '../git/repo-git';
import { attemptDetail, findAttempt } from '../attempts/attempt-detail';
import { memorySecrets, type SecretStore } from '../settings/secret-store';
import { saveSettings, type UserSettings } from '../settings/settings-store';
import { loadPrRounds } from '../stats/stats-report';
import { createStatsReader } from '../stats/stats-reader';
import { teamReportSection } from '../stats/team-report';
import { loadStats } from '../stats/stats-load';
import { RunQueue } from '../store/run-queue';
import { applyRunEvent } from '../run/apply-run-commands';
import { landingHandlers } from './service-landing';
import { reviewHandlers } from './service-review';
import type { RunSummaryRow } from '../store/store';
import { projectHandlers, type BaselineFn } from './service-project';
import { appWorkflow } from './app-workflow';
import { attemptDiff } from '../attempts/attempt-diff';
import { createTeamService, memoryTeamUrl, type TeamUrlStore } from './service-team';
import { checkCron, cronTimeText } from '../../../shared/cron-text';
import { scheduleBook } from '../schedule/schedule-book';
import { createScheduleTicker, scheduleTickMsOf } from '../schedule/schedule-ticker';
import { createPrService } from './service-pr';
import { parseIssueRef, workflowWithIssue } from '../forge/issue-intake';

export interface ServiceOptions {
  host: 'electron' | 'headless';
  version: string;
  demo?: boolean;
  /** The environment the engine runs with; the API key is written into it when set in Settings. */
  env: NodeJS.ProcessEnv;
  secrets?: SecretStore;
  /** Where the team database's URL is kept (Settings › Team); default: RATCHET_TEAM_URL, or memory until the host stops. */
  teamUrl?: TeamUrlStore;
  /** Where Settings › GitHub keeps its token (default: memory until the host stops); GITHUB_TOKEN/GH_TOKEN win over it. */
  githubToken?: SecretStore;
  pickRepo?: () => Promise<string | null>;
  now?: () => Date;
  /** How often to look for other processes' writes to the store (default 750 ms). */
  watchMs?: number;
  /** How often the queue looks for slots freed by other processes (default 1 s). */
  queuePollMs?: number;
  /** Checks an API key before it is kept (default: one GET /v1/models at ANTHROPIC_BASE_URL); throws a sentence when refused. */
  checkApiKey?: (key: string) => Promise<void>;
  /** The baseline check "Check project" runs (default: the engine's, in its sandbox); tests swap it. */
  baseline?: BaselineFn;
  /** How often schedules are looked at (default RATCHET_SCHEDULE_TICK_MS, else 5 s; null: this host fires no schedule). */
  scheduleTickMs?: number | null;
}

export type Listener = (event: EventName, payload: unknown) => void;

export interface Service {
  handlers: Handlers;
  subscribe(listener: Listener): () => void;
  /** Runs this process is executing now. */
  active(): string[];
  /** Resumes parked runs whose wake_at has come (rate limit, daily budget); returns their ids. */
  wakeDue(): string[];
  /** Stops every run this process executes (they pause, resumable) and waits for them. */
  close(): Promise<void>;
  /** The check `settings.setApiKey` runs before keeping a key; the desktop shell runs it before its own encrypted write. */
  checkApiKey(key: string): Promise<void>;
}

const TERMINAL_NOTICE: Record<string, { code: NoticeCode; level: 'info' | 'warn' | 'error'; title: string }> = {
  succeeded: { code: 'run.succeeded', level: 'info', title: 'Run succeeded' },
  failed: { code: 'run.failed', level: 'error', title: 'Run failed' },
  paused: { code: 'run.needs_you', level: 'warn', title: 'Run needs you' },
};

export function toCallError(err: unknown): CallError {
  if (err instanceof RatchetError || err instanceof ContractError) return { code: err.code, message: err.message };
  return { code: 'internal', message: err instanceof Error ? err.message : String(err) };
}

export function createService(engine: Engine, opts: ServiceOptions): Service {
  const now = opts.now ?? (() => new Date());
  const listeners = new Set<Listener>();
  const emit: Listener = (event, payload) => {
    for (const l of listeners) l(event, payload);
  };
  const unsubscribeEngine = engine.onEvent((e) => {
    emit('runs.onEvent', e);
    if (e.type === 'run.status') {
      const notice = TERMINAL_NOTICE[String(e.payload.status)];
      const run = engine.store.getRun(e.runId);
      if (notice && run) {
        emit('app.onNotice', {
          code: notice.code,
          level: notice.level,
          title: `${notice.title}: ${run.task_title}`,
          body: String(e.payload.reason ?? '').split('\n')[0] ?? '',
          runId: e.runId,
        });
      }
    }
    // A budget alert is shown once, by the app from the engine event itself (renderer engine-events.ts); no second notice here.
  });
  // Runs other processes execute on the same store (the CLI) stream in like this process's own.
  const stopWatching = engine.watchOtherWriters(opts.watchMs);
  // The engine holds the user's settings (loaded once with it); this file reads them there, never a copy of its own.
  const settings = (): UserSettings => engine.settings();
  const stats = createStatsReader(engine.store.db);
  const statsContext = () => ({ nowIso: now().toISOString(), dailyUsd: settings().budget.dailyUsd, preset: settings().preset });

  const secrets: SecretStore = opts.secrets ?? memorySecrets(opts.env.ANTHROPIC_API_KEY ?? null);
  const storedKey = secrets.get();
  if (storedKey) opts.env.ANTHROPIC_API_KEY = storedKey;

  const queue = new RunQueue(engine.store, applyRunEvent(engine.store, now), now);
  const team = createTeamService(opts.teamUrl ?? memoryTeamUrl(opts.env.RATCHET_TEAM_URL), undefined, (e) => emit('team.onEvent', e));
  const pulls = createPrService(engine, {
    env: opts.env,
    token: opts.githubToken ?? memorySecrets(null, { what: 'token', label: 'A GitHub token', envName: 'GITHUB_TOKEN' }),
    now,
    pollMs: Number(opts.env.RATCHET_PR_POLL_MS) > 0 ? Number(opts.env.RATCHET_PR_POLL_MS) : undefined,
  });
  const self = { pid: process.pid, host: hostname() };
  const checkKey = (key: string) => (opts.checkApiKey ?? ((k: string) => checkApiKey(k, opts.env.ANTHROPIC_BASE_URL)))(key);

  // Where runs start, wait in the queue and stop: the scheduler (run-scheduler.ts); this file only maps the contract's calls.
  const scheduler = createScheduler(engine, {
    queue,
    self,
    concurrency: () => settings().concurrency,
    pollMs: opts.queuePollMs,
    onError: (code, title, body, runId) => emit('app.onNotice', { code, level: 'error', title, body, runId }),
  });
  const { request, pump } = scheduler;
  // Schedules fire while this host runs: a tick is claimed in the store, so another host on the same home does not fire it again.
  const schedules = scheduleBook(engine, now);
  const ticker = createScheduleTicker(engine, { now, execute: (runId) => request(runId, { kind: 'execute' }) });
  if (opts.scheduleTickMs !== null) ticker.start(opts.scheduleTickMs ?? scheduleTickMsOf(opts.env));

  function summary(run: RunSummaryRow): RunSummary {
    return {
      id: run.id,
      status: run.status,
      repo: run.repo_path,
      branch: run.branch,
      createdAt: run.created_at,
      title: run.task_title,
      reason: run.reason,
      reasonCode: run.reason_code ?? null,
      wakeAt: run.wake_at,
      updatedAt: run.updated_at,
      stepsDone: run.steps_done,
      stepsTotal: run.steps_total,
      costUsd: run.cost_usd,
      checked: run.checked === 1,
    };
  }

  function settingsDoc(): Settings {
    return {
      apiKeySet: Boolean(secrets.get()),
      apiKeySource: secrets.get() ? secrets.source : 'none',
      apiKeyWarning: secrets.warning,
      defaultModel: settings().defaultModel,
      preset: settings().preset,
      budget: settings().budget,
      notifications: settings().notifications,
      notify: settings().notify,
      worktreeFolder: settings().worktreeFolder,
      sandbox: settings().sandbox,
      concurrency: settings().concurrency,
      sandboxStatus: engine.sandboxStatus(),
      pricing: engine.pricing.models,
    };
  }

  function resumeDoc(info: Awaited<ReturnType<Engine['inspectResume']>>): ResumeInfoDoc {
    return {
      runId: info.run.id,
      title: info.run.task_title,
      worktree: info.run.worktree,
      branch: info.run.branch,
      status: info.run.status,
      reason: info.run.reason,
      lastSeen: info.run.heartbeat_at ?? info.run.updated_at,
      steps: info.facts.steps.map((s) => ({
        index: s.index,
        title: s.title,
        status: s.status,
        commit: s.commit,
        phase: s.phase ?? null,
        attempts: s.attempts,
      })),
      plan: info.plan,
      repeatedFailures: info.repeatedFailures,
      baseConflicts: info.baseConflicts,
      phase: info.phase,
      lastStep: info.lastStep,
      nextAgent: info.nextAgent,
    };
  }

  const gateLogs = new GateLogCache();
  const handlers: Handlers = {
    ...landingHandlers(engine, opts.host),
    ...reviewHandlers(engine, (runId) => request(runId, { kind: 'review' })),
    ...projectHandlers(engine, { baseline: opts.baseline ?? ((o) => engine.baselineCheck(o)), emit }),
    ...team.handlers,
    ...pulls.handlers,
    'app.info': async () => ({ version: opts.version, host: opts.host, demo: Boolean(opts.demo), home: engine.home }),
    'repos.inspect': async ({ path }) => inspectRepo(path),
    'repos.recent': async () => engine.store.recentRepos(10).filter((r) => existsSync(r.path)),
    'repos.pick': async () => ({ path: opts.pickRepo ? await opts.pickRepo() : null }),
    'trust.revoke': async ({ repo }) => engine.revokeTrust(repo),
    'plans.draft': async ({ repo, title, description }) => {
      const info = await inspectRepo(repo);
      const files = readdirSync(info.root)
        .filter((f) => !f.startsWith('.'))
        .slice(0, 40);
      return draftPlan({
        apiKey: opts.env.ANTHROPIC_API_KEY,
        baseURL: opts.env.ANTHROPIC_BASE_URL,
        model: settings().defaultModel,
        title,
        description,
        repoSummary: `${info.name} (branch ${info.branch ?? 'detached'}); top-level files: ${files.join(', ')}`,
      });
    },
    'plans.get': async ({ runId }) => {
      const plan = engine.store.getPlan(runId);
      if (!plan) throw new RatchetError('no_plan', 'No plan found.');
      const workflow = engine.store.getWorkflow(runId);
      return { revision: plan.revision, steps: plan.steps, gates: Object.fromEntries(Object.entries(workflow.gates).map(([k, g]) => [k, g.run])) };
    },
    'plans.revise': async ({ runId, steps }) => engine.revisePlan(runId, steps),
    'runs.list': async ({ limit, before }) => {
      engine.detectInterrupted();
      return engine.store.listRunSummaries({ limit: limit ?? RUNS_PAGE, before }).map(summary);
    },
    'runs.get': async ({ runId }): Promise<StatusDocument> => engine.status(runId),
    'runs.attempt': async ({ runId, step, n, outputHeadLines }) => attemptDetail(engine.store, gateLogs, runId, step, n, outputHeadLines),
    'runs.gateLog': async ({ runId, step, n, gate, from, count }) => {
      const a = findAttempt(engine.store, runId, step, n);
      const load = () => engine.store.getGateResults(a.id).find((g) => g.gate === gate)?.output ?? null;
      const log = gateLogs.get(`${a.id}:${gate}`, load);
      if (!log) throw new RatchetError('gate_not_found', `Attempt ${n} of step ${step} has no output of a gate named ${gate}.`);
      return logPage(log, from, count);
    },
    'runs.events': async ({ runId, afterId, limit }) => engine.store.eventsSince(runId, afterId, limit),
    'runs.attemptDiff': async ({ runId, step, n, against }) => attemptDiff(engine, runId, step, n, against),
    'runs.start': async (input) => {
      const r = input.retry;
      const description = r
        ? withRetryConfig(input.description, { max_retries: r.maxRetries, timeout_seconds: r.timeoutSeconds, allow_retry_on: r.allowRetryOn })
        : input.description;
      // Steps with the repository's workflow file: the file's settings and commands, this task's plan.
      const fromFile = !input.steps || input.workflowFile !== undefined;
      if (fromFile && (input.gates || input.setup || input.copy)) {
        throw new RatchetError(
          'bad_arguments',
          'The workflow file has its own gates, setup and files to copy: send them without the file to run your version.',
        );
      }
      const prepared = await engine.prepareRun({
        repo: input.repo,
        title: input.title,
        description,
        workflowFile: input.workflowFile,
        // The app's only workflow file is the repository's own (workflow.load): it needs the user's trust.
        repoWorkflow: input.workflowFile !== undefined,
        trust: input.trust,
        trustSha256: input.trustSha256,
        taskBudgetUsd: input.budgetUsd,
        noGates: input.noGates,
        ...(fromFile ? { steps: input.steps } : { workflow: appWorkflow({ ...input, steps: input.steps as StepSpec[] }, settings()) }),
      });
      // The retry preset chosen in New task is this task's, over the workflow file's (its trust is the file's commands, which stay as they are).
      if (fromFile && input.preset !== undefined) prepared.workflow = { ...prepared.workflow, preset: input.preset };
      // A task from an issue: its pull request says "Fixes #N" and the issue hears of it.
      if (input.issue) prepared.workflow = workflowWithIssue(prepared.workflow, parseIssueRef(input.issue));
      // "Run on team workers": the same prepared (and trusted) run goes on the team's queue instead of starting here.
      if (input.team) {
        const teamRunId = await team.submit(prepared, { priority: input.priority, taskBudgetUsd: input.budgetUsd ?? null });
        engine.store.upsertRepo(prepared.repoRoot, prepared.repoName);
        return { runId: teamRunId };
      }
      const runId = await engine.createRun(prepared);
      request(runId, { kind: 'execute' }, input.priority);
      return { runId };
    },
    'runs.estimate': async (input) => {
      const r = input.retry;
      const description = r
        ? withRetryConfig(input.description, { max_retries: r.maxRetries, timeout_seconds: r.timeoutSeconds, allow_retry_on: r.allowRetryOn })
        : input.description;
      const fromFile = !input.steps || input.workflowFile !== undefined;
      return engine.estimate({
        repo: input.repo,
        title: input.title,
        description,
        workflowFile: input.workflowFile,
        preset: fromFile ? input.preset : undefined,
        ...(fromFile ? { steps: input.steps } : { workflow: appWorkflow({ ...input, steps: input.steps as StepSpec[] }, settings()) }),
      });
    },
    'runs.retry': async ({ runId }) => {
      await engine.inspectResume(runId);
      request(runId, { kind: 'retry' });
      return { ok: true as const };
    },
    'runs.restart': async ({ runId, priority }) => {
      const fresh = await engine.restart(runId);
      request(fresh, { kind: 'execute' }, priority);
      return { runId: fresh };
    },
    'runs.resumeInfo': async ({ runId }) => resumeDoc(await engine.inspectResume(runId)),
    'runs.interrupted': async () => {
      engine.detectInterrupted();
      // Offered at start-up: interrupted runs and runs paused between steps (both wait for a resume).
      const ids = engine.store.awaitingResume().map((r) => r.id);
      return engine.store.listRunSummaries({ limit: ids.length, ids }).map(summary);
    },
    'runs.resume': async ({ runId, choices, auto, skipStep, runAnyway }) => {
      request(runId, { kind: 'resume', choices, auto, skipStep, ...(runAnyway ? { runAnyway } : {}) });
      return { ok: true as const };
    },
    'runs.approve': async ({ runId, steps }) => {
      engine.approve(runId, steps);
      request(runId, { kind: 'resume' });
      return { ok: true as const };
    },
    'runs.raiseBudget': async ({ runId, taskUsd }) => engine.raiseBudget(runId, taskUsd),
    'runs.stop': async ({ runId }) => {
      await scheduler.stop(runId, engine.store);
      return { ok: true as const };
    },
    'runs.setPriority': async ({ runId, priority }) => {
      queue.setPriority(runId, priority);
      pump();
      return { ok: true as const };
    },
    'runs.queue': async () => ({
      concurrency: settings().concurrency,
      active: scheduler.active(),
      queued: queue.list().map((q, i) => ({ runId: q.id, title: q.title, priority: q.priority, position: i + 1, queuedAt: q.queuedAt, action: q.action.kind })),
      holds: queue.activeHolds().map((h) => ({ until: h.until, runId: h.runId, reason: h.reason })),
    }),
    'runs.retryNow': async ({ runId }) => ({ skipped: engine.retryNow(runId) }),
    'runs.skipStep': async ({ runId, step }) => {
      if (scheduler.isRunningHere(runId)) throw new RatchetError('run_busy', 'Stop the run before skipping a step; resume continues after it.');
      const s = engine.store.getSteps(runId).find((x) => x.step_index === step);
      if (!s) throw new RatchetError('run_not_found', `Run ${runId} has no step ${step}.`);
      if (s.status === 'succeeded') throw new RatchetError('bad_arguments', `Step ${step} is already committed.`);
      engine.store.setStepStatus(runId, step, 'skipped');
      return { ok: true as const };
    },
    // The summary stays its per-day tables' numbers (the dashboard's first paint): the app lists stats.improvements beside it.
    // With how the estimates held (the last runs that had one, whatever the period) and the pull requests' rounds, as the weekly report says them.
    'stats.summary': async ({ days }) => ({
      ...loadStats(engine.store.db, days, now(), settings().budget.dailyUsd),
      estimates: loadEstimateRecord(engine.store.db),
      pullRequests: loadPrRounds(engine.store.db, days, now()),
    }),
    // The what-if replay, the weekly report and the suggestions read a period's raw rows: the stats worker answers them
    // on its own read connection, off this thread (stats-reader.ts).
    'stats.whatIf': async ({ days, ...choice }) => stats.call({ kind: 'whatIf', days, choice, ctx: statsContext() }),
    'stats.report': async ({ days }) => {
      const [own, teamPart] = await Promise.all([
        stats.call({ kind: 'report', days, ctx: statsContext() }),
        teamReportSection(() => team.handlers['team.stats']({ days })),
      ]);
      return { markdown: own.markdown + teamPart };
    },
    'schedules.list': async () => schedules.list(),
    'schedules.add': async (input) => schedules.add(input),
    'schedules.remove': async ({ id }) => {
      schedules.remove(id);
      return { ok: true as const };
    },
    'schedules.setPaused': async ({ id, paused }) => schedules.setPaused(id, paused),
    'schedules.preview': async ({ cron, tz }) => {
      const c = checkCron(cron, tz, now());
      return c.ok ? { error: null, next: c.next.map((d) => ({ at: d.toISOString(), text: cronTimeText(d, tz) })) } : { error: c.message, next: [] };
    },
    'stats.improvements': async ({ days }) => stats.call({ kind: 'improvements', days, ctx: statsContext() }),
    'settings.get': async () => settingsDoc(),
    'settings.set': async (patch) => {
      const { pricing, ...rest } = patch;
      const next = { ...settings(), ...rest, budget: { ...settings().budget, ...rest.budget } } as UserSettings;
      saveSettings(engine.home, next);
      engine.applySettings(next);
      if (pricing) engine.setPricing({ models: pricing });
      // A higher limit starts queued runs at once.
      pump();
      return settingsDoc();
    },
    'settings.setApiKey': async ({ key }) => {
      // Checked before it is kept (one free call); a key already stored (the desktop shell checks and stores it first) is not asked about twice.
      const wanted = key?.trim() ?? '';
      if (wanted && wanted !== secrets.get()) await checkKey(wanted);
      await secrets.set(key);
      // What is stored now (removing a saved key falls back to the environment's).
      const stored = secrets.get();
      if (stored) opts.env.ANTHROPIC_API_KEY = stored;
      else delete opts.env.ANTHROPIC_API_KEY;
      return settingsDoc();
    },
  };

  return {
    handlers,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    active: () => scheduler.runningHere(),
    wakeDue() {
      const due = engine.dueRuns().filter((id) => !scheduler.isRunningHere(id));
      for (const id of due) request(id, { kind: 'resume' });
      return due;
    },
    checkApiKey: checkKey,
    async close() {
      await ticker.stop();
      await scheduler.close();
      await team.close();
      await pulls.close();
      await stats.close();
      stopWatching();
      unsubscribeEngine();
    },
  };
}
