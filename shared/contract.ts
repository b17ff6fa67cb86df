// The one API contract between the engine (Electron main or the headless host) and the renderer: every method and event, with zod schemas.
// The IPC binding, the preload, the WebSocket host and the renderer's client are all derived from this file. The
// documents the methods answer with live by concept in contract/ (runs, resume, stats, settings, repositories, notices)
// and are exported from here too, so every import of the contract stays this one.
import { z } from 'zod';
import { PlanEstimate, StatusDocument, StepSpec } from './domain';
import { MENU_COMMANDS } from './menu-commands';
import { AppEnvironment, DetectedProjectDoc } from './project';
import { BaselineDoc } from './worktree-env';
import { NoticeCode } from './contract/notices';
import { FolderListing, RepoInfo } from './contract/repos';
import { RecoveryOptionDoc, ResumeInfoDoc } from './contract/resume';
import { ReviewCommentDoc, ReviewDoc } from './contract/review';
import { GithubSettingsDoc, IssueTaskDoc, PrPanelDoc } from './contract/github';
import { PrOptions } from './pull-request';
import {
  AttemptDetail,
  EngineEventDoc,
  EVENTS_MAX_PAGE,
  GATE_LOG_MAX_LINES,
  GateLogPage,
  MergePreviewDoc,
  RunQueueDoc,
  RunsPage,
  RunSummary,
  StartRunInput,
} from './contract/runs';
import { Settings } from './contract/settings';
import { ScheduleDoc, ScheduleInput } from './contract/schedules';
import { ImprovementDoc, StatsSummary, WhatIfChoiceDoc, WhatIfDoc } from './contract/stats';
import { TeamConnectionDoc, TeamEventDoc, TeamRunDoc, TeamSettingsDoc, TeamStatsDoc } from './contract/team';
import { TeamRunItem } from './team';

export * from './contract/github';
export * from './contract/notices';
export * from './contract/repos';
export * from './contract/resume';
export * from './contract/review';
export * from './contract/runs';
export * from './contract/settings';
export * from './contract/schedules';
export * from './contract/stats';
export * from './contract/team';

