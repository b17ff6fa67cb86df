// createEngine(deps): the one way any host (CLI, headless host, Electron) builds the engine. Nothing happens on import.
import { estimateForRepo, type RepoEstimateInput } from './estimate/repo-estimate';
import { estimatePlanFor } from './estimate/estimate-load';
import { listRuns, markInterrupted } from './lifecycle/run-list';
import { existsSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { StepSpec, type RunListItem, type StatusDocument } from '../../shared/domain';
import { money } from '../../shared/money';
import type { Agent } from './agents/agent';
import { createAnthropicAgent } from './agents/anthropic-agent';
import { createCommandAgent } from './agents/command-agent';
import { loadPricing, PricingTable } from './agents/pricing';
import { RatchetError, refuseSteering, runNotFound } from './errors';
import { inspectRepo } from './git/repo-git';
import { applyRunCommands, applyRunEvent } from './run/apply-run-commands';
import { runLife } from './run/run-machine';
import { statusDocument } from './run/status-document';
import { resumeInfo, resumeRun, retryRun, type ContinueOptions } from './lifecycle/run-recovery';
import { writeRunMeta } from './git/run-refs';
import { openDatabase } from './store/open-store';
import { busyMessage, type LeaseOwner } from './store/run-lease';
import { runOwnership } from './lifecycle/run-ownership';
import { Store, type EngineEvent } from './store/store';
import type { LoadedWorkflow } from './workflow/load-workflow';
import type { AgentConfig, StepConfig, Workflow } from './workflow/schema';
import { loadSettings, type UserSettings } from './settings/settings-store';
import { createOsSandbox, type OsSandbox, type RunJail, type SandboxMode, type SandboxStatus } from './sandbox/os-sandbox';
import { sweepPrivateDirsOf } from './sandbox/private-dirs';
import { anthropicApiHost } from './sandbox/sandbox-policy';
import { TrustStore, type TrustEntry } from './store/trust-queries';
import { ReviewStore } from './store/review-queries';
import { createReviewRounds } from './review/review-round';
import { trustItems, type TrustItem } from './trust/trust-items';
import { assertRunTrusted } from './trust/run-trust';
import { createRunNotices } from './notify/run-notices';
import { baselineCheck, type BaselineCheckOptions } from './worktree-env/baseline';
import { resolveTargets } from './notify/notifier';
import { ownRunFacts } from './notify/run-facts';
import { loadSummary, weeklyReport, type ReportSettings } from './stats/stats-report';
import { RunQueue } from './store/run-queue';

import type { EngineDeps, ExecuteOptions, PreparedRun } from './lifecycle/run-options';
import type { EngineContext } from './lifecycle/engine-context';
import { createRunMaker, withoutNotify } from './lifecycle/run-create';
import { createExecute } from './lifecycle/run-loop';
import { createRunStateKeeper } from './lifecycle/run-state-keeper';
import { createOtherWritersWatch } from './lifecycle/other-writers-watch';
import { recoverRuns } from './lifecycle/run-git-recover';
import { runPulls } from './forge/run-pull';
import { createPullLoop } from './forge/pr-loop';

// The variables a command agent gets on top of the allowlist: what it needs to talk to the API (Claude Code's
// long-lived login token too: inside the sandbox its HOME is the run's own folder, so it cannot read ~/.claude).
const COMMAND_AGENT_KEYS = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_BASE_URL', 'CLAUDE_CODE_OAUTH_TOKEN'];

export type { ConfirmNext, EngineDeps, ExecuteOptions, PreparedRun, StartRunInput } from './lifecycle/run-options';
export { slugify } from './lifecycle/run-create';

export type Engine = ReturnType<typeof createEngine>;

const HERE = fileURLToPath(new URL('.', import.meta.url));
export const DEFAULT_PRICING_FILE = resolve(HERE, '../../resources/pricing.json');

export function createEngine(deps: EngineDeps) {
  const now = deps.now ?? (() => new Date());
  const rng = deps.rng ?? Math.random;
  const sleep = deps.sleep ?? ((ms: number, signal: AbortSignal) => delay(ms, undefined, { signal }));
  const home = resolve(deps.home);
  const { db, movedAside, release: releaseStore } = openDatabase(home, now);
  const store = new Store(db, now);
  const trustStore = new TrustStore(db);
  const userPricing = join(home, 'pricing.json');
  // Mutable: Settings can edit prices; runs started afterwards use the new table.
  let pricing: PricingTable = loadPricing(deps.pricingFile ?? (existsSync(userPricing) ? userPricing : DEFAULT_PRICING_FILE));
  const skipControllers = new Map<string, AbortController>();
  // The user's settings (Settings screen, settings.json): below the task and the workflow file, above built-in defaults.
  let userSettings: UserSettings = loadSettings(home);
  const host = hostname();

  const { observe, assertNotHeld, hold, withLease } = runOwnership({
    store,
    host,
    now,
    leaseMs: deps.leaseMs ?? 120_000,
    heartbeatMs: deps.heartbeatMs ?? 5000,
  });
  // One OS sandbox per engine, rebuilt when the user's opt-out changes; each run gets its own jail from it.
  let osSandbox: OsSandbox | null = null;
  // Private folders of finished runs whose process is gone (crashed, killed) are removed here, not left in /tmp forever.
  // Off the start-up path (a start costs the same whatever the history: benchmark P12), and reading the runs only when
  // a folder is there to decide about; a short-lived command closed before it comes leaves the sweep to the next host.
  const sweep = setTimeout(() => sweepPrivateDirsOf(() => store.runWorktrees()), 0);
  sweep.unref();
  function sandbox(): OsSandbox {
    const mode: SandboxMode = deps.sandbox === 'off' || !userSettings.sandbox ? 'off' : 'auto';
    if (!osSandbox || (osSandbox.status.state === 'off') !== (mode === 'off')) osSandbox = createOsSandbox({ mode, ratchetHome: home, env: deps.env });
    return osSandbox;
  }
  function requireSandbox(): void {
    const st = sandbox().status;
    if (st.state === 'unavailable') throw new RatchetError('sandbox_unavailable', st.message ?? 'No OS sandbox is available here.');
  }

  const agentFor =
    deps.agentFor ??
    ((config: AgentConfig, jail?: RunJail): Agent => {
      if (config.kind === 'command') {
        // The one place a command agent's environment is built: the allowlist plus what it needs for the API.
        const base = jail?.env ?? {};
        const keys = Object.fromEntries(COMMAND_AGENT_KEYS.filter((k) => deps.env[k] !== undefined).map((k) => [k, deps.env[k]]));
        return createCommandAgent({
          command: config.command ?? [],
          promptVia: config.prompt_via,
          env: { ...base, ...keys },
          jail,
          apiHosts: [anthropicApiHost(deps.env)],
          pricing,
        });
      }
      return createAnthropicAgent({ apiKey: deps.env.ANTHROPIC_API_KEY, baseURL: deps.env.ANTHROPIC_BASE_URL, pricing, env: jail?.env ?? {}, jail });
    });

  /** Marks runs whose owning process is gone as interrupted (run at start-up and before listing). */
  function detectInterrupted(): string[] {
    return markInterrupted(store, { pid: process.pid, host }, now().getTime());
  }

  /**
   * Whether this content of a repository's workflow file (read once, by the caller) is trusted, its hash, and what it
   * would do (the app's trust prompt; runs.start is then bound to that hash).
   */
  function workflowTrust(repoRoot: string, source: LoadedWorkflow): { trusted: boolean; sha256: string; commands: TrustItem[] } {
    return { trusted: trustStore.isTrusted(repoRoot, source.file, source.sha256), sha256: source.sha256, commands: trustItems(source.workflow) };
  }

  /** The repository's trust answers (`ratchet trust <repo> --list`, Settings): workflow file, trusted hash, when. */
  async function listTrust(repoPath: string): Promise<{ repo: string; entries: TrustEntry[] }> {
    const repo = await inspectRepo(repoPath);
    return { repo: repo.root, entries: trustStore.list(repo.root) };
  }

  /** Forgets what the user trusted in a repository: its workflow file asks again before it runs (retry/resume included). */
  async function revokeTrust(repoPath: string): Promise<{ repo: string; revoked: number }> {
    const repo = await inspectRepo(repoPath);
    return { repo: repo.root, revoked: trustStore.revoke(repo.root) };
  }

  /**
   * An Anthropic agent needs a key before anything starts: a run, a retry or a resume without one would only spend its
   * api_error retries and their backoff (minutes) on an error the user has to fix. Refused at once (exit 2).
   */
  function requireApiKey(workflow: Workflow): void {
    if (workflow.agent.kind === 'anthropic' && !deps.env.ANTHROPIC_API_KEY && !deps.agentFor) {
      throw new RatchetError(
        'bad_arguments',
        'ANTHROPIC_API_KEY is not set. Export your API key (and ANTHROPIC_BASE_URL for a compatible server), or add it in Settings, or use an agent of kind `command`.',
      );
    }
  }

  // Where the engine's parts meet: each part (run creation, the run loop, recovery) is built over this, once.
  const keeper = createRunStateKeeper(store);
  const { settled } = keeper;
  const ctx: EngineContext = {
    deps,
    home,
    now,
    rng,
    sleep,
    store,
    trustStore,
    settings: () => userSettings,
    sandbox,
    requireSandbox,
    requireApiKey,
    agentFor,
    hold,
    skipControllers,
    keeper,
    status,
    /** The run's notifications: the workflow's `notify:` over the user's Settings, key by key. */
    noticesFor: (runId, workflow) =>
      createRunNotices({ store, runId, targets: resolveTargets(workflow.notify, userSettings.notify), costUsd: () => status(runId).costUsd, ...deps.notify }),
    committedSteps: (runId) => store.getSteps(runId).filter((s) => s.status === 'succeeded' && s.commit_sha).length,
    pricing: () => pricing,
  };
  const { prepareRun, createRun, restart, worktreeFor } = createRunMaker(ctx);
  const execute = createExecute(ctx);
  const others = createOtherWritersWatch(store, detectInterrupted);
  const recover = (repoPath: string) => recoverRuns(store, repoPath);

  /** Approves a plan waiting in `waiting_approval` (optionally as edited); the run is then resumed to start it. */
  function approve(runId: string, steps?: StepConfig[]): void {
    const run = store.getRun(runId);
    if (!run) throw runNotFound(runId);
    if (run.status !== 'waiting_approval') throw new RatchetError('bad_arguments', `Run ${runId} is ${run.status}, not waiting for approval.`);
    if (steps) store.revisePlan(runId, steps);
    store.event(runId, 'log', { level: 'info', message: `plan approved${steps ? ' as edited' : ''}` });
    applyRunCommands(store, runId, runLife(runId, { type: 'planApproved' }, now()));
  }

  const executeWith = (lease: LeaseOwner) => (id: string, signal: AbortSignal, opts: ExecuteOptions) => execute(id, signal, { ...opts, lease });

  /** Continue a failed run from the next incomplete step (same run, branch and worktree). */
  /**
   * What a retry or resume needs before it changes anything (steps back to pending, a new round): the API key and the
   * sandbox, as execute checks them. Refused later, the step would lose its error from the resume plan.
   */
  function requireToContinue(runId: string): void {
    const run = store.getRun(runId);
    if (!run) throw runNotFound(runId);
    requireApiKey(store.getWorkflow(runId));
    requireSandbox();
  }

  function retry(runId: string, opts: ContinueOptions) {
    assertRunTrusted(store, trustStore, runId, { trust: opts.trust, now });
    requireToContinue(runId);
    // The lease comes first: a second claimant fails before any recovery step touches the worktree.
    return withLease(runId, (lease) => retryRun(store, executeWith(lease), runId, opts));
  }

  /** Resume an interrupted, paused or waiting run after its checks. */
  function resume(runId: string, opts: ContinueOptions) {
    detectInterrupted();
    assertRunTrusted(store, trustStore, runId, { trust: opts.trust, now });
    requireToContinue(runId);
    // An agent-drafted plan resumes to its approval: it runs only once approved.
    if (store.getRun(runId)?.status === 'waiting_approval') {
      if (!opts.approve)
        throw new RatchetError(
          'needs_approval',
          `Run ${runId} waits for its plan to be approved: \`ratchet resume ${runId} --approve\` (or Approve in the app).`,
        );
      approve(runId);
    }
    return withLease(runId, (lease) => resumeRun(store, executeWith(lease), runId, opts));
  }

  /**
   * Raises a run's task budget (kept with the run); a run paused for its budget then resumes from where it paused.
   * Refuses a budget not above what the run has spent, which would stop it again at once.
   */
  function raiseBudget(runId: string, taskUsd: number): { taskUsd: number; spentUsd: number | null } {
    const run = store.getRun(runId);
    if (!run) throw runNotFound(runId);
    refuseSteering(`Run ${runId}`, run.status, 'raiseBudget');
    if (!Number.isFinite(taskUsd) || taskUsd <= 0) throw new RatchetError('bad_arguments', `A budget is an amount in US dollars above 0 (got ${taskUsd}).`);
    const spent = status(runId).costUsd;
    if (spent !== null && taskUsd <= spent) {
      throw new RatchetError(
        'bad_arguments',
        `Run ${runId} has already spent ${money(spent)}; a task budget of ${money(taskUsd)} would stop it again at once. Give it more than ${money(spent)}.`,
      );
    }
    store.raiseTaskBudget(runId, taskUsd);
    return { taskUsd, spentUsd: spent };
  }

  async function inspectResume(runId: string) {
    detectInterrupted();
    // Said before any plan is shown; the claim itself (resume, retry) is what makes it certain.
    const run = store.getRun(runId);
    if (run) assertNotHeld(run);
    return resumeInfo(store, runId);
  }

  /** A new plan revision; a later retry or resume follows it. Completed steps that still match keep their commits. */
  async function revisePlan(runId: string, steps: StepConfig[]) {
    const run = store.getRun(runId);
    if (!run) throw runNotFound(runId);
    const lease = observe(run);
    if (run.status === 'running' && lease.kind === 'held') {
      throw new RatchetError('run_busy', `${busyMessage(runId, lease)} The new plan would apply from its next retry: stop it first, or revise after it ends.`);
    }
    const result = store.revisePlan(runId, steps);
    const workflow = store.getWorkflow(runId);
    await writeRunMeta(run.repo_path, {
      runId,
      branch: run.branch,
      baseCommit: run.base_commit,
      baseBranch: run.base_branch,
      worktree: run.worktree,
      title: run.task_title,
      description: store.getTaskDescription(runId),
      workflow: withoutNotify(workflow),
      planRevision: result.revision,
      createdAt: run.created_at,
    }).catch(() => undefined);
    return result;
  }

  /** Review comments on a run's change, and the round that sends them to the agent as one more step (review/review-round.ts). */
  const review = createReviewRounds({
    store,
    reviews: new ReviewStore(db, now),
    requireToRun: (runId, trust) => {
      assertRunTrusted(store, trustStore, runId, { trust, now });
      requireToContinue(runId);
    },
    revisePlan,
    runHeld: (runId, fn) => withLease(runId, (lease) => fn((signal) => execute(runId, signal, { lease }))),
  });

  /** A pull request's CI and review rounds: each a new step of the run through its own step machine (forge/pr-loop.ts). */
  const pullLoop = createPullLoop({
    store,
    review,
    requireToRun: (runId, trust) => {
      assertRunTrusted(store, trustStore, runId, { trust, now });
      requireToContinue(runId);
    },
    runStep: (runId, step, signal) =>
      withLease(runId, async (lease) => {
        const plan = store.getPlan(runId);
        if (!plan) throw new RatchetError('no_plan', 'No plan found.');
        await revisePlan(runId, [...plan.steps, StepSpec.parse(step)]);
        return execute(runId, signal, { lease });
      }),
  });

  /** Parked runs whose wake_at has come (the host resumes them). */
  function dueRuns(): string[] {
    const t = now().getTime();
    return store
      .runsWithStatus(['waiting'])
      .filter((r) => r.owner_pid === null && r.wake_at !== null && Date.parse(r.wake_at) <= t)
      .map((r) => r.id);
  }

  /** "Retry now": ends the current backoff wait of a run this process is executing. */
  function retryNow(runId: string): boolean {
    const c = skipControllers.get(runId);
    if (!c) return false;
    c.abort();
    return true;
  }

  function status(runId: string): StatusDocument {
    const run = store.getRun(runId);
    if (!run) throw runNotFound(runId);
    return statusDocument(store, run);
  }

  function list(): RunListItem[] {
    return listRuns(store);
  }

  return {
    /** The engine's own layers (service, team, attempts) and tests reach the store; the hosts do not (index.ts leaves it out). */
    store,
    home,
    /** A run's row, or undefined. */
    runRow: (runId: string) => store.getRun(runId),
    /** Every run's row, newest first. */
    runRows: () => store.listRuns(),
    /** A run's steps' rows. */
    stepRows: (runId: string) => store.getSteps(runId),
    /** A run's plan (its current revision). */
    plan: (runId: string) => store.getPlan(runId),
    /** The interrupted run of the same task in the same repository, if there is one (`ratchet run` offers to resume it). */
    interruptedLike: (repoRoot: string, title: string) => store.interruptedLike(repoRoot, title),
    /** Records a repository (the demo's) under a name. */
    upsertRepo: (path: string, name: string) => store.upsertRepo(path, name),
    /** What a notification about one of this process's runs says (the OS notification's click, its text). */
    runFacts: (runId: string) => ownRunFacts(store, runId),
    /** The dashboard's numbers over the last `days` (`ratchet stats --json`). */
    statsSummary: (days: number, at: Date, opts: ReportSettings) => loadSummary(store.db, days, at, opts),
    /** The weekly report, improvement suggestions included (`ratchet stats`). */
    weeklyReport: (days: number, at: Date, opts: ReportSettings) => weeklyReport(store.db, days, at, opts),
    /** The run queue (its status changes go through the run machine). */
    queue: () => new RunQueue(store, applyRunEvent(store, now), now),
    get pricing() {
      return pricing;
    },
    /** Saves an edited pricing table to $RATCHET_HOME/pricing.json and uses it for new agents. */
    setPricing(table: PricingTable) {
      pricing = PricingTable.parse(table);
      writeFileSync(userPricing, `${JSON.stringify(pricing, null, 2)}\n`);
    },
    movedAside,
    /** Whether commands run in the OS sandbox here; `unavailable` is to be said loudly (CLI stderr, the app's banner). */
    sandboxStatus(): SandboxStatus {
      return sandbox().status;
    },
    /** The user's settings as this engine holds them (settings.json, loaded with the engine; changed by applySettings). */
    settings(): UserSettings {
      return userSettings;
    },
    /** New settings apply to runs started afterwards: worktree folder, and budgets where a workflow sets none. */
    applySettings(settings: UserSettings) {
      userSettings = settings;
    },
    detectInterrupted,
    /** New task's "Check project": the workflow's setup and gates once on the base commit, in this engine's sandbox (see worktree-env/baseline.ts). */
    baselineCheck(input: Omit<BaselineCheckOptions, 'sandbox' | 'env'>) {
      requireSandbox();
      return baselineCheck({ ...input, sandbox: sandbox(), env: deps.env });
    },
    settled,
    prepareRun,
    workflowTrust,
    trustStore,
    listTrust,
    revokeTrust,
    /** Throws `workflow_untrusted` when the trusted workflow version a run started with is no longer trusted (`trust`: trust it again). */
    checkRunTrust: (runId: string, trust = false) => assertRunTrusted(store, trustStore, runId, { trust, now }),
    createRun,
    /** A task's cost and time before it starts, from the runs like it (`ratchet estimate`, New task). */
    estimate: (input: RepoEstimateInput) => estimateForRepo(store.db, pricing, input),
    /** The estimate for a prepared run, with each step's share (what `ratchet run` prints before it starts; createRun records the same, without the shares). */
    estimatePrepared: (p: PreparedRun) =>
      estimatePlanFor(store.db, { repoRoot: p.repoRoot, workflowFile: p.workflowFile, workflow: p.workflow, description: p.description, pricing }),
    worktreeFor,
    /** The run's state as refs/ratchet/<run>/state keeps it (see run-state-keeper.ts): a team worker pushes it to the remote. */
    runState: (runId: string, opts?: { ifDiesNow?: boolean }) => keeper.runStateOf(runId, opts),
    execute,
    retry,
    resume,
    raiseBudget,
    approve,
    restart,
    inspectResume,
    revisePlan,
    review,
    /** A succeeded run's pull request: open or update it, watch its checks and reviews (forge/run-pull.ts). */
    pulls: runPulls(store, pullLoop),
    recover,
    retryNow,
    dueRuns,
    status,
    list,
    onEvent: (fn: (e: EngineEvent) => void) => store.onEvent(fn),
    watchOtherWriters: others.watchOtherWriters,
    close: () => {
      clearTimeout(sweep);
      others.stopAll();
      db.close();
      // A closed engine runs nothing more: let go of the sandbox's proxies (their socat bridges) without being asked.
      void osSandbox?.dispose();
      releaseStore();
    },
    /** Stops the sandbox's network proxies (call when the process is done with runs, e.g. at the end of a CLI command). */
    releaseSandbox: () => osSandbox?.dispose() ?? Promise.resolve(),
  };
}
