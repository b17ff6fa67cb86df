// The one API contract between the engine (Electron main or the headless host) and the renderer: every method and event, with zod schemas.
// The IPC binding, the preload, the WebSocket host and the renderer's client are all derived from this file.
import { z } from 'zod';
import { AttemptOutcome, DecisionDoc, ErrorClass, FailedTestDoc, RunListItem, RunStatus, StatusDocument, StepSpec } from './domain';
import { TranscriptEntryDoc } from './engine-events';
import { MENU_COMMANDS } from './menu-commands';
import { NotifySettings } from './notify';
import { AppEnvironment, AppSetup, DetectedProjectDoc } from './project';
import { BaselineDoc } from './worktree-env';

const RunId = z.object({ runId: z.string().min(1) });
const Empty = z.object({}).strict();
const Ok = z.object({ ok: z.literal(true) });

export const RepoInfo = z.object({ root: z.string(), name: z.string(), headCommit: z.string(), branch: z.string().nullable() });

export const EngineEventDoc = z.object({
  id: z.number().int(),
  runId: z.string(),
  at: z.string(),
  type: z.string(),
  payload: z.record(z.string(), z.unknown()),
});
export type EngineEventDoc = z.infer<typeof EngineEventDoc>;

export const RunSummary = RunListItem.extend({
  title: z.string(),
  reason: z.string().nullable(),
  wakeAt: z.string().nullable(),
  updatedAt: z.string(),
  stepsDone: z.number().int(),
  stepsTotal: z.number().int(),
  costUsd: z.number().nullable(),
});
export type RunSummary = z.infer<typeof RunSummary>;

/** How many runs `runs.list` answers when the caller does not say (the newest first). */
export const RUNS_PAGE = 200;
/** A page of the runs list: the newest `limit` runs, or those older than `before` (the last item of the previous page). */
export const RunsPage = z
  .object({
    limit: z.number().int().min(1).max(5000).optional(),
    before: z.object({ createdAt: z.string(), id: z.string() }).optional(),
  })
  .strict();

export const GateOutputDoc = z.object({
  gate: z.string(),
  command: z.string(),
  passed: z.boolean(),
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  timedOut: z.boolean(),
  durationMs: z.number(),
  output: z.string(),
  outputBytes: z.number().int(),
  failures: z.array(FailedTestDoc),
  /** Set when `output` holds only the first lines (runs.attempt's `outputHeadLines`): the log's whole line count; the rest comes from runs.gateLog. */
  lineCount: z.number().int().optional(),
  partial: z.boolean().optional(),
});

/** A range of one gate's output lines (ANSI escapes kept), and how many lines the whole output has. */
export const GateLogPage = z.object({ from: z.number().int(), lines: z.array(z.string()), total: z.number().int() });
export type GateLogPage = z.infer<typeof GateLogPage>;
/** Most lines one runs.gateLog call answers. */
export const GATE_LOG_MAX_LINES = 5000;
/** Most events one runs.events call answers when the caller pages (`limit`). */
export const EVENTS_MAX_PAGE = 10_000;

export { TranscriptEntryDoc };

/** Everything the attempt-history panel shows for one attempt. */
export const AttemptDetail = z.object({
  runId: z.string(),
  step: z.number().int(),
  n: z.number().int(),
  outcome: AttemptOutcome,
  errorClass: ErrorClass.nullable(),
  errorMessage: z.string().nullable(),
  model: z.string().nullable(),
  agentKind: z.string(),
  prompt: z.string(),
  transcript: z.array(TranscriptEntryDoc),
  gates: z.array(GateOutputDoc),
  diff: z.string().nullable(),
  decision: DecisionDoc.nullable(),
  fingerprint: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  cacheReadTokens: z.number().int(),
  cacheWriteTokens: z.number().int(),
  costUsd: z.number().nullable(),
});
export type AttemptDetail = z.infer<typeof AttemptDetail>;

export const RecoveryOptionDoc = z.enum(['checkout_branch', 'recreate_worktree', 'rescue_commit', 'stash', 'abort']);
export const RequiredActionDoc = z.object({
  code: z.enum(['no_branch', 'no_worktree', 'wrong_branch', 'dirty_tree', 'no_plan', 'missing_commits']),
  message: z.string(),
  options: z.array(RecoveryOptionDoc),
  safeDefault: RecoveryOptionDoc,
});

