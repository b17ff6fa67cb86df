// The Anthropic agent loop: streams Messages API calls, runs the bash and text-editor tools in the worktree, caches the stable prefix.
import Anthropic from '@anthropic-ai/sdk';
import { randomUUID } from 'node:crypto';
import type { Agent, AgentError, AgentRunInput, AgentRunResult, TranscriptEntry } from './agent';
import { priceUsage, rateFor, type PricingTable, type Usage } from './pricing';
import { modelSpec, UNKNOWN_MODEL_CONTEXT_WINDOW } from '../../../shared/anthropic-models';
import { money } from '../../../shared/money';
import { AGENT_TOOLS, runTool } from './tools/tool-definitions';
import { tmpdir } from 'node:os';
import { allowlistEnv } from '../sandbox/sandbox-env';
import type { RunJail } from '../sandbox/os-sandbox';
import { createBashSession } from './tools/bash-tool';

type MessageParam = Anthropic.Messages.MessageParam;
type ContentBlockParam = Anthropic.Messages.ContentBlockParam;
type ToolResultBlockParam = Anthropic.Messages.ToolResultBlockParam;

export interface AnthropicAgentOptions {
  apiKey: string | undefined;
  baseURL: string | undefined;
  pricing: PricingTable;
  /** Environment handed to the agent's shell: an allowlist (see allowlistEnv); the jail's when there is one. */
  env: NodeJS.ProcessEnv;
  /** The run's OS sandbox around the agent's shell. */
  jail?: RunJail;
  maxRetries?: number;
}

const EPHEMERAL = { type: 'ephemeral' } as const;

