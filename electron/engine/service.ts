// The contract's handlers over the engine: what the Electron IPC binding and the headless host both serve. Runs execute in the background here.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StatusDocument, StepSpec } from '../../shared/domain';
import type { CallError, EventName, Handlers, ResumeInfoDoc, RunSummary, Settings } from '../../shared/contract';
import { ContractError } from '../../shared/contract';
import { draftPlan } from './agents/plan-draft';
import { withRetryConfig } from './runs/task-retry-config';
import type { Engine } from './engine';
import { RatchetError } from './errors';
import { inspectRepo } from './git/repo-git';
import { loadSettings, saveSettings, type UserSettings } from './settings-store';
import { loadStats, reportMarkdown } from './stats';
import type { RunRow } from './store/store';
import { parseWorkflow } from './workflow/load-workflow';
import { WorkflowFile, type Workflow } from './workflow/schema';

export interface SecretStore {
  source: 'safe_storage' | 'environment' | 'none';
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
}

const TERMINAL_NOTICE: Record<string, { level: 'info' | 'warn' | 'error'; title: string }> = {
  succeeded: { level: 'info', title: 'Run succeeded' },
  failed: { level: 'error', title: 'Run failed' },
  paused: { level: 'warn', title: 'Run needs you' },
};

export function toCallError(err: unknown): CallError {
  if (err instanceof RatchetError || err instanceof ContractError) return { code: err.code, message: err.message };
  return { code: 'internal', message: err instanceof Error ? err.message : String(err) };
}