/** Seed 003 §2.1's resume plan: where to continue, why, and what must be fixed first (computed by the engine). */
export const ResumePlanDoc = z.object({
  lastStatus: z.enum(['failed', 'waiting_approval', 'in_progress', 'completed']),
  /** The step to run next; null when every step is done (or nothing can be resumed). */
  nextStep: z.number().int().nullable(),
  action: z.enum(['retry_step', 'next_step', 'approve', 'finish', 'none']),
  reason: z.string(),
  /** The step may be skipped instead (seed 003: in_progress → retry or skip). */
  canSkip: z.boolean(),
  phaseRollover: z.string().nullable(),
  completed: z.array(z.object({ index: z.number().int(), title: z.string(), commit: z.string() })),
  required: z.array(RequiredActionDoc),
  blocked: z.boolean(),
});
export type ResumePlan = z.infer<typeof ResumePlanDoc>;
export type RecoveryOption = z.infer<typeof RecoveryOptionDoc>;
export type RequiredAction = z.infer<typeof RequiredActionDoc>;

/** Seed 003 §2.3's "Workflow Resume Plan", for the resume dialog. */
export const ResumeInfoDoc = z.object({
  runId: z.string(),
  title: z.string(),
  worktree: z.string(),
  branch: z.string(),
  status: RunStatus,
  reason: z.string().nullable(),
  lastSeen: z.string().nullable(),
  steps: z.array(z.object({ index: z.number().int(), title: z.string(), status: z.string(), commit: z.string().nullable(), phase: z.string().nullable().optional(), attempts: z.number().int() })),
  plan: ResumePlanDoc,
  repeatedFailures: z.array(z.object({ runId: z.string(), n: z.number().int(), errorClass: z.string().nullable(), message: z.string().nullable(), at: z.string() })),
  baseConflicts: z.array(z.string()),
  /** Seed 003's confirmation: phase x/total, the last step's agent/model, and the agent/model of the next step. */
  phase: z.object({ index: z.number().int(), total: z.number().int(), name: z.string() }).nullable().optional(),
  lastStep: z.object({ index: z.number().int(), title: z.string(), status: z.string(), agent: z.string().nullable(), model: z.string().nullable() }).nullable().optional(),
  nextAgent: z.object({ agent: z.string(), model: z.string().nullable() }).nullable().optional(),
});
export type ResumeInfoDoc = z.infer<typeof ResumeInfoDoc>;

export const StatsSummary = z.object({
  days: z.number().int(),
  runs: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  successRate: z.number().nullable(),
  /** Attempts per step that succeeded. */
  avgAttemptsPerSuccess: z.number().nullable(),
  /** Steps by how many retries they needed; `failedAfterMax` gave up. */
  retryBreakdown: z.object({ r0: z.number().int(), r1: z.number().int(), r2: z.number().int(), r3plus: z.number().int(), failedAfterMax: z.number().int() }),
  retryReasons: z.array(z.object({ errorClass: z.string(), count: z.number().int() })),
  costPerDay: z.array(z.object({ day: z.string(), costUsd: z.number(), retryCostUsd: z.number() })),
  dailyBudgetUsd: z.number().nullable(),
  totalCostUsd: z.number(),
  retryCostUsd: z.number(),
  /** Steps whose retries ended in success: what the retries bought. */
  savedByRetries: z.number().int(),
  suggestions: z.array(z.string()),
});
export type StatsSummary = z.infer<typeof StatsSummary>;

/** Seed 002's improvement suggestion: what the period's attempts show, and what to change ("finding → action"). */
export const ImprovementDoc = z.object({ finding: z.string(), action: z.string(), errorClass: z.string().nullable() });
export type ImprovementDoc = z.infer<typeof ImprovementDoc>;

