// The agent port: what the engine asks of any agent (Anthropic loop or CLI), and what it gets back.
import type { z } from 'zod';
import type { TranscriptEntryDoc } from '../../../shared/engine-events';
import type { Usage } from './pricing';

export type AgentErrorClass = 'api_error' | 'rate_limit' | 'timeout' | 'unknown';

export interface AgentError {
  errorClass: AgentErrorClass;
  message: string;
  /** HTTP status when the error came from an API. */
  status: number | null;
  /** Seconds the server asked us to wait (429 retry-after). */
  retryAfterS: number | null;
  /** False for errors another attempt cannot fix (bad key, bad request). */
  retriable: boolean;
}

/** One piece of an agent's transcript; the schema lives in shared/ because the app shows it. */
export type TranscriptEntry = z.infer<typeof TranscriptEntryDoc>;

export interface AgentRunInput {
  worktree: string;
  /** Stable text: role, rules, worktree. Cached. */
  system: string;
  /** Stable per task: task description and plan, wrapped as untrusted. Cached across attempts. */
  context: string;
  /** What this attempt should do: the step prompt, or the retry context. Not cached. */
  prompt: string;
  model: string;
  maxTurns: number;
  maxTokens: number;
  session: 'new' | 'continue';
  /** Session to continue (`session: continue`); null starts a new one. */
  sessionId: string | null;
  signal: AbortSignal;
  onUsage(model: string, usage: Usage, costUsd: number | null): void;
  /**
   * What the agent may still spend, in USD, before the next API call (the task budget plus 10 %, less what was spent);
   * null or absent: no limit. Agents that price their own calls keep each call's worst case within it.
   */
  spendLimitUsd?: () => number | null;
  onTranscript(entry: TranscriptEntry): void;
}

export interface AgentRunResult {
  /** `budget`: the next call could have cost more than spendLimitUsd allows, so the agent stopped before making it. */
  stop: 'end_turn' | 'max_turns' | 'error' | 'aborted' | 'budget';
  /** With stop `budget`: what the call would have cost and what was left, in words. */
  budgetNote?: string;
  error: AgentError | null;
  transcript: TranscriptEntry[];
  sessionId: string | null;
  turns: number;
  /** Set by agents that report their own cost (CLI agents); the engine then does not price usage. */
  reportedCostUsd: number | null;
}

export interface Agent {
  readonly kind: 'anthropic' | 'command' | string;
  run(input: AgentRunInput): Promise<AgentRunResult>;
}
