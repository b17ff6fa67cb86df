// createEngine(deps): the one way any host (CLI, headless host, Electron) builds the engine. Nothing happens on import.
import { listRuns, markInterrupted } from './run-list';
import { apiKeyHash } from './runs/api-hold';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { RunListItem, StatusDocument } from '../../shared/domain';
import { money } from '../../shared/money';
import type { Agent } from './agents/agent';
import { createAnthropicAgent } from './agents/anthropic-agent';
import { createCommandAgent } from './agents/command-agent';
import { loadPricing, PricingTable } from './agents/pricing';
import { isUserStop, RatchetError } from './errors';
import { autoProgressReason, runEndReason } from './runs/run-reasons';
import { findMissingCommand } from './gates/run-gate';
import { branchExists, createWorktree, git, inspectRepo, rescueCommit } from './git/repo-git';
import { progressNote, taskContext, systemPrompt } from './runs/prompts';
import { statusDocument } from './runs/status-document';
import { stepPolicies } from './runs/policy-doc';
import { raisedTaskBudget } from './runs/status-document';
import { parseTaskRetryConfig } from './runs/task-retry-config';
import { checkEntries } from './runs/retry-entries';
import { runStep } from './runs/step-runner';
import { reconcileWithGit, resumeInfo, resumeRun, retryRun, type ContinueOptions } from './run-recovery';
import { clearStaleLocks, readRunMetas, readRunState, writeRunMeta, writeRunState, type RunState } from './git/run-refs';
import { adoptableWorktree } from './git/worktree-integrity';
import { openDatabase } from './store/open-store';
import { busyMessage, type LeaseOwner } from './store/run-lease';
import { runOwnership } from './run-ownership';
import { newId, Store, type EngineEvent } from './store/store';
import { findWorkflowFile, loadWorkflowSource, type LoadedWorkflow } from './workflow/load-workflow';
import { withTaskSteps } from './workflow/task-steps';
import { WorkflowFile, type AgentConfig, type StepConfig, type Workflow } from './workflow/schema';
import { loadSettings, type UserSettings } from './settings-store';
import { createOsSandbox, type OsSandbox, type RunJail, type SandboxMode, type SandboxStatus } from './sandbox/os-sandbox';
import { sweepPrivateDirsOf } from './sandbox/private-dirs';
import { anthropicApiHost } from './sandbox/sandbox-policy';
import { TrustStore, type TrustEntry } from './trust/workflow-trust';
import { checkTrust } from './trust/check-trust';
import { trustItems, type TrustItem } from './trust/trust-items';
import { assertRunTrusted, recordRunTrust, runTrust, type RunWorkflowTrust } from './trust/run-trust';
import { createRunNotices, type RunNoticesOptions } from './notify/run-notices';
import { prepareRunEnvironment, type WorktreeEnvHooks } from './worktree-env/run-environment';
import { baselineNote } from './worktree-env/prepare-worktree';
import { baselineCheck, type BaselineCheckOptions } from './worktree-env/baseline';
import { resolveTargets } from './notify/notifier';

export interface EngineDeps {
  /** All state: the database and the worktrees. */
  home: string;
  env: NodeJS.ProcessEnv;
  now?: () => Date;
  rng?: () => number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Builds the agent for a run; tests and the demo may swap it. */
  agentFor?: (config: AgentConfig, jail?: RunJail) => Agent;
  pricingFile?: string;
  /** How often the owner of a run renews its lease (default 5 s). */
  heartbeatMs?: number;
  /** How long a lease lasts without renewal before another process may take the run over (default 120 s). */
  leaseMs?: number;
  /** `off` (the CLI's --no-sandbox) runs without the OS sandbox; `auto` (default) sandboxes, or refuses where there is none. */
  sandbox?: SandboxMode;
  /** Notification delivery (ntfy, webhook): tests shorten its timeouts; the targets come from the workflow and Settings. */
  notify?: Pick<RunNoticesOptions, 'tuning' | 'flushMs' | 'fetch'>;
}

// The variables a command agent gets on top of the allowlist: what it needs to talk to the API (Claude Code's
// long-lived login token too: inside the sandbox its HOME is the run's own folder, so it cannot read ~/.claude).
const COMMAND_AGENT_KEYS = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_BASE_URL', 'CLAUDE_CODE_OAUTH_TOKEN'];

export interface StartRunInput {
  repo: string;
  workflowFile?: string;
  /** A workflow built in the app (already validated); takes the place of a file. */
  workflow?: Workflow;
  title?: string;
  description?: string;
  /** The user trusts the repository's own workflow file as it is now (`--trust`, or the app's Trust button). */
  trust?: boolean;
  /** The hash of the workflow content the user was shown (the prompt, the app's workflow.load): any other content is refused. */
  trustSha256?: string;
  /** `workflowFile` is the repository's own file found for the user (the app), not one the user named: it needs trust. */
  repoWorkflow?: boolean;
  /** Steps written for this task in place of the file's (the app's plan over the repository's workflow file). */
  steps?: StepConfig[];
  /** The plan comes later (`--draft`): a workflow file without steps is fine. */
  planLater?: boolean;
}