/** What-if: another retry policy replayed over the period's recorded attempts (issue 13's "what-if"). */
export const WhatIfChoiceDoc = z.object({
  preset: z.enum(['conservative', 'aggressive', 'minimal']).optional(),
  maxRetries: z.number().int().min(0).max(20).optional(),
  limits: z.partialRecord(ErrorClass, z.number().int().min(0).max(20)).optional(),
  taskUsd: z.number().positive().nullable().optional(),
});
const WhatIfOutcomeDoc = z.enum(['succeeded', 'failed', 'needs_you', 'budget', 'unknown']);
const WhatIfTotalsDoc = z.object({ succeeded: z.number().int(), failed: z.number().int(), needsYou: z.number().int(), budget: z.number().int(), unknown: z.number().int(), costUsd: z.number() });
export const WhatIfDoc = z.object({
  policy: z.object({ limits: z.record(z.string(), z.number()), taskUsd: z.number().nullable() }),
  runs: z.number().int(),
  actual: WhatIfTotalsDoc,
  simulated: WhatIfTotalsDoc,
  changed: z.array(z.object({
    runId: z.string(), title: z.string(), actual: z.union([WhatIfOutcomeDoc, z.literal('other')]), simulated: WhatIfOutcomeDoc,
    actualCostUsd: z.number(), simulatedCostUsd: z.number(), reason: z.string(),
  })),
  assumptions: z.array(z.string()),
});
export type WhatIfDoc = z.infer<typeof WhatIfDoc>;

export const RunQueueDoc = z.object({
  concurrency: z.number().int(),
  active: z.array(z.string()),
  queued: z.array(z.object({ runId: z.string(), title: z.string(), priority: z.number().int(), position: z.number().int(), queuedAt: z.string(), action: z.enum(['execute', 'retry', 'resume']) })),
  /** A 429 on one run holds every run using the same API key until `until`. */
  holds: z.array(z.object({ until: z.string(), runId: z.string().nullable(), reason: z.string() })),
});
export type RunQueueDoc = z.infer<typeof RunQueueDoc>;

export const Settings = z.object({
  apiKeySet: z.boolean(),
  /** Where the key lives: the OS keychain (Electron safeStorage), the environment, the headless host's memory until it stops (`session`), or nowhere. */
  apiKeySource: z.enum(['safe_storage', 'environment', 'session', 'none']),
  /** Set when Electron's Linux backend stores secrets as plain text (basic_text). */
  apiKeyWarning: z.string().nullable(),
  /** Never empty: the engine names it in every run it starts (Settings marks an empty one at its field). */
  defaultModel: z.string().trim().min(1),
  preset: z.enum(['conservative', 'aggressive', 'minimal']),
  budget: z.object({ taskUsd: z.number().positive().nullable(), dailyUsd: z.number().positive().nullable(), alertAt: z.number().gt(0).max(1) }),
  notifications: z.boolean(),
  /** ntfy topic URL and webhook URL for every run (a workflow's `notify:` replaces them for its runs). */
  notify: NotifySettings,
  worktreeFolder: z.string().nullable(),
  /** false: the user chose to run the agent's commands without the OS sandbox. */
  sandbox: z.boolean(),
  /** How many runs execute at once (the app and `serve`); more wait in the queue. */
  concurrency: z.number().int().min(1).max(16),
  /** Whether commands run sandboxed here; `unavailable` (no sandbox on this platform) is shown as a banner. Read-only. */
  sandboxStatus: z.object({ state: z.enum(['on', 'off', 'unavailable']), message: z.string().nullable() }),
  pricing: z.record(z.string(), z.object({ input: z.number().min(0), output: z.number().min(0), cache_write: z.number().min(0), cache_read: z.number().min(0) })),
});
export type Settings = z.infer<typeof Settings>;

/** Agents New task offers: the Anthropic API, or Claude Code run as a command agent. */
export const AgentChoice = z.enum(['anthropic', 'claude-code']);
export type AgentChoice = z.infer<typeof AgentChoice>;

/** One folder's subfolders, for the folder browser the headless host serves in place of a native Open… dialog. */
export const FolderListing = z.object({
  dir: z.string(),
  parent: z.string().nullable(),
  isGitRepo: z.boolean(),
  entries: z.array(z.object({ name: z.string(), path: z.string(), isGitRepo: z.boolean() })),
  truncated: z.number().int(),
});
export type FolderListing = z.infer<typeof FolderListing>;

