// How a step ended, as the run sees it: what the step runner returns and the run machine decides the run's life on.
import type { ErrorClass } from '../../../shared/domain';

export type StepOutcome =
  | { kind: 'done'; commit: string }
  | { kind: 'stopped'; reason: string }
  | { kind: 'fatal'; reason: string; summary: string; errorClass: ErrorClass | null; attempts?: number; maxAttempts?: number; why?: string }
  | { kind: 'escalate'; reason: string; summary: string; attempts?: number; maxAttempts?: number; why?: string }
  | { kind: 'parked'; reason: string; wakeAt: string }
  | { kind: 'budget'; budget: 'task' | 'daily'; reason: string; wakeAt: string | null };