export function createService(engine: Engine, opts: ServiceOptions): Service {
  const now = opts.now ?? (() => new Date());
  const listeners = new Set<Listener>();
  const running = new Map<string, { controller: AbortController; done: Promise<unknown> }>();
  const emit: Listener = (event, payload) => {
    for (const l of listeners) l(event, payload);
  };
  const unsubscribeEngine = engine.onEvent((e) => {
    emit('runs.onEvent', e);
    if (e.type === 'run.status') {
      const notice = TERMINAL_NOTICE[String(e.payload.status)];
      const run = engine.store.getRun(e.runId);
      if (notice && run) {
        emit('app.onNotice', { level: notice.level, title: `${notice.title}: ${run.task_title}`, body: String(e.payload.reason ?? '').split('\n')[0] ?? '', runId: e.runId });
      }
    }
    if (e.type === 'budget.alert') {
      emit('app.onNotice', { level: 'warn', title: 'Budget alert', body: `${String(e.payload.kind)} budget: $${Number(e.payload.spentUsd).toFixed(2)} of $${Number(e.payload.limitUsd).toFixed(2)} spent`, runId: e.runId });
    }
  });
  // Runs other processes execute on the same store (the CLI) stream in like this process's own.
  const stopWatching = engine.watchOtherWriters(opts.watchMs);
  let settings: UserSettings = loadSettings(engine.home);
  engine.applySettings(settings);

  const secrets: SecretStore = opts.secrets ?? {
    source: opts.env.ANTHROPIC_API_KEY ? 'environment' : 'none',
    warning: null,
    get: () => opts.env.ANTHROPIC_API_KEY ?? null,
    set: () => {
      throw new RatchetError('bad_arguments', 'The headless host reads the API key from ANTHROPIC_API_KEY in its environment; set it there and restart `ratchet serve`.');
    },
  };
  const storedKey = secrets.get();
  if (storedKey) opts.env.ANTHROPIC_API_KEY = storedKey;

  /** Starts `fn` in the background; its outcome arrives as engine events. */
  function launch(runId: string, fn: (signal: AbortSignal) => Promise<unknown>): void {
    if (running.has(runId)) throw new RatchetError('run_busy', `Run ${runId} is already running here.`);
    const controller = new AbortController();
    const done = fn(controller.signal)
      .catch((err: unknown) => emit('app.onNotice', { level: 'error', title: 'Run stopped with an error', body: toCallError(err).message, runId }))
      .finally(() => running.delete(runId));
    running.set(runId, { controller, done });
  }

  function summary(run: RunRow): RunSummary {
    const steps = engine.store.getSteps(run.id);
    const doc = engine.status(run.id);
    return {
      id: run.id, status: run.status, repo: run.repo_path, branch: run.branch, createdAt: run.created_at, title: run.task_title,
      reason: run.reason, wakeAt: run.wake_at, updatedAt: run.updated_at,
      stepsDone: steps.filter((s) => s.status === 'succeeded').length, stepsTotal: steps.filter((s) => s.status !== 'skipped').length,
      costUsd: doc.costUsd,
    };
  }

  function settingsDoc(): Settings {
    return {
      apiKeySet: Boolean(secrets.get()),
      apiKeySource: secrets.get() ? secrets.source : 'none',
      apiKeyWarning: secrets.warning,
      defaultModel: settings.defaultModel,
      preset: settings.preset,
      budget: settings.budget,
      notifications: settings.notifications,
      notify: settings.notify,
      worktreeFolder: settings.worktreeFolder,
      sandbox: settings.sandbox,
      sandboxStatus: engine.sandboxStatus(),
      pricing: engine.pricing.models,
    };
  }

  function workflowFromApp(input: { steps: StepSpec[]; gates?: Record<string, string>; preset?: Workflow['preset']; budgetUsd?: number }): Workflow {
    const parsed = WorkflowFile.safeParse({
      gates: input.gates ?? {},
      agent: { model: settings.defaultModel },
      preset: input.preset ?? settings.preset,
      budget: {
        ...(input.budgetUsd ?? settings.budget.taskUsd ? { task_usd: input.budgetUsd ?? settings.budget.taskUsd } : {}),
        ...(settings.budget.dailyUsd ? { daily_usd: settings.budget.dailyUsd } : {}),
        alert_at: settings.budget.alertAt,
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

  const handlers: Handlers = {
    'app.info': async () => ({ version: opts.version, host: opts.host, demo: Boolean(opts.demo), home: engine.home }),
    'repos.inspect': async ({ path }) => inspectRepo(path),
    'repos.recent': async () =>
      (engine.store.db.prepare(
        `SELECT repos.path, repos.name, COALESCE(MAX(runs.created_at), repos.created_at) AS lastUsed FROM repos
         LEFT JOIN runs ON runs.repo_id = repos.id GROUP BY repos.id ORDER BY lastUsed DESC LIMIT 10`,
      ).all() as Array<{ path: string; name: string; lastUsed: string }>).filter((r) => existsSync(r.path)),
    'repos.pick': async () => ({ path: opts.pickRepo ? await opts.pickRepo() : null }),
    'workflow.load': async ({ repo }) => {
      const info = await inspectRepo(repo);
      const file = [join(info.root, 'ratchet.yml'), join(info.root, '.ratchet', 'workflow.yml')].find((f) => existsSync(f)) ?? null;
      if (!file) return { file: null, steps: [], gates: {}, problems: [], trust: null };
      const parsed = parseWorkflow(readFileSync(file, 'utf8'));
      if (!parsed.ok) return { file, steps: [], gates: {}, problems: parsed.problems.map((p) => `${p.line ? `line ${p.line}: ` : ''}${p.path}: ${p.message}`), trust: null };
      return {
        file, steps: parsed.workflow.steps, gates: Object.fromEntries(Object.entries(parsed.workflow.gates).map(([k, g]) => [k, g.run])), problems: [],
        trust: engine.workflowTrust(info.root, file, parsed.workflow),
      };
    },
    'plans.draft': async ({ repo, title, description }) => {
      const info = await inspectRepo(repo);
      const files = readdirSync(info.root).filter((f) => !f.startsWith('.')).slice(0, 40);
      return draftPlan({
        apiKey: opts.env.ANTHROPIC_API_KEY, baseURL: opts.env.ANTHROPIC_BASE_URL, model: settings.defaultModel, title, description,
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
    'runs.list': async () => {
      engine.detectInterrupted();
      return engine.store.listRuns().map(summary);
    },
    'runs.get': async ({ runId }): Promise<StatusDocument> => engine.status(runId),
    'runs.attempt': async ({ runId, step, n }) => {
      const a = engine.store.getAttempts(runId, step).find((x) => x.n === n);
      if (!a) throw new RatchetError('run_not_found', `Run ${runId} has no attempt ${n} at step ${step}.`);
      return {
        runId, step, n, outcome: a.outcome, errorClass: a.error_class, errorMessage: a.error_message, model: a.model, agentKind: a.agent_kind,
        prompt: a.prompt, transcript: JSON.parse(a.transcript_json) as never, gates: engine.store.getGateResults(a.id).map(({ id: _id, ...g }) => g) as never,
        diff: a.diff, decision: a.decision_json ? JSON.parse(a.decision_json) : null, fingerprint: a.fingerprint, startedAt: a.started_at, finishedAt: a.finished_at,
        inputTokens: a.input_tokens, outputTokens: a.output_tokens, cacheReadTokens: a.cache_read_tokens, cacheWriteTokens: a.cache_write_tokens,
        costUsd: a.cost_known ? a.cost_usd : null,
      };
    },
    'runs.events': async ({ runId, afterId }) => engine.store.eventsSince(runId, afterId),
    'runs.start': async (input) => {
      const r = input.retry;
      const description = r ? withRetryConfig(input.description, { max_retries: r.maxRetries, timeout_seconds: r.timeoutSeconds, allow_retry_on: r.allowRetryOn }) : input.description;
      const prepared = await engine.prepareRun({
        repo: input.repo, title: input.title, description, workflowFile: input.workflowFile,
        // The app's only workflow file is the repository's own (workflow.load): it needs the user's trust.
        repoWorkflow: input.workflowFile !== undefined, trust: input.trust,
        workflow: input.steps ? workflowFromApp({ steps: input.steps, gates: input.gates, preset: input.preset, budgetUsd: input.budgetUsd }) : undefined,
      });
      const runId = await engine.createRun(prepared);
      launch(runId, (signal) => engine.execute(runId, signal));
      return { runId };
    },
    'runs.retry': async ({ runId }) => {
      await engine.inspectResume(runId);
      launch(runId, (signal) => engine.retry(runId, { signal }));
      return { ok: true as const };
    },
    'runs.resumeInfo': async ({ runId }) => resumeDoc(await engine.inspectResume(runId)),
    'runs.interrupted': async () => {
      engine.detectInterrupted();
      return engine.store.listRuns().filter((r) => r.status === 'interrupted').map(summary);
    },
    'runs.resume': async ({ runId, choices, auto, skipStep }) => {
      launch(runId, (signal) => engine.resume(runId, { signal, choices: choices as never, auto, skipStep }));
      return { ok: true as const };
    },
    'runs.approve': async ({ runId, steps }) => {
      engine.approve(runId, steps);
      launch(runId, (signal) => engine.resume(runId, { signal }));
      return { ok: true as const };
    },
    'runs.raiseBudget': async ({ runId, taskUsd }) => engine.raiseBudget(runId, taskUsd),
    'runs.stop': async ({ runId }) => {
      const r = running.get(runId);
      if (r) {
        r.controller.abort();
        await r.done;
      } else {
        const run = engine.store.getRun(runId);
        if (!run) throw new RatchetError('run_not_found', `No run with id ${runId}.`);
        if (run.status === 'waiting') engine.store.setRunStatus(runId, 'paused', 'Stopped while waiting; resume to continue.');
      }
      return { ok: true as const };
    },
    'runs.retryNow': async ({ runId }) => ({ skipped: engine.retryNow(runId) }),
    'runs.skipStep': async ({ runId, step }) => {
      if (running.has(runId)) throw new RatchetError('run_busy', 'Stop the run before skipping a step; resume continues after it.');
      const s = engine.store.getSteps(runId).find((x) => x.step_index === step);
      if (!s) throw new RatchetError('run_not_found', `Run ${runId} has no step ${step}.`);
      if (s.status === 'succeeded') throw new RatchetError('bad_arguments', `Step ${step} is already committed.`);
      engine.store.setStepStatus(runId, step, 'skipped');
      return { ok: true as const };
    },
    'stats.summary': async ({ days }) => loadStats(engine.store, days, now(), settings.budget.dailyUsd),
    'stats.report': async ({ days }) => ({ markdown: reportMarkdown(loadStats(engine.store, days, now(), settings.budget.dailyUsd), now()) }),
    'settings.get': async () => settingsDoc(),
    'settings.set': async (patch) => {
      const { pricing, ...rest } = patch;
      settings = { ...settings, ...rest, budget: { ...settings.budget, ...rest.budget } } as UserSettings;
      saveSettings(engine.home, settings);
      engine.applySettings(settings);
      if (pricing) engine.setPricing({ models: pricing });
      return settingsDoc();
    },
    'settings.setApiKey': async ({ key }) => {
      await secrets.set(key);
      if (key) opts.env.ANTHROPIC_API_KEY = key;
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
    active: () => [...running.keys()],
    wakeDue() {
      const due = engine.dueRuns().filter((id) => !running.has(id));
      for (const id of due) launch(id, (signal) => engine.resume(id, { signal }));
      return due;
    },
    async close() {
      for (const r of running.values()) r.controller.abort();
      await Promise.all([...running.values()].map((r) => r.done));
      stopWatching();
      unsubscribeEngine();
    },
  };
}
