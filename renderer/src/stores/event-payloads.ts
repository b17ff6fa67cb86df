// Zod schemas for the payloads of the engine events the renderer reacts to (the contract types them only as records).
import { z } from 'zod';
import { AttemptOutcome, DecisionDoc, ErrorClass, RunStatus, StepStatus } from '../../../shared/domain';
import { TranscriptEntryDoc } from '../../../shared/contract';

const id = z.number().int();

export const payloads = {
  'run.status': z.object({ status: RunStatus, reason: z.string().nullable().default(null), wakeAt: z.string().nullable().default(null) }),
  'step.started': z.object({ step: id }),
  'step.status': z.object({ step: id, status: StepStatus }),
  'step.committed': z.object({ step: id, commit: z.string() }),
  'step.adopted': z.object({ step: id, commit: z.string() }),
  'step.demoted': z.object({ step: id }),
  'attempt.started': z.object({ step: id, n: id, model: z.string().nullable().default(null), agent: z.string().default('') }),
  'attempt.finished': z.object({ attemptId: id, outcome: AttemptOutcome, errorClass: ErrorClass.nullable().default(null), summary: z.string().nullable().default(null) }),
  'gate.started': z.object({ attemptId: id, gate: z.string(), command: z.string().default('') }),
  'gate.finished': z.object({
    attemptId: id, gate: z.string(), passed: z.boolean(), exitCode: z.number().int().nullable().default(null),
    timedOut: z.boolean().default(false), durationMs: z.number().default(0), failures: z.number().int().default(0),
  }),
  decision: DecisionDoc.extend({ attemptId: id, step: id, n: id, fingerprint: z.string().nullable().optional() }),
  'api.usage': z.object({
    attemptId: id, model: z.string().optional(), inputTokens: z.number().default(0), outputTokens: z.number().default(0),
    cacheReadTokens: z.number().default(0), cacheWriteTokens: z.number().default(0), costUsd: z.number().nullable().default(null),
  }),
  'agent.transcript': TranscriptEntryDoc.extend({ attemptId: id }),
  'budget.alert': z.object({ kind: z.string(), spentUsd: z.number(), limitUsd: z.number() }),
  'plan.revised': z.object({ revision: id, steps: id }),
  log: z.object({ level: z.string().default('info'), message: z.string() }),
} as const;

export type PayloadType = keyof typeof payloads;
export type Payload<T extends PayloadType> = z.output<(typeof payloads)[T]>;

/** The payload parsed, or null when the type differs or the engine sent something unexpected (ignored, not thrown). */
export function payloadOf<T extends PayloadType>(type: T, e: { type: string; payload: unknown }): Payload<T> | null {
  if (e.type !== type) return null;
  const r = payloads[type].safeParse(e.payload);
  return r.success ? (r.data as Payload<T>) : null;
}