/** What landing a succeeded run on its base branch would do, and where its branch could be pushed. */
export const MergePreviewDoc = z.object({
  base: z.string(),
  branch: z.string(),
  baseTip: z.string(),
  branchTip: z.string(),
  commits: z.array(z.object({ sha: z.string(), subject: z.string() })),
  diffstat: z.string(),
  canFastForward: z.boolean(),
  conflicts: z.array(z.string()),
  checkout: z.object({ path: z.string(), dirty: z.boolean() }).nullable(),
  upToDate: z.boolean(),
  /** Why it cannot land now, as a sentence saying what to do; null when it can. */
  blocked: z.string().nullable(),
  /** The remote a push goes to (null: none), and the page that opens a pull request there when the host is known. */
  remote: z.object({ name: z.string(), url: z.string(), pullRequestUrl: z.string().nullable() }).nullable(),
});
export type MergePreviewDoc = z.infer<typeof MergePreviewDoc>;

export const StartRunInput = z.object({
  repo: z.string().min(1),
  title: z.string().trim().min(1),
  description: z.string().default(''),
  /** Steps written in the app or approved from a draft; omitted: the repository's workflow file. */
  steps: z.array(StepSpec).min(1).optional(),
  workflowFile: z.string().optional(),
  /** Gates for app-written steps: name -> command. */
  gates: z.record(z.string(), z.string().min(1)).optional(),
  /** Setup and files to copy for app-written steps (detected or typed in New task); a workflow file has its own. */
  setup: AppSetup.optional(),
  copy: z.array(z.string().trim().min(1)).optional(),
  preset: z.enum(['conservative', 'aggressive', 'minimal']).optional(),
  budgetUsd: z.number().positive().optional(),
  /** This task's retry configuration (seed 002); kept as the description's "## Retry Configuration" block. */
  retry: z.object({
    maxRetries: z.number().int().min(0).optional(),
    timeoutSeconds: z.number().positive().optional(),
    allowRetryOn: z.array(ErrorClass).min(1).optional(),
  }).optional(),
  /** The user trusts the repository's workflow file as it is now (the Trust button); stored per repository with its hash. */
  trust: z.boolean().optional(),
  /** The hash workflow.load gave for the file's content the user was shown: the run starts only if the file still has exactly it. */
  trustSha256: z.string().regex(/^[0-9a-f]{64}$/).optional(),
  /** Queue priority: a higher number starts first when runs wait for a slot (default 0). */
  priority: z.number().int().min(-100).max(100).optional(),
  /** The agent of app-written steps: the Anthropic API (needs a key; the default) or Claude Code's CLI (`claude`, its own login). */
  agent: AgentChoice.optional(),
});
export type StartRunInput = z.infer<typeof StartRunInput>;