const RunId = z.object({ runId: z.string().min(1) });
const Empty = z.object({}).strict();
const Ok = z.object({ ok: z.literal(true) });

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
      file: z.string().nullable(),
      steps: z.array(StepSpec),
      gates: z.record(z.string(), z.string()),
      problems: z.array(z.string()),
      /** The file's setup and files to copy, shown in New task beside its gates. */
      setup: z
        .object({ run: z.array(z.string()), network: z.array(z.string()) })
        .nullable()
        .default(null),
      copy: z.array(z.string()).default([]),
      /**
       * Workspace trust of the repository's file: whether this content (`sha256`, of the very bytes the steps were read
       * from) was trusted, and everything it would run or allow (commands, sandbox.env/network/limits, setup, copy, notify,
       * the agent, its budget), each with a `warning` where one is due.
       */
      trust: z
        .object({
          trusted: z.boolean(),
          sha256: z.string(),
          commands: z.array(z.object({ source: z.string(), command: z.string(), warning: z.string().optional() })),
        })
        .nullable()
        .default(null),
    }),
  },
  /** What the repository's files show (npm, Python, Cargo, Go…): the setup, gates and files to copy a workflow would need, each with why. */
  'project.detect': { input: z.object({ repo: z.string().min(1) }), output: DetectedProjectDoc },
  /**
   * "Check project": setup and gates once on the repository's HEAD in a temporary worktree, before any agent money is
   * spent. Checks the repository's own workflow file (`workflowFile`, trusted or `trust`) or the environment written in
   * New task (`gates`, `setup`, `copy`). Progress arrives as `project.onBaseline` events.
   */
  'project.baseline': {
    input: AppEnvironment.extend({ repo: z.string().min(1), workflowFile: z.string().optional(), trust: z.boolean().optional() }),
    output: BaselineDoc,
  },
  /** Forgets the user's trust in a repository's workflow file(s): it asks again before it runs (retry and resume too). */
  'trust.revoke': { input: z.object({ repo: z.string().min(1) }), output: z.object({ repo: z.string(), revoked: z.number().int() }) },
  'plans.draft': {
    input: z.object({ repo: z.string().min(1), title: z.string().min(1), description: z.string() }),
    output: z.object({ steps: z.array(StepSpec), markdown: z.string() }),
  },
  'plans.get': { input: RunId, output: z.object({ revision: z.number().int(), steps: z.array(StepSpec), gates: z.record(z.string(), z.string()) }) },
  'plans.revise': {
    input: RunId.extend({ steps: z.array(StepSpec).min(1) }),
    output: z.object({ revision: z.number().int(), kept: z.array(z.number().int()), reset: z.array(z.number().int()) }),
  },
  'runs.list': { input: RunsPage, output: z.array(RunSummary) },
  'runs.get': { input: RunId, output: StatusDocument },
  /** With `outputHeadLines`, a long gate output is sent as its first lines (`partial`, `lineCount`): the viewer pages the rest. */
  'runs.attempt': {
    input: RunId.extend({ step: z.number().int().min(1), n: z.number().int().min(1), outputHeadLines: z.number().int().min(1).optional() }),
    output: AttemptDetail,
  },
  /** Lines [from, from + count) of one gate's output in an attempt (`gate` is its label, as in AttemptDetail.gates). */
  'runs.gateLog': {
    input: RunId.extend({
      step: z.number().int().min(1),
      n: z.number().int().min(1),
      gate: z.string().min(1),
      from: z.number().int().min(0),
      count: z.number().int().min(1).max(GATE_LOG_MAX_LINES),
    }),
    output: GateLogPage,
  },
  /** A run's events after `afterId`, oldest first; at most `limit` of them when given (page until an empty answer). */
  'runs.events': {
    input: RunId.extend({ afterId: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(EVENTS_MAX_PAGE).optional() }),
    output: z.array(EngineEventDoc),
  },
  /**
   * One attempt's diff against a base the user picks: `previous` (the step's previous attempt, else the step's start:
   * this attempt's own change), `step` (the step's start) or `run` (the run's base commit: the cumulative change).
   */
  'runs.attemptDiff': {
    input: RunId.extend({ step: z.number().int().min(1), n: z.number().int().min(1), against: z.enum(['previous', 'step', 'run']) }),
    /** `live`: read from the worktree now (an attempt under way, or the one an interrupted run left), not a saved attempt. */
    output: z.object({
      diff: z.string(),
      against: z.enum(['previous', 'step', 'run']),
      fromAttempt: z.number().int().nullable(),
      live: z.boolean().default(false),
    }),
  },
  /** A run's change as a unified diff: the whole run (base → head), or one committed step's (`step`). */
  'review.diff': {
    input: RunId.extend({ step: z.number().int().min(1).optional() }),
    output: z.object({ diff: z.string(), from: z.string(), to: z.string() }),
  },
  /**
   * Lines `from`.. of a file as one of the run's commits holds it (`to` of review.diff): a diff's unchanged lines,
   * opened on demand. At most 2,000 a call; `total` is the file's line count. Binary and very large files are refused.
   */
  'review.fileLines': {
    input: RunId.extend({
      commit: z.string().regex(/^[0-9a-f]{40,64}$/),
      path: z.string().min(1),
      from: z.number().int().min(1),
      count: z.number().int().min(1).max(2000),
    }),
    output: z.object({ lines: z.array(z.string()), total: z.number().int().min(0) }),
  },
  /** The run's review comments (each where it points now, with its answer) and rounds. */
  'review.get': { input: RunId, output: ReviewDoc },
  /** A line comment on the run's change as its branch holds it now (lines of the new side), kept pending until sent. */
  'review.comment': {
    input: RunId.extend({ file: z.string().min(1), line: z.number().int().min(1), endLine: z.number().int().min(1).optional(), body: z.string().min(1) }),
    output: ReviewCommentDoc,
  },
  'review.edit': { input: RunId.extend({ id: z.number().int(), body: z.string().min(1) }), output: Ok },
  'review.remove': { input: RunId.extend({ id: z.number().int() }), output: Ok },
  /** "Send to agent": every pending comment in one round (a step "Address review"), started now or queued for a slot. */
  'review.send': { input: RunId, output: z.object({ queued: z.boolean() }) },
  'runs.start': { input: StartRunInput, output: z.object({ runId: z.string() }) },
  /** What the task New task is about to start would cost and take (`ratchet estimate`), with each step's share: the same input as runs.start, nothing started. */
  'runs.estimate': { input: StartRunInput, output: PlanEstimate },
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
      /** Start the agent though the pre-run check finds the environment not ready (the app's Run anyway; the CLI's --run-anyway). */
      runAnyway: z.boolean().default(false),
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
  /** A run's pull request as the PR panel shows it; `watch` (the panel is open) follows an open one until its checks decide. */
  'pr.get': { input: RunId.extend({ watch: z.boolean().default(false) }), output: PrPanelDoc },
  /** "Open pull request": pushes the run's branch, opens its pull request (or updates the one open for the branch), then watches it. */
  'pr.open': { input: RunId.extend({ draft: z.boolean().default(false), options: PrOptions.optional() }), output: PrPanelDoc },
  /** The PR panel's toggles (fix CI, fix review, merge when green), kept with the run; the watch reads them each round. */
  'pr.setOptions': { input: RunId.merge(PrOptions), output: PrPanelDoc },
  /** New task's "paste an issue URL": the issue (a URL, or a number in the repository's GitHub project) read as a task. */
  'issues.read': { input: z.object({ repo: z.string().min(1), ref: z.string().trim().min(1) }), output: IssueTaskDoc },
  /** Opens the run's worktree in a terminal, an editor or the file manager (the desktop app only; a browser cannot). */
  'runs.openWorktree': { input: RunId.extend({ with: z.enum(['terminal', 'editor', 'folder']) }), output: Ok },
  'stats.summary': { input: z.object({ days: z.union([z.literal(7), z.literal(30)]).default(7) }), output: StatsSummary },
  'stats.whatIf': { input: WhatIfChoiceDoc.extend({ days: z.union([z.literal(7), z.literal(30)]).default(7) }), output: WhatIfDoc },
  'stats.report': { input: z.object({ days: z.union([z.literal(7), z.literal(30)]).default(7) }), output: z.object({ markdown: z.string() }) },
  /** Seed 002's improvement suggestions for the period, from the per-day summary (the weekly report lists the same). */
  'stats.improvements': { input: z.object({ days: z.union([z.literal(7), z.literal(30)]).default(7) }), output: z.object({ items: z.array(ImprovementDoc) }) },
  /** Schedules (Settings › Schedules, `ratchet schedule`): each with its next time and the problem its last tick met. */
  'schedules.list': { input: Empty, output: z.array(ScheduleDoc) },
  /** A new schedule, checked at once (cron, time zone, repository, workflow and its trust): a bad one is refused, nothing kept. */
  'schedules.add': { input: ScheduleInput, output: ScheduleDoc },
  'schedules.remove': { input: z.object({ id: z.string().min(1) }), output: Ok },
  'schedules.setPaused': { input: z.object({ id: z.string().min(1), paused: z.boolean() }), output: ScheduleDoc },
  /** A cron expression's next five times in words (in `tz`), or why it does not read. */
  'schedules.preview': {
    input: z.object({ cron: z.string(), tz: z.string().trim().min(1).nullable().default(null) }),
    output: z.object({ error: z.string().nullable(), next: z.array(z.object({ at: z.string(), text: z.string() })) }),
  },
  'settings.get': { input: Empty, output: Settings },
  'settings.set': {
    input: Settings.omit({ apiKeySet: true, apiKeySource: true, apiKeyWarning: true, budget: true, sandboxStatus: true })
      .extend({ budget: Settings.shape.budget.partial() })
      .partial(),
    output: Settings,
  },
  'settings.setApiKey': { input: z.object({ key: z.string().min(1).nullable() }), output: Settings },
  /** Settings › GitHub: where the token in use comes from (never the token), who it belongs to, and the API's root. */
  'github.settings': { input: Empty, output: GithubSettingsDoc },
  /** Checks a token with one call (who it belongs to) before keeping it like the API key; null forgets it. `apiUrl` null: the public API. */
  'github.set': {
    input: z.object({ token: z.string().trim().min(1).nullable().optional(), apiUrl: z.string().trim().min(1).nullable().optional() }).strict(),
    output: GithubSettingsDoc,
  },
  /** Team mode (runs on team workers): the team database's URL as kept here, password hidden; no connection made. */
  'team.settings': { input: Empty, output: TeamSettingsDoc },
  /** Checks the connection, then keeps the URL (like the API key); null forgets it. A URL that does not connect is not kept. */
  'team.setUrl': { input: z.object({ url: z.string().trim().min(1).nullable() }), output: TeamConnectionDoc },
  /** The team's workers (alive/gone), limits and today's spend; `error` says why when the database does not answer. */
  'team.overview': { input: Empty, output: TeamConnectionDoc },
  /** The team's runs, newest first (none when no team is set). */
  'team.list': { input: Empty, output: z.array(TeamRunItem) },
  'team.status': { input: RunId, output: TeamRunDoc },
  'team.stop': { input: RunId, output: Ok },
  'team.resume': { input: RunId, output: Ok },
  'team.retry': { input: RunId, output: Ok },
  /** Run next (100) / Start later (-100) for a queued team run. */
  'team.setPriority': { input: RunId.extend({ priority: z.number().int().min(-100).max(100) }), output: Ok },
  /** Raise budget: the team run's task budget (above what it spent); a run paused for its budget goes back on the queue. */
  'team.raiseBudget': { input: RunId.extend({ usd: z.number().positive() }), output: Ok },
  /** The team's numbers for the dashboard's period; null when no team is set. */
  'team.stats': { input: z.object({ days: z.union([z.literal(7), z.literal(30)]).default(7) }), output: TeamStatsDoc.nullable() },
  /**
   * Follows a team run's engine events (its workflow's stream, from the start): each comes as team.onEvent with this
   * `follow` token, until the run's workflow ends or team.unfollow; a new follow of the same run replaces the old one.
   */
  'team.follow': { input: RunId.extend({ follow: z.string().min(1) }), output: Ok },
  'team.unfollow': { input: RunId.extend({ follow: z.string().min(1) }), output: Ok },
} as const;