export interface PreparedRun {
  repoRoot: string;
  repoName: string;
  headCommit: string;
  baseBranch: string | null;
  workflow: Workflow;
  workflowFile: string;
  title: string;
  description: string;
  /** Set when the workflow is the repository's own file: the trusted version the run starts from. */
  trustedWorkflow?: RunWorkflowTrust;
  /** With trustedWorkflow: what that version runs and allows (`ratchet trust` prints it). */
  trustItems?: TrustItem[];
}

export type Engine = ReturnType<typeof createEngine>;

export interface ExecuteOptions {
  /** Set when a run continues (retry or resume): the prompt lists the completed step commits and where to continue. */
  continuation?: { turnBudget: number | null; /** What the agent must know before it continues (the base moved and conflicts). */ notes?: readonly string[] };
  auto?: 'step' | 'phase' | 'run';
  /** The lease the caller took (resume, retry); without one, execute takes it. */
  lease?: LeaseOwner;
  /**
   * Interactive auto-progress (seed 003 §5.1): with `auto: 'step'`, asked after each step instead of pausing —
   * `yes` goes on one more step, `no` pauses here, `auto` runs to the end of the phase.
   */
  confirmNext?: ConfirmNext;
}

export type ConfirmNext = (q: { done: { index: number; title: string }; next: { index: number; title: string; phase: string | null }; total: number }) => Promise<'yes' | 'no' | 'auto'>;

const HERE = fileURLToPath(new URL('.', import.meta.url));
export const DEFAULT_PRICING_FILE = resolve(HERE, '../../resources/pricing.json');

/** The workflow as written into the repository's meta ref: without `notify`, whose URLs may carry a token (they stay in Ratchet's store). */
function withoutNotify(workflow: Workflow): Workflow {
  const { notify: _notify, ...rest } = workflow;
  return rest;
}

