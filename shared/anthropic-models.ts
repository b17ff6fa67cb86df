// What the Anthropic Messages API accepts per model (from the published model pages, checked 2026-11-26): the context
// window, the output limit, how the model thinks, which sampling parameters it refuses, and the client tool versions.
// The agent keeps its requests within these; the scripted server refuses what the real API refuses, by the same facts.

export type ThinkingMode =
  /** Manual extended thinking only (`thinking: {type: 'enabled', budget_tokens}`); no adaptive thinking. */
  | 'manual'
  /** Adaptive and (deprecated) manual thinking both accepted. */
  | 'adaptive-or-manual'
  /** Adaptive thinking only: `thinking.type: 'enabled'` (a manual budget) is refused. */
  | 'adaptive'
  /** Adaptive thinking, always on: `enabled` and `disabled` are both refused. */
  | 'adaptive-always';

export interface ModelSpec {
  contextWindow: number;
  maxOutput: number;
  thinking: ThinkingMode;
  /** Newer models refuse any non-default temperature, top_p or top_k (and temperature with top_p at all). */
  refusesSampling: boolean;
}

const K = 1000;
const M = 1_000_000;

const spec = (contextWindow: number, maxOutput: number, thinking: ThinkingMode, refusesSampling: boolean): ModelSpec => ({
  contextWindow,
  maxOutput,
  thinking,
  refusesSampling,
});

/** Every model Ratchet's pricing table offers that the API still serves. Dated ids resolve to their alias. */
export const MODEL_SPECS: Readonly<Record<string, ModelSpec>> = {
  'claude-fable-5-1': spec(1 * M, 128 * K, 'adaptive-always', true),
  'claude-mythos-5-1': spec(1 * M, 128 * K, 'adaptive-always', true),
  'claude-fable-5': spec(1 * M, 128 * K, 'adaptive-always', true),
  'claude-mythos-5': spec(1 * M, 128 * K, 'adaptive-always', true),
  'claude-opus-5-5': spec(1 * M, 128 * K, 'adaptive-always', true),
  'claude-opus-5': spec(1 * M, 128 * K, 'adaptive', true),
  'claude-opus-4-8': spec(1 * M, 128 * K, 'adaptive', true),
  'claude-opus-4-7': spec(1 * M, 128 * K, 'adaptive', true),
  'claude-opus-4-6': spec(1 * M, 128 * K, 'adaptive-or-manual', false),
  'claude-opus-4-5': spec(200 * K, 64 * K, 'manual', false),
  'claude-sonnet-5-5': spec(1 * M, 128 * K, 'adaptive', true),
  'claude-sonnet-5': spec(1 * M, 128 * K, 'adaptive', true),
  'claude-sonnet-4-6': spec(1 * M, 128 * K, 'adaptive-or-manual', false),
  'claude-sonnet-4-5': spec(200 * K, 64 * K, 'manual', false),
  'claude-haiku-5-5': spec(1 * M, 128 * K, 'adaptive', true),
  'claude-haiku-4-5': spec(200 * K, 64 * K, 'manual', false),
};

/** Model ids the API has retired: a request names them and gets 404 not_found_error. */
export const RETIRED_MODELS: ReadonlySet<string> = new Set([
  'claude-opus-4-1',
  'claude-opus-4-0',
  'claude-opus-4',
  'claude-sonnet-4-0',
  'claude-sonnet-4',
  'claude-3-7-sonnet',
  'claude-3-5-sonnet',
  'claude-3-5-haiku',
  'claude-3-opus',
  'claude-3-haiku',
]);

/** The client tools every model above accepts: the type, and the name that type requires. */
export const CLIENT_TOOL_NAMES: Readonly<Record<string, string>> = {
  bash_20250124: 'bash',
  text_editor_20250728: 'str_replace_based_edit_tool',
};

/** The API allows at most this many blocks marked with cache_control in one request. */
export const MAX_CACHE_BREAKPOINTS = 4;

const undated = (model: string): string => model.replace(/-\d{8}$/, '').replace(/-latest$/, '');

export function modelSpec(model: string): ModelSpec | null {
  return MODEL_SPECS[model] ?? MODEL_SPECS[undated(model)] ?? null;
}

export function isRetiredModel(model: string): boolean {
  return RETIRED_MODELS.has(undated(model));
}

/**
 * What the agent assumes of a model this table does not know (a newer one, or a test double): the smallest current
 * window, and no output cap of its own (the configured max_tokens stands).
 */
export const UNKNOWN_MODEL_CONTEXT_WINDOW = 200 * K;