/** Every event the main side pushes to the renderer. */
export const events = {
  'runs.onEvent': EngineEventDoc,
  /** A followed team run's engine event (team.follow). */
  'team.onEvent': TeamEventDoc,
  'app.onNotice': z.object({ code: NoticeCode, level: z.enum(['info', 'warn', 'error']), title: z.string(), body: z.string(), runId: z.string().nullable() }),
  'app.onOpenRepo': z.object({ path: z.string() }),
  /** A baseline check's progress: setup or a gate started or finished (the repository's root names the check). */
  'project.onBaseline': z.object({
    repo: z.string(),
    phase: z.enum(['setup', 'gate']),
    gate: z.string().nullable(),
    state: z.enum(['started', 'finished']),
    ok: z.boolean().nullable(),
    durationMs: z.number().nullable(),
  }),
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
  constructor(
    readonly code: string,
    message: string,
  ) {
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
      if (!parsedInput.success)
        throw new ContractError('bad_input', `${method}: ${parsedInput.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}`);
      const result = await bridge.invoke(method, parsedInput.data);
      if (!result.ok) throw new ContractError(result.error.code, result.error.message);
      const out = spec.output.safeParse(result.value);
      if (!out.success)
        throw new ContractError('bad_output', `${method} answered something that does not match the contract: ${out.error.issues[0]?.message ?? ''}`);
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
    return {
      ok: false,
      error: { code: 'bad_input', message: `${method}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}` },
    };
  }
  try {
    const handler = handlers[method] as (i: unknown) => Promise<unknown>;
    const value = await handler(parsed.data);
    const out = spec.output.safeParse(value);
    if (!out.success)
      return {
        ok: false,
        error: {
          code: 'bad_output',
          message: `${method}: the engine answered outside the contract: ${out.error.issues[0]?.path.join('.')}: ${out.error.issues[0]?.message}`,
        },
      };
    return { ok: true, value: out.data };
  } catch (err) {
    return { ok: false, error: toError(err) };
  }
}