/** Maps an SDK error to the agent error the policy understands. */
export function toAgentError(err: unknown): AgentError {
  if (err instanceof Anthropic.APIError) {
    const status = err.status ?? null;
    const header = err.headers?.get?.('retry-after') ?? null;
    const retryAfterS = header !== null && header !== '' && !Number.isNaN(Number(header)) ? Number(header) : null;
    const detail = err.apiMessage ?? err.message;
    if (status === 429) return { errorClass: 'rate_limit', message: `Rate limited by the API: ${detail}`, status, retryAfterS, retriable: true };
    if (status === undefined || status === null || status >= 500 || status === 408 || status === 409) {
      return { errorClass: 'api_error', message: `API error${status ? ` ${status}` : ''}: ${detail}`, status, retryAfterS, retriable: true };
    }
    const fix = status === 401 || status === 403 ? ' Check ANTHROPIC_API_KEY.' : status === 404 ? ' Check the model name.' : '';
    return { errorClass: 'api_error', message: `API refused the request (${status}): ${detail}.${fix}`, status, retryAfterS, retriable: false };
  }
  // No key at all (it was removed mid-run): the user's to fix, not a transient fault worth five retries and their backoff.
  if (err instanceof Error && /Could not resolve authentication method/i.test(err.message)) {
    return {
      errorClass: 'api_error',
      message: 'No API key: ANTHROPIC_API_KEY is not set (add it in Settings or the environment), so the API could not be called.',
      status: null,
      retryAfterS: null,
      retriable: false,
    };
  }
  // A cut or malformed stream: the SDK raises a plain AnthropicError (or a SyntaxError for a malformed body).
  if (err instanceof Anthropic.AnthropicError || err instanceof SyntaxError) {
    return { errorClass: 'api_error', message: `API response could not be read: ${err.message}`, status: null, retryAfterS: null, retriable: true };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { errorClass: 'unknown', message, status: null, retryAfterS: null, retriable: true };
}

function usageOf(u: Anthropic.Messages.Usage): Usage {
  return {
    inputTokens: u.input_tokens ?? 0,
    outputTokens: u.output_tokens ?? 0,
    cacheReadTokens: u.cache_read_input_tokens ?? 0,
    cacheWriteTokens: u.cache_creation_input_tokens ?? 0,
  };
}

/** Moves the rolling cache breakpoint to the last block of the newest user message (at most 4 breakpoints in all). */
function withRollingBreakpoint(messages: MessageParam[]): MessageParam[] {
  const last = messages.length - 1;
  return messages.map((m, i) => {
    if (i !== last || i === 0 || m.role !== 'user' || typeof m.content === 'string') return m;
    const blocks = m.content.map((b, j) =>
      j === m.content.length - 1 && (b.type === 'tool_result' || b.type === 'text') ? { ...b, cache_control: EPHEMERAL } : b,
    );
    return { ...m, role: 'user' as const, content: blocks as ContentBlockParam[] };
  });
}

/** Characters per token assumed before the API has counted one of this session's requests (conservative: real text runs 3.5–4). */
const FIRST_CHARS_PER_TOKEN = 3;
/** Old tool results are elided once the request would pass this share of the window, down to the lower share. */
const TRIM_AT = 0.8;
const TRIM_TO = 0.5;
/** The prompt cache keeps a prefix 5 minutes; a call within this many ms of the last one reads what that one wrote. */
const CACHE_FRESH_MS = 270_000;
/** Below this many output tokens a call is not worth making: the budget stops the attempt instead. */
const MIN_USEFUL_OUTPUT = 256;

const elided = (chars: number): string =>
  `[The output of this earlier tool call (${chars} characters) was elided to keep the conversation within the model's context window; run it again if you need it.]`;

/**
 * Elides the content of the oldest tool results (never the newest message's) until the conversation's estimated size
 * is at most `target` characters. Done in place, so later requests share the trimmed prefix and cache it again.
 * Returns whether anything was elided.
 */
export function elideOldToolResults(messages: MessageParam[], sizeOf: () => number, target: number): boolean {
  let changed = false;
  for (let i = 0; i < messages.length - 1 && sizeOf() > target; i++) {
    const m = messages[i]!;
    if (m.role !== 'user' || typeof m.content === 'string') continue;
    m.content = m.content.map((b) => {
      if (b.type !== 'tool_result') return b;
      const text = typeof b.content === 'string' ? b.content : JSON.stringify(b.content ?? '');
      if (text.startsWith('[The output of this earlier tool call')) return b;
      const stub = elided(text.length);
      if (stub.length >= text.length) return b;
      changed = true;
      return { ...b, content: stub };
    });
  }
  return changed;
}

export function createAnthropicAgent(opts: AnthropicAgentOptions): Agent {
  const client = new Anthropic({
    apiKey: opts.apiKey ?? null,
    baseURL: opts.baseURL ?? null,
    maxRetries: opts.maxRetries ?? 2,
  });
  // Conversations kept for `session: continue`, keyed by session id.
  const sessions = new Map<string, MessageParam[]>();

  return {
    kind: 'anthropic',
    async run(input: AgentRunInput): Promise<AgentRunResult> {
      const transcript: TranscriptEntry[] = [];
      const note = (e: TranscriptEntry) => {
        transcript.push(e);
        input.onTranscript(e);
      };
      const bash = createBashSession({
        cwd: input.worktree,
        // Without a jail the allowlist is applied here too: the agent's own key never reaches its shell.
        env: opts.jail?.env ?? allowlistEnv(opts.env, { home: opts.env.HOME ?? input.worktree, tmpDir: opts.env.TMPDIR ?? tmpdir() }),
        jail: opts.jail,
      });
      const previous = input.session === 'continue' && input.sessionId ? sessions.get(input.sessionId) : undefined;
      const sessionId = previous && input.sessionId ? input.sessionId : randomUUID();
      // The API refuses an empty text block: an empty context or prompt is left out rather than sent.
      const promptBlocks: ContentBlockParam[] = input.prompt.trim() ? [{ type: 'text', text: input.prompt }] : [];
      const firstBlocks: ContentBlockParam[] = [
        ...(input.context.trim() ? [{ type: 'text' as const, text: input.context, cache_control: EPHEMERAL }] : []),
        ...promptBlocks,
      ];
      const messages: MessageParam[] = previous
        ? [...previous, { role: 'user', content: promptBlocks.length ? promptBlocks : [{ type: 'text', text: 'Continue.' }] }]
        : [{ role: 'user', content: firstBlocks.length ? firstBlocks : [{ type: 'text', text: 'Continue.' }] }];
      const system: Anthropic.Messages.TextBlockParam[] = [{ type: 'text', text: input.system, cache_control: EPHEMERAL }];
      // Within the model's published limits (models.ts): max_tokens at most its output limit, the request within its window.
      const spec = modelSpec(input.model);
      const window = spec?.contextWindow ?? UNKNOWN_MODEL_CONTEXT_WINDOW;
      const configuredMax = spec ? Math.min(input.maxTokens, spec.maxOutput) : input.maxTokens;
      const fixedChars = JSON.stringify(system).length + JSON.stringify(AGENT_TOOLS).length;
      const sizeOf = () => fixedChars + JSON.stringify(messages).length;
      let tokensPerChar = 1 / FIRST_CHARS_PER_TOKEN;
      const estimate = (chars: number) => Math.ceil(chars * tokensPerChar * 1.1);
      const rate = rateFor(opts.pricing, input.model);
      let cachedTokens = 0;
      let lastCallAt = 0;
      let turns = 0;
      try {
        while (turns < input.maxTurns) {
          if (input.signal.aborted) return { stop: 'aborted', error: null, transcript, sessionId, turns, reportedCostUsd: null };
          // Turn 40 with large tool results: the oldest results give way, the stable prefix (system, task) stays cached.
          const room = window - configuredMax;
          if (estimate(sizeOf()) > room * TRIM_AT && elideOldToolResults(messages, sizeOf, (room * TRIM_TO) / (tokensPerChar * 1.1))) {
            note({ kind: 'info', text: 'older tool output was elided to keep the conversation within the context window' });
            cachedTokens = 0;
          }
          const inputTokens = estimate(sizeOf());
          let maxTokens = Math.max(1, Math.min(configuredMax, window - inputTokens));
          // The budget is a cap: reserve this call's worst case (input as written to the cache, except what the last
          // call cached moments ago, and every output token) and give it no more output than the budget leaves.
          const limit = input.spendLimitUsd?.() ?? null;
          if (limit !== null && rate) {
            const cached = Date.now() - lastCallAt < CACHE_FRESH_MS ? Math.min(cachedTokens, inputTokens) : 0;
            const inputUsd = (cached * rate.cache_read + (inputTokens - cached) * Math.max(rate.input, rate.cache_write)) / 1e6;
            const affordable = rate.output > 0 ? Math.floor(((limit - inputUsd) * 1e6) / rate.output) : maxTokens;
            if (affordable < Math.min(MIN_USEFUL_OUTPUT, maxTokens)) {
              const worst = inputUsd + (Math.min(MIN_USEFUL_OUTPUT, maxTokens) * rate.output) / 1e6;
              const why = `stopped before API call ${turns + 1}: it could cost up to ${money(worst)} and the budget leaves ${money(Math.max(0, limit))}`;
              note({ kind: 'info', text: why });
              sessions.set(sessionId, messages);
              return { stop: 'budget', error: null, transcript, sessionId, turns, reportedCostUsd: null, budgetNote: why };
            }
            maxTokens = Math.min(maxTokens, affordable);
          }
          turns++;
          const requestChars = sizeOf();
          const stream = client.messages.stream(
            {
              model: input.model,
              max_tokens: maxTokens,
              system,
              tools: AGENT_TOOLS,
              messages: withRollingBreakpoint(messages),
            },
            { signal: input.signal },
          );
          const message = await stream.finalMessage();
          const usage = usageOf(message.usage);
          const counted = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
          if (counted > 0) tokensPerChar = counted / requestChars;
          cachedTokens = counted;
          lastCallAt = Date.now();
          input.onUsage(input.model, usage, priceUsage(opts.pricing, input.model, usage));
          // An answer with no content (a refusal, a cut) is not kept: the API refuses an empty message in a later request.
          if (message.content.length) messages.push({ role: 'assistant', content: message.content as ContentBlockParam[] });
          const results: ToolResultBlockParam[] = [];
          for (const block of message.content) {
            if (block.type === 'text') {
              if (block.text.trim()) note({ kind: 'text', text: block.text });
            } else if (block.type === 'tool_use') {
              note({ kind: 'tool_use', text: block.name, name: block.name, input: block.input });
              const outcome = await runTool(block.name, block.input, { root: input.worktree, bash, signal: input.signal });
              note({ kind: 'tool_result', text: outcome.content.slice(0, 4000), name: block.name, isError: outcome.isError });
              results.push({ type: 'tool_result', tool_use_id: block.id, content: outcome.content, is_error: outcome.isError });
            }
          }
          if (results.length === 0) {
            sessions.set(sessionId, messages);
            const stop = message.stop_reason === 'max_tokens' ? 'max_turns' : 'end_turn';
            return { stop, error: null, transcript, sessionId, turns, reportedCostUsd: null };
          }
          messages.push({ role: 'user', content: results });
        }
        sessions.set(sessionId, messages);
        note({ kind: 'info', text: `turn budget of ${input.maxTurns} used up` });
        return { stop: 'max_turns', error: null, transcript, sessionId, turns, reportedCostUsd: null };
      } catch (err) {
        if (input.signal.aborted) {
          return { stop: 'aborted', error: null, transcript, sessionId, turns, reportedCostUsd: null };
        }
        const error = toAgentError(err);
        note({ kind: 'error', text: error.message });
        return { stop: 'error', error, transcript, sessionId, turns, reportedCostUsd: null };
      } finally {
        bash.close();
      }
    },
  };
}
