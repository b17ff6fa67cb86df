// The retry entries: which entries apply at an attempt and the sticky overrides they leave active (the load-time checks: workflow/retry-check.ts).
import type { AgentOverride, RetryEntry } from '../workflow/schema';
import type { z } from 'zod';

export interface Overrides {
  agent?: z.infer<typeof AgentOverride>;
  session?: 'new' | 'continue';
  worktree?: 'reset' | 'keep';
  prompt?: string;
  /** Set by the policy after a gate timeout: gates run with their timeout multiplied. */
  gateTimeoutMultiplier?: number;
}

export interface EntryFacts {
  /** The attempt about to start. */
  attempt: number;
  /** Gates that failed on the attempt that just ended. */
  failedGates: readonly string[];
  /** Results of `validate` entries, by entry index (evaluated by the caller). */
  validated: ReadonlyMap<number, boolean>;
}

export function entryApplies(entry: RetryEntry, index: number, f: EntryFacts): boolean {
  if (entry.attempt !== undefined) return f.attempt >= entry.attempt;
  if (entry.not !== undefined) return f.failedGates.includes(entry.not.slice('gate.'.length));
  if (entry.validate !== undefined) return f.validated.get(index) === true;
  return false;
}

function overridesOf(entry: RetryEntry): Overrides {
  const o: Overrides = {};
  if (entry.agent) o.agent = entry.agent;
  // A new agent cannot continue another agent's session (the session is forced to new).
  if (entry.agent) o.session = 'new';
  else if (entry.session) o.session = entry.session;
  if (entry.worktree) o.worktree = entry.worktree;
  if (entry.prompt) o.prompt = entry.prompt;
  return o;
}

/**
 * Overrides active for the attempt in `f`: those already active (sticky) with every entry that applies now
 * laid over them in list order, so a later entry overriding the same keyword replaces it.
 */
export function applyEntries(entries: readonly RetryEntry[], active: Overrides, f: EntryFacts): { overrides: Overrides; applied: number[] } {
  let overrides: Overrides = { ...active };
  const applied: number[] = [];
  entries.forEach((entry, i) => {
    if (entry.exit !== undefined) return;
    if (!entryApplies(entry, i, f)) return;
    applied.push(i);
    overrides = { ...overrides, ...overridesOf(entry) };
  });
  return { overrides, applied };
}