export function slugify(text: string): string {
  return (
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40)
      .replace(/-+$/, '') || 'task'
  );
}

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

  const { observe, assertNotHeld, hold, withLease } = runOwnership({ store, host, now, leaseMs: deps.leaseMs ?? 120_000, heartbeatMs: deps.heartbeatMs ?? 5000 });
  // One OS sandbox per engine, rebuilt when the user's opt-out changes; each run gets its own jail from it.
  let osSandbox: OsSandbox | null = null;
  // Private folders of finished runs whose process is gone (crashed, killed) are removed here, not left in /tmp forever.
  sweepPrivateDirsOf(store.listRuns());
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
        return createCommandAgent({ command: config.command ?? [], promptVia: config.prompt_via, env: { ...base, ...keys }, jail, apiHosts: [anthropicApiHost(deps.env)], pricing });
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

  /** Validates everything about a new run without changing anything (except recording trust the user gave). */
  async function prepareRun(input: StartRunInput): Promise<PreparedRun> {
    const repo = await inspectRepo(input.repo);
    let workflowFile = input.workflowFile ? resolve(input.workflowFile) : undefined;
    if (input.workflow) workflowFile = '(written in the app)';
    else if (!workflowFile) {
      workflowFile = findWorkflowFile(repo.root) ?? undefined;
      if (!workflowFile) {
        throw new RatchetError('workflow_missing', `No workflow: ${repo.root} has no ratchet.yml or .ratchet/workflow.yml. Run \`ratchet init ${repo.root}\` to write one from what the repository uses, or pass --workflow <file>.`);
      }
    }
    // Read once: the content hashed for trust is the content that runs.
    const source = input.workflow ? null : loadWorkflowSource(workflowFile as string);
    const workflow = withTaskSteps(input.workflow ?? source!.workflow, input, workflowFile as string);
    // Workspace trust: a workflow file found in the repository (not one the user named) runs only once trusted.
    const trustedWorkflow = source && (!input.workflowFile || input.repoWorkflow)
      ? checkTrust(trustStore, repo.root, source, { trust: Boolean(input.trust), shownSha256: input.trustSha256, now })
      : undefined;
    const entryErrors = checkEntries(workflow.retry ?? []).filter((m) => m.level === 'error');
    if (entryErrors.length) {
      throw new RatchetError('workflow_invalid', `The workflow's retry list is not valid:\n${entryErrors.map((m) => `${workflowFile}: retry${m.entry !== null ? `[${m.entry}]` : ''}: ${m.message}`).join('\n')}\nCheck it with \`ratchet check ${workflowFile}\`.`);
    }
    const used = new Set(workflow.steps.flatMap((s) => s.gates ?? Object.keys(workflow.gates)));
    for (const name of used) {
      const gate = workflow.gates[name];
      if (!gate) continue;
      const missing = findMissingCommand(gate.run, repo.root, deps.env);
      // With a setup, the command may be what setup installs in the worktree: the baseline check says if it still is missing.
      if (missing && !workflow.setup) {
        throw new RatchetError(
          'gate_command_missing',
          `Gate \`${name}\` runs \`${gate.run}\`, but \`${missing}\` was not found (PATH or the repository). Install it or fix the gate's \`run\` in ${workflowFile}.`,
        );
      }
    }
    requireApiKey(workflow);
    requireSandbox();
    const title = input.title?.trim() || workflow.task?.title || workflow.steps[0]?.title || 'Task';
    const description = input.description ?? workflow.task?.description ?? '';
    // A bad "## Retry Configuration" block is refused before anything starts (exit 2), not found mid-run.
    parseTaskRetryConfig(description);
    const { taskUsd, dailyUsd, alertAt } = userSettings.budget;
    const withBudget: Workflow = workflow.budget || (taskUsd === null && dailyUsd === null)
      ? workflow
      : { ...workflow, budget: { ...(taskUsd !== null ? { task_usd: taskUsd } : {}), ...(dailyUsd !== null ? { daily_usd: dailyUsd } : {}), alert_at: alertAt } };
    return {
      repoRoot: repo.root,
      repoName: repo.name,
      headCommit: repo.headCommit,
      baseBranch: repo.branch,
      workflow: withBudget,
      workflowFile: workflowFile as string,
      title,
      description,
      ...(trustedWorkflow ? { trustedWorkflow, trustItems: trustItems(workflow) } : {}),
    };
  }

  /**
   * "Start again": a new run of the same task (title, description) with the plan the run follows now and the workflow it
   * was started with, from the repository's current HEAD. The old run is left as it is. A run started from the
   * repository's own workflow file keeps to the version trusted then (refused, as a retry is, if that trust no longer stands).
   */
  async function restart(runId: string, opts: { trust?: boolean } = {}): Promise<string> {
    const run = store.getRun(runId);
    if (!run) throw new RatchetError('run_not_found', `No run with id ${runId}. See \`ratchet list\`.`);
    if (['running', 'planning', 'queued'].includes(run.status)) throw new RatchetError('run_busy', `Run ${runId} is ${run.status}; stop it before starting it again.`);
    assertRunTrusted(store, trustStore, runId, { trust: opts.trust, now });
    const trusted = runTrust(store, runId);
    const plan = store.getPlan(runId);
    const workflow = store.getWorkflow(runId);
    const prepared = await prepareRun({
      repo: run.repo_path, title: run.task_title, description: store.getTaskDescription(runId),
      workflow: plan ? { ...workflow, steps: plan.steps } : workflow,
    });
    const fresh = await createRun(trusted ? { ...prepared, trustedWorkflow: trusted } : prepared);
    store.event(runId, 'log', { level: 'info', message: `started again as run ${fresh}` });
    store.event(fresh, 'log', { level: 'info', message: `started again from run ${runId}` });
    return fresh;
  }

  /** `awaitApproval`: an agent-drafted plan — the run waits in `waiting_approval` until `approve`. */
  async function createRun(p: PreparedRun, opts: { awaitApproval?: boolean } = {}): Promise<string> {
    const runId = newId();
    const short = runId.slice(-6);
    const branch = `ratchet/${slugify(p.title)}-${short}`;
    // Settings' worktree folder, else RATCHET_WORKTREES, else $RATCHET_HOME/worktrees.
    const worktreeRoot = userSettings.worktreeFolder ? resolve(userSettings.worktreeFolder) : deps.env.RATCHET_WORKTREES ? resolve(deps.env.RATCHET_WORKTREES) : join(home, 'worktrees');
    mkdirSync(worktreeRoot, { recursive: true });
    const worktree = join(worktreeRoot, `${slugify(p.repoName)}-${short}`);
    // Git first, the database last: a kill at any point leaves either nothing the store knows about (a stray
    // branch at most), a run `ratchet recover` can rebuild from its meta ref, or a complete resumable run.
    try {
      await createWorktree(p.repoRoot, worktree, branch, p.headCommit);
      await writeRunMeta(p.repoRoot, {
        runId, branch, baseCommit: p.headCommit, baseBranch: p.baseBranch, worktree, title: p.title, description: p.description,
        workflow: withoutNotify(p.workflow), planRevision: 1, createdAt: now().toISOString(),
      });
    } catch (err) {
      throw new RatchetError('worktree_failed', `Could not create the worktree at ${worktree}: ${(err as Error).message}. Nothing was started; check the folder and the repository, then run again.`, { cause: err });
    }
    store.createRun({
      runId, repoPath: p.repoRoot, repoName: p.repoName, title: p.title, description: p.description, workflow: p.workflow,
      baseBranch: p.baseBranch, baseCommit: p.headCommit, branch, worktree,
    });
    if (p.trustedWorkflow) recordRunTrust(store, runId, p.trustedWorkflow);
    if (opts.awaitApproval) {
      store.setRunStatus(runId, 'waiting_approval', `The agent drafted this plan; nothing runs until you approve it (\`ratchet resume ${runId} --approve\`, or Approve in the app).`);
      const notes = noticesFor(runId, p.workflow);
      notes.needsYou(null, 'approval');
      await notes.flush();
    }
    return runId;
  }

  /**
   * An Anthropic agent needs a key before anything starts: a run, a retry or a resume without one would only spend its
   * api_error retries and their backoff (minutes) on an error the user has to fix. Refused at once (exit 2).
   */
  function requireApiKey(workflow: Workflow): void {
    if (workflow.agent.kind === 'anthropic' && !deps.env.ANTHROPIC_API_KEY && !deps.agentFor) {
      throw new RatchetError('bad_arguments', 'ANTHROPIC_API_KEY is not set. Export your API key (and ANTHROPIC_BASE_URL for a compatible server), or add it in Settings, or use an agent of kind `command`.');
    }
  }

  /** The writes of each run's state in git, one after the other: a new execution's "running" never lands before the last end. */
  const stateWrites = new Map<string, Promise<void>>();

  /** Writes the run's state (as `runStateOf` read it, or as it is now) to refs/ratchet/<run>/state in its repository (see run-refs.ts). */
  function keepRunState(runId: string, state: { repo: string; state: RunState } | null = runStateOf(runId)): Promise<void> {
    if (!state) return Promise.resolve();
    const write = (stateWrites.get(runId) ?? Promise.resolve()).catch(() => undefined).then(() => writeRunState(state.repo, runId, state.state));
    stateWrites.set(runId, write);
    return write.finally(() => {
      if (stateWrites.get(runId) === write) stateWrites.delete(runId);
    });
  }

  /** Resolves once every run state still being written to git is written (a CLI process waits for it before it exits). */
  async function settled(): Promise<void> {
    while (stateWrites.size) await Promise.allSettled([...stateWrites.values()]);
  }

  /** The run's status, steps and attempts as they stand in the store now. */
  function runStateOf(runId: string): { repo: string; state: RunState } | null {
    const run = store.getRun(runId);
    if (!run) return null;
    return { repo: run.repo_path, state: {
      status: run.status, reason: run.reason, finishedAt: run.finished_at,
      steps: store.getSteps(runId).map((s) => ({ index: s.step_index, status: s.status, commit: s.commit_sha })),
      attempts: store.getAttempts(runId).filter((a) => a.outcome !== 'running').map((a) => ({
        step: a.step_index, n: a.n, round: a.round, outcome: a.outcome, errorClass: a.error_class, errorMessage: a.error_message, summary: a.summary,
        agentKind: a.agent_kind, model: a.model, treeRef: a.tree_ref, treeSha: a.tree_sha, failures: JSON.parse(a.failures_json) as unknown[],
        decision: a.decision_json ? (JSON.parse(a.decision_json) as unknown) : null, inputTokens: a.input_tokens, outputTokens: a.output_tokens,
        cacheReadTokens: a.cache_read_tokens, cacheWriteTokens: a.cache_write_tokens, costUsd: a.cost_known ? a.cost_usd : null,
        startedAt: a.started_at, finishedAt: a.finished_at,
      })),
    } };
  }

  /** Steps whose commit is on the run's branch (what Retry can continue from). */
  function committedSteps(runId: string): number {
    return store.getSteps(runId).filter((s) => s.status === 'succeeded' && s.commit_sha).length;
  }

  /** The run's notifications: the workflow's `notify:` over the user's Settings, key by key. */
  function noticesFor(runId: string, workflow: Workflow) {
    return createRunNotices({ store, runId, targets: resolveTargets(workflow.notify, userSettings.notify), costUsd: () => status(runId).costUsd, ...deps.notify });
  }

  /** Approves a plan waiting in `waiting_approval` (optionally as edited); the run is then resumed to start it. */
  function approve(runId: string, steps?: StepConfig[]): void {
    const run = store.getRun(runId);
    if (!run) throw new RatchetError('run_not_found', `No run with id ${runId}. See \`ratchet list\`.`);
    if (run.status !== 'waiting_approval') throw new RatchetError('bad_arguments', `Run ${runId} is ${run.status}, not waiting for approval.`);
    if (steps) store.revisePlan(runId, steps);
    store.event(runId, 'log', { level: 'info', message: `plan approved${steps ? ' as edited' : ''}` });
    store.setRunStatus(runId, 'paused', 'Plan approved; resume to start it.');
  }

  /** Executes the run's remaining steps in this process. Resolves with the final status document. */
  /**
   * Executes the run's remaining steps in this process and resolves with the final status document. Before anything
   * else it makes the store agree with the branch (a crash may have left a commit without its checkpoint, a lock, or a
   * half-finished attempt), so every path — first run, retry, resume — starts from what git says is done.
   */
  async function execute(runId: string, callerSignal: AbortSignal, opts: ExecuteOptions = {}): Promise<StatusDocument> {
    const run = store.getRun(runId);
    if (!run) throw new RatchetError('run_not_found', `No run with id ${runId}. See \`ratchet list\`.`);
    const workflow = store.getWorkflow(runId);
    const plan = store.getPlan(runId);
    if (!plan) throw new RatchetError('no_plan', 'No plan found.');
    if (run.status === 'waiting_approval') throw new RatchetError('needs_approval', `Run ${runId} waits for its plan to be approved: \`ratchet resume ${runId} --approve\` (or Approve in the app).`);
    requireApiKey(workflow);
    requireSandbox();
    // One owner per run: the caller's lease (resume, retry) or a new one (run_busy if another process holds it).
    // Taken before the first await: a run without an owner meanwhile would be taken for an interrupted one.
    const held = hold(runId, opts.lease);
    let jail: Awaited<ReturnType<ReturnType<typeof sandbox>['forRun']>>;
    try {
      jail = await sandbox().forRun({ worktree: run.worktree, repo: run.repo_path, network: workflow.sandbox?.network ?? [], envNames: workflow.sandbox?.env ?? [], limits: workflow.sandbox?.limits });
    } catch (err) {
      held.release();
      throw err;
    }
    // Losing the lease (another process took the run over after it ran out) stops this execution.
    const signal = AbortSignal.any([callerSignal, held.lost]);
    store.closeDeadAttempts(runId);
    clearStaleLocks(run.repo_path, run.worktree);
    const recon = await reconcileWithGit(store, run).catch((err: unknown) => {
      held.release();
      throw err;
    });
    if (recon.completed.length === store.getSteps(runId).filter((s) => s.status !== 'skipped').length && recon.next === null) {
      store.setRunStatus(runId, 'succeeded', null, { finished: true });
      jail.release();
      held.release();
      return status(runId);
    }
    store.setRunStatus(runId, 'running', null);
    // Kept as running until this execution ends: a process that dies now is recovered as interrupted, not as it ended before.
    await keepRunState(runId).catch(() => undefined);
    // One agent per kind and model for the whole run, so `session: continue` finds its conversation.
    const agents = new Map<string, Agent>();
    const agentForRun = (config: AgentConfig): Agent => {
      const key = `${config.kind}:${config.model}:${(config.command ?? []).join(' ')}`;
      let a = agents.get(key);
      if (!a) {
        a = agentFor(config, jail);
        agents.set(key, a);
      }
      return a;
    };
    // Each step gets its own policy: workflow < the task's "## Retry Configuration" < the step's keys < a raised budget.
    const policies = stepPolicies(workflow, parseTaskRetryConfig(store.getTaskDescription(runId)), plan.steps, raisedTaskBudget(run));
    const system = systemPrompt(run.worktree);
    const completedCommits = recon.completed.map((c) => ({ sha: c.sha, subject: c.subject }));
    // The context is the one the run started with (cached across a retry); the progress goes with the continued step's prompt.
    let context = taskContext({ title: run.task_title, description: store.getTaskDescription(runId), steps: plan.steps });
    const progress = opts.continuation ? progressNote({ completed: completedCommits, from: recon.next ?? 1, notes: opts.continuation.notes }) : undefined;
    const workflowForRun = opts.continuation?.turnBudget ? { ...workflow, agent: { ...workflow.agent, max_turns: Math.min(workflow.agent.max_turns, opts.continuation.turnBudget) } } : workflow;
    let firstPhase: string | null | undefined;
    let stepsRun = 0;
    // HEAD after the step just committed; forgotten whenever the user had the worktree between steps.
    let head: string | undefined;
    let auto = opts.auto;
    let lastRun: { index: number; title: string; phase: string | null } | null = null;
    const skip = () => {
      const c = new AbortController();
      skipControllers.set(runId, c);
      return c.signal;
    };
    // Notifications go out from here (the engine's process, never the sandbox); they never hold the run up.
    const notes = noticesFor(runId, workflow);
    const notify = { succeededAfterRetry: notes.stepSucceededAfterRetry, budgetAlert: notes.budgetAlert };
    let worktreeEnv: WorktreeEnvHooks | undefined;
    try {
      // The worktree's environment before any agent money: copy, dependencies, setup, the gates' view of the code, the baseline check.
      const ready = await prepareRunEnvironment({
        store, runId, checkout: run.repo_path, worktree: run.worktree, baseCommit: run.base_commit, workflow, steps: plan.steps,
        atBase: recon.completed.length === 0 && store.getAttempts(runId).length === 0, jail, signal, now,
      });
      if (ready.kind === 'stopped') {
        if (!held.lost.aborted) store.setRunStatus(runId, isUserStop(callerSignal.reason) ? 'cancelled' : 'paused', 'Stopped while the worktree was being made ready (setup or the baseline check); resume to continue.', { finished: isUserStop(callerSignal.reason) });
        return status(runId);
      }
      if (ready.kind === 'failed') {
        store.setRunStatus(runId, 'failed', ready.reason, { finished: true });
        notes.runFailed(null, null, null, 'environment');
        return status(runId);
      }
      // The run's commands get the environment setup made ready (a worktree venv first…); letting go stays the sandbox's.
      const owned = jail;
      jail = { ...ready.jail, release: () => owned.release() };
      worktreeEnv = ready.hooks;
      context += baselineNote(ready.baseline);
      for (const s of store.getSteps(runId)) {
        if (s.status === 'succeeded' || s.status === 'skipped') continue;
        // Auto-progress (seed 003 §5): one step, to the end of the phase, or (default) to the end of the run.
        if (auto === 'step' && stepsRun >= 1 && opts.confirmNext && lastRun) {
          const total = store.getSteps(runId).length;
          head = undefined;
          const answer = await opts.confirmNext({ done: lastRun, next: { index: s.step_index, title: s.title, phase: s.phase }, total });
          if (answer === 'no') {
            store.setRunStatus(runId, 'paused', `Paused after step ${lastRun.index} at your request; resume to continue with step ${s.step_index}.`);
            return status(runId);
          }
          if (answer === 'auto') {
            auto = 'phase';
            firstPhase = lastRun.phase;
          }
        } else if (auto === 'step' && stepsRun >= 1) {
          store.setRunStatus(runId, 'paused', autoProgressReason({ kind: 'step', doneStep: lastRun?.index ?? s.step_index - 1, nextStep: s.step_index }));
          return status(runId);
        }
        if (auto === 'phase' && stepsRun >= 1 && s.phase !== firstPhase) {
          store.setRunStatus(runId, 'paused', autoProgressReason({ kind: 'phase', phase: firstPhase ?? null, nextPhase: s.phase ?? null }));
          return status(runId);
        }
        if (stepsRun === 0) firstPhase = s.phase;
        stepsRun++;
        lastRun = { index: s.step_index, title: s.title, phase: s.phase };
        store.event(runId, 'step.started', { step: s.step_index, title: s.title });
        const policy = policies[s.step_index - 1] ?? stepPolicies(workflow, null, [{ title: s.title, prompt: '' }], raisedTaskBudget(run))[0]!;
        const outcome = await runStep(
          { store, agentFor: agentForRun, env: jail.env, jail, now, sleep, rng, notify, apiKeyHash: apiKeyHash(deps.env), worktreeEnv },
          { runId, worktree: run.worktree, workflow: { ...workflowForRun, timeout_seconds: policy.timeoutSeconds }, policy, steps: plan.steps, index: s.step_index, system, context, signal, skipWait: skip, head, preamble: stepsRun === 1 ? progress : undefined },
        );
        if (outcome.kind === 'done') {
          head = outcome.commit;
          continue;
        }
        switch (outcome.kind) {
          case 'stopped':
            // The step is no longer running: back to pending (its attempts stay as history); a resume runs it again.
            if (!held.lost.aborted) store.setStepStatus(runId, s.step_index, 'pending');
            if (isUserStop(callerSignal.reason)) {
              store.setRunStatus(runId, 'cancelled', `Stopped by you ${outcome.reason.replace(/^stopped /, '')}. The work in progress stays in the worktree; resume to continue, or start again.`, { finished: true });
            } else {
              store.setRunStatus(runId, 'paused', `${outcome.reason}. The worktree keeps the work in progress.`);
            }
            break;
          case 'escalate':
            store.setRunStatus(runId, 'paused', runEndReason(outcome, '', { runId, committedSteps: committedSteps(runId) }));
            notes.needsYou({ index: s.step_index, title: s.title }, 'escalated', { attempts: outcome.attempts, maxAttempts: outcome.maxAttempts });
            break;
          case 'parked':
            store.setRunStatus(runId, 'waiting', `${outcome.reason} (until ${outcome.wakeAt})`, { wakeAt: outcome.wakeAt });
            break;
          case 'budget':
            if (outcome.wakeAt) store.setRunStatus(runId, 'waiting', outcome.reason, { wakeAt: outcome.wakeAt });
            else store.setRunStatus(runId, 'paused', outcome.reason);
            notes.needsYou({ index: s.step_index, title: s.title }, outcome.budget === 'task' ? 'task_budget' : 'daily_budget', { wakeAt: outcome.wakeAt });
            break;
          case 'fatal': {
            store.setStepStatus(runId, s.step_index, 'failed');
            let rescued = '';
            // Nothing of an attempt that tried to steer Ratchet's git is committed, not even as a rescue.
            const rescue = outcome.errorClass === 'sandbox_violation' ? null : await rescueCommit(run.repo_path, run.worktree, `rescue: step ${s.step_index} unfinished (${outcome.errorClass ?? 'failed'})`);
            if (rescue && 'sha' in rescue) {
              store.event(runId, 'rescue.committed', { step: s.step_index, commit: rescue.sha });
              rescued = ` The unfinished work is kept in rescue commit ${rescue.sha.slice(0, 10)} on ${run.branch}.`;
            } else if (rescue) rescued = ` No rescue commit was made: ${rescue.refused}.`;
            store.setRunStatus(runId, 'failed', runEndReason(outcome, rescued, { runId, committedSteps: committedSteps(runId) }), { finished: true });
            notes.runFailed({ index: s.step_index, title: s.title }, outcome.attempts ?? null, outcome.maxAttempts ?? null, outcome.errorClass);
            break;
          }
        }
        return status(runId);
      }
      store.setRunStatus(runId, 'succeeded', null, { finished: true });
      notes.runSucceeded();
      return status(runId);
    } catch (err) {
      store.setRunStatus(runId, 'failed', `Internal error: ${(err as Error).message}`, { finished: true });
      notes.runFailed(lastRun, null, null, 'internal');
      throw err;
    } finally {
      skipControllers.delete(runId);
      // How the run stands now, read before the lease goes (a Resume may start at once) and written to git after it.
      const kept = runStateOf(runId);
      // Bounded: deliveries still in flight get a few seconds, so a CLI run does not exit before they are sent or logged.
      await notes.flush();
      // A finished run's private folder goes; one that can resume keeps it (a command agent's session lives there).
      if (store.getRun(runId)?.finished_at) jail.release();
      held.release();
      // Kept in git, so `ratchet recover` brings the run back as it was if the database is lost. Not awaited: the run
      // has ended for its callers (the app's Resume may come at once); `settled()` waits for it before a process exits.
      if (kept) void keepRunState(runId, kept).catch(() => undefined);
    }
  }

  const executeWith = (lease: LeaseOwner) => (id: string, signal: AbortSignal, opts: ExecuteOptions) => execute(id, signal, { ...opts, lease });

  /** Seed 000: continue a failed run from the next incomplete step (same run, branch and worktree). */
  function retry(runId: string, opts: ContinueOptions) {
    assertRunTrusted(store, trustStore, runId, { trust: opts.trust, now });
    // The lease comes first: a second claimant fails before any recovery step touches the worktree.
    return withLease(runId, (lease) => retryRun(store, executeWith(lease), runId, opts));
  }

  /** Seed 003: resume an interrupted, paused or waiting run after its checks. */
  function resume(runId: string, opts: ContinueOptions) {
    detectInterrupted();
    assertRunTrusted(store, trustStore, runId, { trust: opts.trust, now });
    // An agent-drafted plan resumes to its approval: it runs only once approved.
    if (store.getRun(runId)?.status === 'waiting_approval') {
      if (!opts.approve) throw new RatchetError('needs_approval', `Run ${runId} waits for its plan to be approved: \`ratchet resume ${runId} --approve\` (or Approve in the app).`);
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
    if (!run) throw new RatchetError('run_not_found', `No run with id ${runId}. See \`ratchet list\`.`);
    if (!Number.isFinite(taskUsd) || taskUsd <= 0) throw new RatchetError('bad_arguments', `A budget is an amount in US dollars above 0 (got ${taskUsd}).`);
    const spent = status(runId).costUsd;
    if (spent !== null && taskUsd <= spent) {
      throw new RatchetError('bad_arguments', `Run ${runId} has already spent ${money(spent)}; a task budget of ${money(taskUsd)} would stop it again at once. Give it more than ${money(spent)}.`);
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
    if (!run) throw new RatchetError('run_not_found', `No run with id ${runId}. See \`ratchet list\`.`);
    const lease = observe(run);
    if (run.status === 'running' && lease.kind === 'held') {
      throw new RatchetError('run_busy', `${busyMessage(runId, lease)} The new plan would apply from its next retry: stop it first, or revise after it ends.`);
    }
    const result = store.revisePlan(runId, steps);
    const workflow = store.getWorkflow(runId);
    await writeRunMeta(run.repo_path, {
      runId, branch: run.branch, baseCommit: run.base_commit, baseBranch: run.base_branch, worktree: run.worktree, title: run.task_title,
      description: store.getTaskDescription(runId), workflow: withoutNotify(workflow), planRevision: result.revision, createdAt: run.created_at,
    }).catch(() => undefined);
    return result;
  }

  /** Rebuilds runs the store does not know from the repository's refs/ratchet/<run>/meta and branches (`ratchet recover`). */
  async function recover(repoPath: string): Promise<{ rebuilt: string[]; known: string[]; branchesWithoutMeta: string[] }> {
    const repo = await inspectRepo(repoPath);
    // A record naming a folder that is not one of the repository's worktrees is not adopted (its branch is listed as without metadata).
    const metas = (await readRunMetas(repo.root)).filter((m) => adoptableWorktree(repo.root, m.worktree));
    const rebuilt: string[] = [];
    const known: string[] = [];
    for (const m of metas) {
      if (store.getRun(m.runId)) {
        known.push(m.runId);
        continue;
      }
      const parsed = WorkflowFile.safeParse(m.workflow);
      if (!parsed.success || !(await branchExists(repo.root, m.branch))) continue;
      store.createRun({
        runId: m.runId, repoPath: repo.root, repoName: repo.name, title: m.title, description: m.description, workflow: parsed.data,
        baseBranch: m.baseBranch, baseCommit: m.baseCommit, branch: m.branch, worktree: m.worktree,
      });
      const kept = await readRunState(repo.root, m.runId);
      if (kept) {
        // As it was when its process last let go of it: its attempts, then its steps and status (git still decides what is committed).
        for (const a of kept.attempts) store.restoreAttempt(m.runId, a);
        for (const st of kept.steps) if (st.status === 'failed' || st.status === 'skipped') store.setStepStatus(m.runId, st.index, st.status);
        const run = store.getRun(m.runId);
        if (run) await reconcileWithGit(store, run);
        const ended = ['succeeded', 'failed', 'cancelled'].includes(kept.status);
        const status = (['succeeded', 'failed', 'cancelled', 'paused'] as const).find((x) => x === kept.status) ?? 'interrupted';
        store.setRunStatus(m.runId, status, status === 'interrupted' ? 'Rebuilt from git by `ratchet recover`: completed steps come from the branch; resume to continue.' : kept.reason, { finished: ended });
      } else {
        store.setRunStatus(m.runId, 'interrupted', 'Rebuilt from git by `ratchet recover`: completed steps come from the branch; resume to continue.');
        const run = store.getRun(m.runId);
        if (run) await reconcileWithGit(store, run);
      }
      rebuilt.push(m.runId);
    }
    const branches = (await git(repo.root).raw(['for-each-ref', '--format=%(refname:short)', 'refs/heads/ratchet/'])).split('\n').filter(Boolean);
    const withMeta = new Set(metas.map((m) => m.branch));
    return { rebuilt, known, branchesWithoutMeta: branches.filter((b) => !withMeta.has(b)) };
  }

  /** Parked runs whose wake_at has come (the host resumes them). */
  function dueRuns(): string[] {
    const t = now().getTime();
    return store.runsWithStatus(['waiting']).filter((r) => r.owner_pid === null && r.wake_at !== null && Date.parse(r.wake_at) <= t).map((r) => r.id);
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
    if (!run) throw new RatchetError('run_not_found', `No run with id ${runId}. See \`ratchet list\` for the runs there are.`);
    return statusDocument(store, run);
  }

  function list(): RunListItem[] {
    return listRuns(store);
  }

  const watchers = new Set<NodeJS.Timeout>();
  /**
   * Other processes write to the same store (a `ratchet run` in a terminal): every `intervalMs` their new events are
   * delivered through onEvent, as this process's own are (PRAGMA data_version tells, at no cost, whether anyone else
   * committed); every ~10 s runs whose owner died are marked interrupted. Returns the stop function.
   */
  function watchOtherWriters(intervalMs = 750): () => void {
    store.watchOtherWriters();
    const every = Math.max(1, Math.round(10_000 / intervalMs));
    let ticks = 0;
    const timer = setInterval(() => {
      try {
        store.pollOtherWriters();
        if (++ticks % every === 0) detectInterrupted();
      } catch {
        // Busy past the timeout, or closed: the next tick tries again.
      }
    }, intervalMs);
    timer.unref();
    watchers.add(timer);
    return () => {
      clearInterval(timer);
      watchers.delete(timer);
    };
  }

  return {
    store,
    home,
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
    execute,
    retry,
    resume,
    raiseBudget,
    approve,
    restart,
    inspectResume,
    revisePlan,
    recover,
    retryNow,
    dueRuns,
    status,
    list,
    onEvent: (fn: (e: EngineEvent) => void) => store.onEvent(fn),
    watchOtherWriters,
    close: () => {
      for (const t of watchers) clearInterval(t);
      watchers.clear();
      db.close();
      // A closed engine runs nothing more: let go of the sandbox's proxies (their socat bridges) without being asked.
      void osSandbox?.dispose();
      releaseStore();
    },
    /** Stops the sandbox's network proxies (call when the process is done with runs, e.g. at the end of a CLI command). */
    releaseSandbox: () => osSandbox?.dispose() ?? Promise.resolve(),
  };
}