/** Every method: its input and its output. A method's name is its IPC channel and its WebSocket message name. */
export const methods = {
  'app.info': { input: Empty, output: z.object({ version: z.string(), host: z.enum(['electron', 'headless']), demo: z.boolean(), home: z.string() }) },
  'repos.inspect': { input: z.object({ path: z.string().min(1) }), output: RepoInfo },
  'repos.recent': { input: Empty, output: z.array(z.object({ path: z.string(), name: z.string(), lastUsed: z.string() })) },
  'repos.pick': { input: Empty, output: z.object({ path: z.string().nullable() }) },
  /** Subfolders of `dir` (default: the home folder), git repositories marked; what the browser host offers in place of Open…. */
  'repos.browse': { input: z.object({ dir: z.string().nullable().optional(), showHidden: z.boolean().optional() }).strict(), output: FolderListing },
  'workflow.load': {
    input: z.object({ repo: z.string().min(1) }),
    output: z.object({
      file: z.string().nullable(), steps: z.array(StepSpec), gates: z.record(z.string(), z.string()), problems: z.array(z.string()),
      /** The file's setup and files to copy, shown in New task beside its gates. */
      setup: z.object({ run: z.array(z.string()), network: z.array(z.string()) }).nullable().default(null),
      copy: z.array(z.string()).default([]),
      /**
       * Workspace trust of the repository's file: whether this content (`sha256`, of the very bytes the steps were read
       * from) was trusted, and everything it would run or allow (commands, sandbox.env/network/limits, setup, copy, notify,
       * the agent, its budget), each with a `warning` where one is due.
       */
      trust: z.object({
        trusted: z.boolean(),
        sha256: z.string(),
        commands: z.array(z.object({ source: z.string(), command: z.string(), warning: z.string().optional() })),
      }).nullable().default(null),
    }),
  },
  /** What the repository's files show (npm, Python, Cargo, Go…): the setup, gates and files to copy a workflow would need, each with why. */
  'project.detect': { input: z.object({ repo: z.string().min(1) }), output: DetectedProjectDoc },
  /**
   * "Check project": setup and gates once on the repository's HEAD in a temporary worktree, before any agent money is
   * spent. Checks the repository's own workflow file (`workflowFile`, trusted or `trust`) or the environment written in
   * New task (`gates`, `setup`, `copy`). Progress arrives as `project.onBaseline` events.
   */
  'project.baseline': { input: AppEnvironment.extend({ repo: z.string().min(1), workflowFile: z.string().optional(), trust: z.boolean().optional() }), output: BaselineDoc },
  /** Forgets the user's trust in a repository's workflow file(s): it asks again before it runs (retry and resume too). */
  'trust.revoke': { input: z.object({ repo: z.string().min(1) }), output: z.object({ repo: z.string(), revoked: z.number().int() }) },
  'plans.draft': { input: z.object({ repo: z.string().min(1), title: z.string().min(1), description: z.string() }), output: z.object({ steps: z.array(StepSpec), markdown: z.string() }) },
  'plans.get': { input: RunId, output: z.object({ revision: z.number().int(), steps: z.array(StepSpec), gates: z.record(z.string(), z.string()) }) },
  'plans.revise': { input: RunId.extend({ steps: z.array(StepSpec).min(1) }), output: z.object({ revision: z.number().int(), kept: z.array(z.number().int()), reset: z.array(z.number().int()) }) },
  'runs.list': { input: RunsPage, output: z.array(RunSummary) },
  'runs.get': { input: RunId, output: StatusDocument },
  /** With `outputHeadLines`, a long gate output is sent as its first lines (`partial`, `lineCount`): the viewer pages the rest. */
  'runs.attempt': { input: RunId.extend({ step: z.number().int().min(1), n: z.number().int().min(1), outputHeadLines: z.number().int().min(1).optional() }), output: AttemptDetail },
  /** Lines [from, from + count) of one gate's output in an attempt (`gate` is its label, as in AttemptDetail.gates). */
  'runs.gateLog': {
    input: RunId.extend({ step: z.number().int().min(1), n: z.number().int().min(1), gate: z.string().min(1), from: z.number().int().min(0), count: z.number().int().min(1).max(GATE_LOG_MAX_LINES) }),
    output: GateLogPage,
  },
  /** A run's events after `afterId`, oldest first; at most `limit` of them when given (page until an empty answer). */
  'runs.events': { input: RunId.extend({ afterId: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(EVENTS_MAX_PAGE).optional() }), output: z.array(EngineEventDoc) },
  /**
   * One attempt's diff against a base the user picks: `previous` (the step's previous attempt, else the step's start:
   * this attempt's own change), `step` (the step's start) or `run` (the run's base commit: the cumulative change).
   */
  'runs.attemptDiff': {
    input: RunId.extend({ step: z.number().int().min(1), n: z.number().int().min(1), against: z.enum(['previous', 'step', 'run']) }),
    /** `live`: read from the worktree now (an attempt under way, or the one an interrupted run left), not a saved attempt. */
    output: z.object({ diff: z.string(), against: z.enum(['previous', 'step', 'run']), fromAttempt: z.number().int().nullable(), live: z.boolean().default(false) }),
  },
  'runs.start': { input: StartRunInput, output: z.object({ runId: z.string() }) },
  'runs.retry': { input: RunId, output: Ok },
  /** "Start again": a new run of the same task with the run's current plan and its workflow (the old run is kept as it is). */
  'runs.restart': { input: RunId.extend({ priority: z.number().int().min(-100).max(100).optional() }), output: z.object({ runId: z.string() }) },
  'runs.resumeInfo': { input: RunId, output: ResumeInfoDoc },
  'runs.interrupted': { input: Empty, output: z.array(RunSummary) },
  'runs.resume': {
    input: RunId.extend({
      choices: z.record(z.string(), RecoveryOptionDoc).default({}),
      auto: z.enum(['step', 'phase', 'run']).default('run'),
      skipStep: z.boolean().default(false),
    }),
    output: Ok,
  },
  /** Approves an agent-drafted plan waiting in `waiting_approval` (as edited, when `steps` is given) and starts the run. */
  'runs.approve': { input: RunId.extend({ steps: z.array(StepSpec).min(1).optional() }), output: Ok },
  /** Raises a run's task budget (kept with the run); then `runs.resume` continues a run paused for its budget. */
  'runs.raiseBudget': { input: RunId.extend({ taskUsd: z.number().positive() }), output: z.object({ taskUsd: z.number(), spentUsd: z.number().nullable() }) },
  'runs.stop': { input: RunId, output: Ok },
  'runs.retryNow': { input: RunId, output: z.object({ skipped: z.boolean() }) },
  /** Changes a queued run's priority (higher starts first). */
  'runs.setPriority': { input: RunId.extend({ priority: z.number().int().min(-100).max(100) }), output: Ok },
  /** The queue: the concurrency limit, runs holding a slot, queued runs in start order, and API rate-limit holds in force. */
  'runs.queue': { input: Empty, output: RunQueueDoc },
  'runs.skipStep': { input: RunId.extend({ step: z.number().int().min(1) }), output: Ok },
  /** What merging a succeeded run's branch into its base branch would bring, whether it can fast-forward, and what blocks it. */
  'runs.mergePreview': { input: RunId, output: MergePreviewDoc },
  /** Lands a succeeded run on its base branch; `expectBaseTip` (the preview's) refuses when the base moved since. Never touches a dirty checkout. */
  'runs.merge': {
    input: RunId.extend({ mode: z.enum(['ff-only', 'no-ff']), expectBaseTip: z.string().optional() }),
    output: z.object({ commit: z.string(), mode: z.enum(['ff-only', 'no-ff']), base: z.string() }),
  },
  /** Pushes the run's branch to the repository's remote; answers the pull-request page when the remote's host is known. */
  'runs.push': { input: RunId, output: z.object({ remote: z.string(), remoteUrl: z.string(), pullRequestUrl: z.string().nullable() }) },
  /** Opens the run's worktree in a terminal, an editor or the file manager (the desktop app only; a browser cannot). */
  'runs.openWorktree': { input: RunId.extend({ with: z.enum(['terminal', 'editor', 'folder']) }), output: Ok },
  'stats.summary': { input: z.object({ days: z.union([z.literal(7), z.literal(30)]).default(7) }), output: StatsSummary },
  'stats.whatIf': { input: WhatIfChoiceDoc.extend({ days: z.union([z.literal(7), z.literal(30)]).default(7) }), output: WhatIfDoc },
  'stats.report': { input: z.object({ days: z.union([z.literal(7), z.literal(30)]).default(7) }), output: z.object({ markdown: z.string() }) },
  /** Seed 002's improvement suggestions for the period, from the per-day summary (the weekly report lists the same). */
  'stats.improvements': { input: z.object({ days: z.union([z.literal(7), z.literal(30)]).default(7) }), output: z.object({ items: z.array(ImprovementDoc) }) },
  'settings.get': { input: Empty, output: Settings },
  'settings.set': {
    input: Settings.omit({ apiKeySet: true, apiKeySource: true, apiKeyWarning: true, budget: true, sandboxStatus: true })
      .extend({ budget: Settings.shape.budget.partial() })
      .partial(),
    output: Settings,
  },
  'settings.setApiKey': { input: z.object({ key: z.string().min(1).nullable() }), output: Settings },
} as const;

