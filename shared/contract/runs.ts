// The contract's documents about runs: the runs list, the events, an attempt's detail and gate output, starting a run,
// the queue and landing a succeeded run (shared/contract.ts's methods answer with these).
import { z } from 'zod';
import { AttemptOutcome, DecisionDoc, ErrorClass, FailedTestDoc, RunListItem, StepSpec } from '../domain';
import { TranscriptEntryDoc } from '../engine-events';
import { AppSetup } from '../project';

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

export const RunQueueDoc = z.object({
  concurrency: z.number().int(),
  active: z.array(z.string()),
  queued: z.array(
    z.object({
      runId: z.string(),
      title: z.string(),
      priority: z.number().int(),
      position: z.number().int(),
      queuedAt: z.string(),
      action: z.enum(['execute', 'retry', 'resume', 'review']),
    }),
  ),
  /** A 429 on one run holds every run using the same API key until `until`. */
  holds: z.array(z.object({ until: z.string(), runId: z.string().nullable(), reason: z.string() })),
});
export type RunQueueDoc = z.infer<typeof RunQueueDoc>;

/** Agents New task offers: the Anthropic API, or Claude Code run as a command agent. */
export const AgentChoice = z.enum(['anthropic', 'claude-code']);
export type AgentChoice = z.infer<typeof AgentChoice>;

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
  retry: z
    .object({
      maxRetries: z.number().int().min(0).optional(),
      timeoutSeconds: z.number().positive().optional(),
      allowRetryOn: z.array(ErrorClass).min(1).optional(),
    })
    .optional(),
  /** The user trusts the repository's workflow file as it is now (the Trust button); stored per repository with its hash. */
  trust: z.boolean().optional(),
  /** The hash workflow.load gave for the file's content the user was shown: the run starts only if the file still has exactly it. */
  trustSha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  /** Queue priority: a higher number starts first when runs wait for a slot (default 0). */
  priority: z.number().int().min(-100).max(100).optional(),
  /** The agent of app-written steps: the Anthropic API (needs a key; the default) or Claude Code's CLI (`claude`, its own login). */
  agent: AgentChoice.optional(),
  /** Run on team workers: submitted to the team's queue (Settings › Team) instead of started here. */
  team: z.boolean().optional(),
  /** The user confirmed "Run without checks": steps no gate checks may run (refused otherwise, `no_gates`); the run says "unchecked". */
  noGates: z.boolean().optional(),
  /** The GitHub issue the task comes from (its URL, or its number in the repository's project): its pull request says "Fixes #N". */
  issue: z.string().trim().min(1).optional(),
});
export type StartRunInput = z.infer<typeof StartRunInput>;
