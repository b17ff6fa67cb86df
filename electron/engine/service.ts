// The contract's handlers over the engine: what the Electron IPC binding and the headless host both serve. Runs execute in the background here.
import { existsSync, readdirSync } from 'node:fs';
import { hostname } from 'node:os';
import type { StatusDocument, StepSpec } from '../../shared/domain';
import type { AppSetup } from '../../shared/project';
import type { AgentChoice, CallError, EventName, Handlers, NoticeCode, ResumeInfoDoc, RunSummary, Settings } from '../../shared/contract';
import { ContractError, RUNS_PAGE } from '../../shared/contract';
import { draftPlan } from './agents/plan-draft';
import { checkApiKey } from './agents/api-key-check';
import { withRetryConfig } from './runs/task-retry-config';
import type { Engine } from './engine';
import { RatchetError } from './errors';
import { createScheduler } from './run-scheduler';
import { GateLogCache } from './gate-log';
import { headOf, logPage } from '../../shared/line-index';
import { boundText } from './gates/bounded-output';
import { diffTrees, inspectRepo } from './git/repo-git';
import { liveAttemptDiff } from './live-attempt-diff';
import { withExpectedActual } from './attempt-detail';
import { saveSettings, type UserSettings } from './settings-store';
import { statsWindow } from './stats';
import { loadImprovements, weeklyReport } from './stats-report';
import { loadStats } from './stats-load';
import { whatIf } from './what-if';
import { loadWhatIfHistory } from './what-if-history';
import { RunQueue } from './store/run-queue';
import { CLAUDE_CODE_AGENT, landingHandlers } from './service-landing';
import type { RunSummaryRow } from './store/store';
import { appEnvironment, projectHandlers, type BaselineFn } from './service-project';
import { WorkflowFile, type Workflow } from './workflow/schema';

export interface SecretStore {
  source: 'safe_storage' | 'environment' | 'session' | 'none';
  warning: string | null;
  get(): string | null;
  /** Throws a RatchetError where keys cannot be stored (the headless host reads the environment); may be async (safeStorage). */
  set(key: string | null): void | Promise<void>;
}