/**
 * What a notice is about, stable for code that decides by it (grouping, replacing, clearing); its title and body are
 * the words the user reads and may change. Runs' outcomes and the scheduler's errors come from the service, budget
 * alerts and menu commands' answers from the renderer itself.
 */
export const NoticeCode = z.enum([
  'run.succeeded', 'run.failed', 'run.needs_you', 'run.error', 'queue.error',
  'budget.task_alert', 'budget.daily_alert', 'command.no_run', 'command.failed', 'repo.open_failed',
]);
export type NoticeCode = z.infer<typeof NoticeCode>;

/** Every event the main side pushes to the renderer. */
export const events = {
  'runs.onEvent': EngineEventDoc,
  'app.onNotice': z.object({ code: NoticeCode, level: z.enum(['info', 'warn', 'error']), title: z.string(), body: z.string(), runId: z.string().nullable() }),
  'app.onOpenRepo': z.object({ path: z.string() }),
  /** A baseline check's progress: setup or a gate started or finished (the repository's root names the check). */
  'project.onBaseline': z.object({ repo: z.string(), phase: z.enum(['setup', 'gate']), gate: z.string().nullable(), state: z.enum(['started', 'finished']), ok: z.boolean().nullable(), durationMs: z.number().nullable() }),
  /** Menu commands the window should carry out (File › New Task, Run › Retry, …); the list lives in menu-commands.ts. */
  'app.onCommand': z.object({ command: z.enum(MENU_COMMANDS) }),
} as const;

