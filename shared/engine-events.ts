// Every engine event type and its payload, defined once: the engine's store appends them (typed by these schemas) and the
// renderer parses them on arrival. An event crosses a process boundary, so it lives in the contract's folder.
import { z } from 'zod';
import { AttemptOutcome, DecisionDoc, ErrorClass, RunReasonCode, RunStatus, StepStatus } from './domain';
import { NotifyEvent, NotifyTargetName } from './notify';
import { ReusedDoc, SetupDoc } from './worktree-env';

const id = z.number().int();

export const TranscriptEntryDoc = z.object({
  kind: z.enum(['text', 'tool_use', 'tool_result', 'error', 'info']),
  text: z.string(),
  name: z.string().optional(),
  input: z.unknown().optional(),
  isError: z.boolean().optional(),
});

export const eventPayloads = {
  'run.created': z.object({ repo: z.string(), branch: z.string(), worktree: z.string(), baseCommit: z.string(), steps: id }),
  /** The repository's workflow file the run started from was trusted at this content hash (retry/resume keep to it). */
  'workflow.trusted': z.object({ file: z.string(), sha256: z.string() }),
  'run.status': z.object({
    status: RunStatus,
    reason: z.string().nullable().default(null),
    /** Why, as a code (RunReasonCode); null in events written before reason codes. */
    reasonCode: RunReasonCode.nullable().default(null),
    wakeAt: z.string().nullable().default(null),
  }),
  'run.retry': z.object({ fromStep: id.nullable(), fromStatus: z.string(), turnBudget: id.nullable(), auto: z.string(), notes: z.array(z.string()) }),
  'run.resume': z.object({ fromStep: id.nullable(), fromStatus: z.string(), turnBudget: id.nullable(), auto: z.string(), notes: z.array(z.string()) }),
  'step.started': z.object({ step: id, title: z.string().optional() }),
  'step.status': z.object({ step: id, status: StepStatus }),
  'step.committed': z.object({ step: id, commit: z.string() }),
  'step.adopted': z.object({ step: id, commit: z.string() }),
  'step.demoted': z.object({ step: id }),
  'step.repeated_failures': z.object({
    step: id.nullable(),
    attempts: z.array(z.object({ runId: z.string(), n: id, errorClass: z.string().nullable(), message: z.string().nullable(), at: z.string() })),
  }),
  'attempt.started': z.object({
    attemptId: id.optional(),
    step: id,
    n: id,
    model: z.string().nullable().default(null),
    agent: z.string().default(''),
    round: z.number().int().min(0).default(0),
  }),
  /** `finishedAt`: when the attempt really ended, given when that is not the event's own time (one found interrupted later). */
  'attempt.finished': z.object({
    attemptId: id,
    outcome: AttemptOutcome,
    errorClass: ErrorClass.nullable().default(null),
    summary: z.string().nullable().default(null),
    finishedAt: z.string().optional(),
  }),
  'gate.started': z.object({ attemptId: id, gate: z.string(), command: z.string().default('') }),
  'gate.finished': z.object({
    attemptId: id,
    gate: z.string(),
    passed: z.boolean(),
    exitCode: z.number().int().nullable().default(null),
    timedOut: z.boolean().default(false),
    durationMs: z.number().default(0),
    failures: z.number().int().default(0),
  }),
  /** A running gate's output since the previous chunk (bounded, a few per second); the stored result holds the whole output. */
  'gate.output': z.object({ attemptId: id, gate: z.string(), text: z.string(), skippedBytes: z.number().int().min(0).default(0), seq: id.default(0) }),
  decision: DecisionDoc.extend({ attemptId: id, step: id, n: id, fingerprint: z.string().nullable().optional() }),
  'api.usage': z.object({
    attemptId: id,
    model: z.string().optional(),
    inputTokens: z.number().default(0),
    outputTokens: z.number().default(0),
    cacheReadTokens: z.number().default(0),
    cacheWriteTokens: z.number().default(0),
    costUsd: z.number().nullable().default(null),
  }),
  'agent.transcript': TranscriptEntryDoc.extend({ attemptId: id }),
  'budget.alert': z.object({ key: z.string().optional(), kind: z.string(), spentUsd: z.number(), limitUsd: z.number() }),
  'budget.raised': z.object({ taskUsd: z.number(), before: z.number().nullable() }),
  /** A review round started (`running`: its comments sent as step `step`) or ended (`answered` with its commit, or `failed`); also a comment kept, edited or removed (`comments`). */
  'review.round': z.object({
    round: id.nullable(),
    step: id.nullable(),
    status: z.enum(['running', 'answered', 'failed', 'comments']),
    commit: z.string().nullable().default(null),
    comments: id,
  }),
  'plan.revised': z.object({ revision: id, steps: id, kept: z.array(id).optional(), reset: z.array(id).optional() }),
  'rescue.committed': z.object({ step: id.optional(), commit: z.string(), reason: z.string().optional() }),
  'rescue.stashed': z.object({ stash: z.string().nullable() }),
  'git.config_reverted': z.object({ step: id, files: z.array(z.string()) }),
  /** Once per worktree: files copied from the checkout (`copy:`) and dependency folders reused from it (copied, never linked). */
  'worktree.prepared': z.object({ copied: z.array(z.string()), reused: z.array(ReusedDoc), durationMs: z.number() }),
  /** Setup starts: when the worktree was made, when its inputs changed (`changed` says which), or again after it failed or was stopped. */
  'setup.started': z.object({ reason: z.enum(['worktree', 'inputs', 'unfinished']), changed: z.array(z.string()).default([]), commands: z.array(z.string()) }),
  /** Setup's output since the previous chunk, as gate.output (each command after a `$ command` line). */
  'setup.output': z.object({ text: z.string(), skippedBytes: z.number().int().min(0).default(0), seq: id.default(0) }),
  'setup.finished': SetupDoc.omit({ outputTail: true, at: true }),
  /** The baseline check: setup and gates once on the base commit before the agent's first attempt. */
  'baseline.started': z.object({ commit: z.string(), gates: z.array(z.string()) }),
  'baseline.output': z.object({ gate: z.string(), text: z.string(), skippedBytes: z.number().int().min(0).default(0), seq: id.default(0) }),
  'baseline.gate': z.object({
    gate: z.string(),
    passed: z.boolean(),
    exitCode: z.number().int().nullable().default(null),
    durationMs: z.number().default(0),
    errorClass: ErrorClass.nullable().default(null),
    failingTests: z.array(z.string()).default([]),
  }),
  'baseline.finished': z.object({
    ready: z.boolean(),
    problem: z.string().nullable().default(null),
    failingTests: z.array(z.string()).default([]),
    durationMs: z.number().default(0),
  }),
  log: z.object({ level: z.string().default('info'), message: z.string() }),
  /** A notification delivered to one of the channels (ntfy, the webhook, …); `url` is redacted (scheme and host only). */
  'notify.sent': z.object({ event: NotifyEvent, target: NotifyTargetName, url: z.string(), tries: id }),
  /** A notification that could not be delivered (never fails the run); `reason` says why, without the URL's secrets. */
  'notify.failed': z.object({ event: NotifyEvent, target: NotifyTargetName, url: z.string(), tries: id, reason: z.string() }),
} as const;

export type EngineEventType = keyof typeof eventPayloads;
/** What the engine writes (defaults may be left out). */
export type EventPayloadIn<T extends EngineEventType> = z.input<(typeof eventPayloads)[T]>;
export type Payload<T extends EngineEventType> = z.output<(typeof eventPayloads)[T]>;

/** The payload parsed, or null when the type differs or the payload is not what the contract says (ignored, not thrown). */
export function payloadOf<T extends EngineEventType>(type: T, e: { type: string; payload: unknown }): Payload<T> | null {
  if (e.type !== type) return null;
  const r = eventPayloads[type].safeParse(e.payload);
  return r.success ? (r.data as Payload<T>) : null;
}