export interface ServiceOptions {
  host: 'electron' | 'headless';
  version: string;
  demo?: boolean;
  /** The environment the engine runs with; the API key is written into it when set in Settings. */
  env: NodeJS.ProcessEnv;
  secrets?: SecretStore;
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

/**
 * The headless host's key store: the environment's key, or a key saved from the app, kept in this process's memory
 * only (no keychain without Electron) until the host stops; never written to disk.
 */
export function memorySecrets(envKey: string | null): SecretStore {
  let session: string | null = null;
  return {
    get source() {
      return session ? 'session' : envKey ? 'environment' : 'none';
    },
    get warning() {
      return session ? 'This key is kept in memory only until `ratchet serve` stops. To keep it, set ANTHROPIC_API_KEY in the environment of `ratchet serve`.' : null;
    },
    get: () => session ?? envKey,
    set: (key) => {
      const value = key?.trim() ?? '';
      if (value && /\s/.test(value)) throw new RatchetError('bad_arguments', 'An API key has no spaces or line breaks in it. Paste the key alone.');
      session = value || null;
    },
  };
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
        emit('app.onNotice', { code: notice.code, level: notice.level, title: `${notice.title}: ${run.task_title}`, body: String(e.payload.reason ?? '').split('\n')[0] ?? '', runId: e.runId });
      }
    }
    // A budget alert is shown once, by the app from the engine event itself (renderer engine-events.ts); no second notice here.
  });
  // Runs other processes execute on the same store (the CLI) stream in like this process's own.
  const stopWatching = engine.watchOtherWriters(opts.watchMs);
  // The engine holds the user's settings (loaded once with it); this file reads them there, never a copy of its own.
  const settings = (): UserSettings => engine.settings();

  const secrets: SecretStore = opts.secrets ?? memorySecrets(opts.env.ANTHROPIC_API_KEY ?? null);
  const storedKey = secrets.get();
  if (storedKey) opts.env.ANTHROPIC_API_KEY = storedKey;

  const queue = new RunQueue(engine.store, now);
  const self = { pid: process.pid, host: hostname() };
  const checkKey = (key: string) => (opts.checkApiKey ?? ((k: string) => checkApiKey(k, opts.env.ANTHROPIC_BASE_URL)))(key);

  // Where runs start, wait in the queue and stop: the scheduler (run-scheduler.ts); this file only maps the contract's calls.
  const scheduler = createScheduler(engine, {
    queue, self, concurrency: () => settings().concurrency, pollMs: opts.queuePollMs,
    onError: (code, title, body, runId) => emit('app.onNotice', { code, level: 'error', title, body, runId }),
  });
  const { request, pump } = scheduler;

  function summary(run: RunSummaryRow): RunSummary {
    return {
      id: run.id, status: run.status, repo: run.repo_path, branch: run.branch, createdAt: run.created_at, title: run.task_title,
      reason: run.reason, wakeAt: run.wake_at, updatedAt: run.updated_at,
      stepsDone: run.steps_done, stepsTotal: run.steps_total, costUsd: run.cost_usd,
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

  function workflowFromApp(input: { steps: StepSpec[]; gates?: Record<string, string>; setup?: AppSetup; copy?: string[]; preset?: Workflow['preset']; budgetUsd?: number; agent?: AgentChoice }): Workflow {
    const parsed = WorkflowFile.safeParse({
      ...appEnvironment(input),
      agent: input.agent === 'claude-code' ? { ...CLAUDE_CODE_AGENT, model: settings().defaultModel } : { model: settings().defaultModel },
      preset: input.preset ?? settings().preset,
      budget: {
        ...(input.budgetUsd ?? settings().budget.taskUsd ? { task_usd: input.budgetUsd ?? settings().budget.taskUsd } : {}),
        ...(settings().budget.dailyUsd ? { daily_usd: settings().budget.dailyUsd } : {}),
        alert_at: settings().budget.alertAt,
      },
      steps: input.steps,
    });
    if (!parsed.success) throw new RatchetError('workflow_invalid', `The task's settings are not valid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    for (const s of parsed.data.steps) {
      for (const g of s.gates ?? []) if (!(g in parsed.data.gates)) throw new RatchetError('unknown_gate', `Step "${s.title}" names gate \`${g}\`, which is not defined.`);
    }
    return parsed.data;
  }

  function resumeDoc(info: Awaited<ReturnType<Engine['inspectResume']>>): ResumeInfoDoc {
    return {
      runId: info.run.id, title: info.run.task_title, worktree: info.run.worktree, branch: info.run.branch, status: info.run.status,
      reason: info.run.reason, lastSeen: info.run.heartbeat_at ?? info.run.updated_at,
      steps: info.facts.steps.map((s) => ({ index: s.index, title: s.title, status: s.status, commit: s.commit, phase: s.phase ?? null, attempts: s.attempts })),
      plan: info.plan, repeatedFailures: info.repeatedFailures, baseConflicts: info.baseConflicts,
      phase: info.phase, lastStep: info.lastStep, nextAgent: info.nextAgent,
    };
  }

  const gateLogs = new GateLogCache();
  const handlers: Handlers = {
    ...landingHandlers(engine, opts.host),
    ...projectHandlers(engine, { baseline: opts.baseline ?? ((o) => engine.baselineCheck(o)), emit }),
    'app.info': async () => ({ version: opts.version, host: opts.host, demo: Boolean(opts.demo), home: engine.home }),
    'repos.inspect': async ({ path }) => inspectRepo(path),
    'repos.recent': async () =>
      (engine.store.db.prepare(
        `SELECT repos.path, repos.name, COALESCE(MAX(runs.created_at), repos.created_at) AS lastUsed FROM repos
         LEFT JOIN runs ON runs.repo_id = repos.id GROUP BY repos.id ORDER BY lastUsed DESC LIMIT 10`,
      ).all() as Array<{ path: string; name: string; lastUsed: string }>).filter((r) => existsSync(r.path)),
    'repos.pick': async () => ({ path: opts.pickRepo ? await opts.pickRepo() : null }),
    'trust.revoke': async ({ repo }) => engine.revokeTrust(repo),
    'plans.draft': async ({ repo, title, description }) => {
      const info = await inspectRepo(repo);
      const files = readdirSync(info.root).filter((f) => !f.startsWith('.')).slice(0, 40);
      return draftPlan({
        apiKey: opts.env.ANTHROPIC_API_KEY, baseURL: opts.env.ANTHROPIC_BASE_URL, model: settings().defaultModel, title, description,
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
    'runs.attempt': async ({ runId, step, n, outputHeadLines }) => {
      const a = engine.store.getAttempts(runId, step).find((x) => x.n === n);
      if (!a) throw new RatchetError('run_not_found', `Run ${runId} has no attempt ${n} at step ${step}.`);
      const gates = engine.store.getGateResults(a.id).map(({ id: _id, ...stored }) => {
        const g = { ...stored, failures: withExpectedActual(stored.failures) };
        // A recorded gate result never changes: its log is indexed once and kept for the pages that follow.
        return outputHeadLines === undefined ? g : headOf(g, outputHeadLines, gateLogs.get(`${a.id}:${g.gate}`, () => g.output) ?? undefined);
      });
      const texts = engine.store.getAttemptTexts(a.id);
      return {
        runId, step, n, outcome: a.outcome, errorClass: a.error_class, errorMessage: a.error_message, model: a.model, agentKind: a.agent_kind,
        prompt: texts.prompt, transcript: JSON.parse(texts.transcript_json) as never, gates: gates as never,
        diff: texts.diff, decision: a.decision_json ? JSON.parse(a.decision_json) : null, fingerprint: a.fingerprint, startedAt: a.started_at, finishedAt: a.finished_at,
        inputTokens: a.input_tokens, outputTokens: a.output_tokens, cacheReadTokens: a.cache_read_tokens, cacheWriteTokens: a.cache_write_tokens,
        costUsd: a.cost_known ? a.cost_usd : null,
      };
    },
    'runs.gateLog': async ({ runId, step, n, gate, from, count }) => {
      const a = engine.store.getAttempts(runId, step).find((x) => x.n === n);
      if (!a) throw new RatchetError('run_not_found', `Run ${runId} has no attempt ${n} at step ${step}.`);
      const load = () => engine.store.getGateResults(a.id).find((g) => g.gate === gate)?.output ?? null;
      const log = gateLogs.get(`${a.id}:${gate}`, load);
      if (!log) throw new RatchetError('gate_not_found', `Attempt ${n} of step ${step} has no output of a gate named ${gate}.`);
      return logPage(log, from, count);
    },
    'runs.events': async ({ runId, afterId, limit }) => engine.store.eventsSince(runId, afterId, limit),
    'runs.attemptDiff': async ({ runId, step, n, against }) => {
      const run = engine.store.getRun(runId);
      const rows = engine.store.getAttempts(runId, step);
      const a = rows.find((x) => x.n === n);
      if (!run || !a) throw new RatchetError('run_not_found', `Run ${runId} has no attempt ${n} at step ${step}.`);
      // Each attempt's tree is kept (refs/ratchet/<run>/<step>/<n>), so any two can be compared.
      if (!a.tree_sha) {
        const live = await liveAttemptDiff(engine, run, a, rows, step, against);
        return live ?? { diff: engine.store.getAttemptTexts(a.id).diff ?? '', against: 'step' as const, fromAttempt: null, live: false };
      }
      const prev = against === 'previous' ? [...rows].reverse().find((x) => x.n < n && x.tree_sha) : undefined;
      const base = against === 'run' ? run.base_commit : (engine.store.getSteps(runId).find((x) => x.step_index === step)?.pre_commit ?? null);
      const from = prev?.tree_sha ?? (base ? `${base}^{tree}` : null);
      if (!from) return { diff: engine.store.getAttemptTexts(a.id).diff ?? '', against: 'step' as const, fromAttempt: null, live: false };
      // Trees live in the repository's object store: diffed there, never through the worktree's .git file.
      const diff = boundText(await diffTrees(run.repo_path, from, a.tree_sha), 200_000);
      return { diff, against: prev ? 'previous' as const : against === 'run' ? 'run' as const : 'step' as const, fromAttempt: prev?.n ?? null, live: false };
    },
    'runs.start': async (input) => {
      const r = input.retry;
      const description = r ? withRetryConfig(input.description, { max_retries: r.maxRetries, timeout_seconds: r.timeoutSeconds, allow_retry_on: r.allowRetryOn }) : input.description;
      // Steps with the repository's workflow file: the file's settings and commands, this task's plan.
      const fromFile = !input.steps || input.workflowFile !== undefined;
      if (fromFile && (input.gates || input.setup || input.copy)) {
        throw new RatchetError('bad_arguments', 'The workflow file has its own gates, setup and files to copy: send them without the file to run your version.');
      }
      const prepared = await engine.prepareRun({
        repo: input.repo, title: input.title, description, workflowFile: input.workflowFile,
        // The app's only workflow file is the repository's own (workflow.load): it needs the user's trust.
        repoWorkflow: input.workflowFile !== undefined, trust: input.trust, trustSha256: input.trustSha256,
        ...(fromFile ? { steps: input.steps } : { workflow: workflowFromApp({ ...input, steps: input.steps as StepSpec[] }) }),
      });
      // The budget and retry preset chosen in New task are this task's, over the workflow file's (its trust is the file's commands, which stay as they are).
      if (fromFile && input.budgetUsd !== undefined) prepared.workflow = { ...prepared.workflow, budget: { alert_at: settings().budget.alertAt, ...prepared.workflow.budget, task_usd: input.budgetUsd } };
      if (fromFile && input.preset !== undefined) prepared.workflow = { ...prepared.workflow, preset: input.preset };
      const runId = await engine.createRun(prepared);
      request(runId, { kind: 'execute' }, input.priority);
      return { runId };
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
      const ids = engine.store.runsWithStatus(['interrupted']).map((r) => r.id);
      return engine.store.listRunSummaries({ limit: ids.length, ids }).map(summary);
    },
    'runs.resume': async ({ runId, choices, auto, skipStep }) => {
      request(runId, { kind: 'resume', choices, auto, skipStep });
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
    'stats.summary': async ({ days }) => loadStats(engine.store.db, days, now(), settings().budget.dailyUsd),
    'stats.whatIf': async ({ days, ...choice }) => {
      // The dashboard's period: the same local calendar days as stats.summary, so both count the same runs.
      const since = statsWindow(days, now()).sinceIso;
      return whatIf(loadWhatIfHistory(engine.store, since), choice);
    },
    'stats.report': async ({ days }) => ({ markdown: weeklyReport(engine.store.db, days, now(), { dailyUsd: settings().budget.dailyUsd, preset: settings().preset }).markdown }),
    'stats.improvements': async ({ days }) => {
      const at = now();
      return { items: loadImprovements(engine.store.db, loadStats(engine.store.db, days, at, settings().budget.dailyUsd), at, settings().preset) };
    },
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
      await scheduler.close();
      stopWatching();
      unsubscribeEngine();
    },
  };
}