export type Methods = typeof methods;
export type MethodName = keyof Methods;
export type EventName = keyof typeof events;
export type MethodInput<M extends MethodName> = z.input<Methods[M]['input']>;
export type MethodOutput<M extends MethodName> = z.output<Methods[M]['output']>;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;

export const METHOD_NAMES = Object.keys(methods) as MethodName[];
export const EVENT_NAMES = Object.keys(events) as EventName[];

/** What crosses a boundary when a call fails: a stable code and a sentence that says what to do. */
export const CallError = z.object({ code: z.string(), message: z.string() });
export type CallError = z.infer<typeof CallError>;
export type CallResult<T> = { ok: true; value: T } | { ok: false; error: CallError };

export function isMethodName(name: unknown): name is MethodName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(methods, name);
}
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(events, name);
}

/** The typed client both the preload bridge and the WebSocket client implement; the renderer sees only this. */
export interface RatchetApi {
  call<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

/** The raw bridge `window.ratchet` exposes (preload or WebSocket): untyped on the wire, parsed at both ends. */
export interface RatchetBridge {
  invoke(method: string, input: unknown): Promise<CallResult<unknown>>;
  on(event: string, listener: (payload: unknown) => void): () => void;
}

export class ContractError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
    this.name = 'ContractError';
  }
}

/** Wraps a raw bridge into the typed API: inputs validated before sending, outputs and events parsed on arrival. */
export function createApi(bridge: RatchetBridge): RatchetApi {
  return {
    async call(method, input) {
      const spec = methods[method];
      const parsedInput = spec.input.safeParse(input);
      if (!parsedInput.success) throw new ContractError('bad_input', `${method}: ${parsedInput.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}`);
      const result = await bridge.invoke(method, parsedInput.data);
      if (!result.ok) throw new ContractError(result.error.code, result.error.message);
      const out = spec.output.safeParse(result.value);
      if (!out.success) throw new ContractError('bad_output', `${method} answered something that does not match the contract: ${out.error.issues[0]?.message ?? ''}`);
      return out.data as never;
    },
    on(event, listener) {
      const schema = events[event];
      return bridge.on(event, (payload) => {
        const parsed = schema.safeParse(payload);
        if (parsed.success) listener(parsed.data as never);
      });
    },
  };
}

/** A server-side handler map: one async function per method, derived from the contract. */
export type Handlers = { [M in MethodName]: (input: z.output<Methods[M]['input']>) => Promise<MethodOutput<M>> };

/** Dispatches one raw call: validates the name and input, runs the handler, validates the output. Never throws. */
export async function dispatch(handlers: Handlers, method: unknown, input: unknown, toError: (err: unknown) => CallError): Promise<CallResult<unknown>> {
  if (!isMethodName(method)) return { ok: false, error: { code: 'unknown_method', message: `No method ${String(method)} in the contract.` } };
  const spec = methods[method];
  const parsed = spec.input.safeParse(input ?? {});
  if (!parsed.success) {
    return { ok: false, error: { code: 'bad_input', message: `${method}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}` } };
  }
  try {
    const handler = handlers[method] as (i: unknown) => Promise<unknown>;
    const value = await handler(parsed.data);
    const out = spec.output.safeParse(value);
    if (!out.success) return { ok: false, error: { code: 'bad_output', message: `${method}: the engine answered outside the contract: ${out.error.issues[0]?.path.join('.')}: ${out.error.issues[0]?.message}` } };
    return { ok: true, value: out.data };
  } catch (err) {
    return { ok: false, error: toError(err) };
  }
}
