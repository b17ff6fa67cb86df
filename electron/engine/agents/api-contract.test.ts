// The first real API call must be accepted. The scripted server refuses what the real API refuses
// (models.ts, from the published reference), and the Anthropic agent's requests pass it for every model Ratchet prices.
import { afterEach, describe, expect, it } from 'vitest';
import type Anthropic from '@anthropic-ai/sdk';
import { startScriptedServer, type ScriptedServer } from '../../scripted/server';
import { say, turn } from '../testing/fixture-project';
import { tempDir } from '../testing/temp-repo';
import type { AgentRunInput } from './agent';
import { createAnthropicAgent } from './anthropic-agent';
import { loadPricing } from './pricing';
import { DEFAULT_PRICING_FILE } from '../engine';
import { modelSpec } from '../../../shared/anthropic-models';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const pricing = loadPricing(DEFAULT_PRICING_FILE);
const offered = Object.keys(pricing.models);

function input(worktree: string, over: Partial<AgentRunInput> = {}): AgentRunInput {
  return {
    worktree,
    system: 'You are a coding agent.',
    context: 'Task: demo',
    prompt: 'Step 1',
    model: 'claude-sonnet-5-5',
    maxTurns: 5,
    maxTokens: 8192,
    session: 'new',
    sessionId: null,
    signal: new AbortController().signal,
    onUsage: () => undefined,
    onTranscript: () => undefined,
    ...over,
  };
}

async function refusal(body: Record<string, unknown>): Promise<{ status: number; json: { type: string; error: { type: string; message: string } } }> {
  const res = await fetch(`${server!.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'k' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as never };
}

const base = (over: Record<string, unknown> = {}) => ({ model: 'claude-sonnet-5-5', max_tokens: 1024, messages: [{ role: 'user', content: 'hi' }], ...over });

describe('the scripted server refuses what the real API refuses', () => {
  it('answers with the real error shape: 400 invalid_request_error', async () => {
    server = await startScriptedServer({ script: { rules: [{ response: say('ok') }] } });
    const r = await refusal(base({ max_tokens: 200_000 }));
    expect(r.status).toBe(400);
    expect(r.json.type).toBe('error');
    expect(r.json.error.type).toBe('invalid_request_error');
    expect(r.json.error.message).toMatch(/max_tokens: 200000 > 128000/);
  });

  it('refuses each published limit', async () => {
    server = await startScriptedServer({ script: { rules: [{ response: say('ok') }] } });
    expect((await refusal(base({ model: 'claude-haiku-4-5', max_tokens: 65_000 }))).status).toBe(400);
    expect((await refusal(base({ model: 'claude-opus-4-1' }))).status).toBe(404);
    expect((await refusal(base({ temperature: 0.2 }))).json.error.message).toMatch(/sampling/);
    expect((await refusal(base({ model: 'claude-sonnet-4-5', temperature: 0.2, top_p: 0.9 }))).json.error.message).toMatch(/cannot both/);
    expect((await refusal(base({ model: 'claude-sonnet-4-5', temperature: 0.2 }))).status).toBe(200);
    expect(
      (await refusal(base({ model: 'claude-opus-4-7', thinking: { type: 'enabled', budget_tokens: 2048 }, max_tokens: 4096 }))).json.error.message,
    ).toMatch(/thinking.type.enabled/);
    expect((await refusal(base({ model: 'claude-opus-5-5', thinking: { type: 'disabled' } }))).status).toBe(400);
    expect((await refusal(base({ model: 'claude-haiku-4-5', thinking: { type: 'adaptive' } }))).status).toBe(400);
    expect((await refusal(base({ tools: [{ type: 'text_editor_20250728', name: 'text_editor' }] }))).json.error.message).toMatch(/str_replace_based_edit_tool/);
    expect((await refusal(base({ tools: [{ type: 'bash_20241022', name: 'bash' }] }))).status).toBe(400);
    const marked = { type: 'text', text: 'x', cache_control: { type: 'ephemeral' } };
    expect((await refusal(base({ system: [marked, marked, marked], messages: [{ role: 'user', content: [marked, marked] }] }))).json.error.message).toMatch(
      /maximum of 4 blocks/,
    );
    expect((await refusal(base({ frequency_penalty: 1 }))).json.error.message).toMatch(/Extra inputs/);
    const big = 'word '.repeat(200_000); // about 250,000 tokens by the server's estimate
    expect((await refusal(base({ model: 'claude-haiku-4-5', messages: [{ role: 'user', content: big }] }))).json.error.message).toMatch(/prompt is too long/);
  });

  it('still answers a model it does not know (a test double) and lists models', async () => {
    server = await startScriptedServer({ script: { rules: [{ response: say('ok') }] } });
    expect((await refusal(base({ model: 'claude-test-1', max_tokens: 500_000 }))).status).toBe(200);
  });
});

describe('the Anthropic agent is accepted for every model Ratchet offers', () => {
  it('knows the limits of every priced model', () => {
    expect(offered.filter((m) => modelSpec(m) === null)).toEqual([]);
  });

  it.each(offered)('%s: a tool-using session with the default max_tokens and a large one', async (model) => {
    server = await startScriptedServer({
      script: { rules: [{ match: 'hello', response: say('done') }, { response: turn({ type: 'tool_use', name: 'bash', input: { command: 'echo hello' } }) }] },
    });
    const agent = createAnthropicAgent({ apiKey: 'k', baseURL: server.url, pricing, env: {} });
    for (const maxTokens of [8192, 300_000]) {
      const result = await agent.run(input(tempDir(), { model, maxTokens }));
      expect(result.error?.message ?? null).toBeNull();
      expect(result.stop).toBe('end_turn');
    }
    expect(server.requests.every((r) => r.status === 200)).toBe(true);
    expect(Math.max(...server.requests.map((r) => r.body.max_tokens as number))).toBe(modelSpec(model)!.maxOutput);
  });

  it.each(['claude-haiku-4-5', 'claude-sonnet-5-5'])(
    '%s: turn 40 with large tool results stays within the context window, its stable prefix still cached',
    async (model) => {
      // Each command prints about 100 KB (the bash tool's bound): 40 of them are about a million tokens.
      server = await startScriptedServer({
        script: { rules: [{ response: turn({ type: 'tool_use', name: 'bash', input: { command: "head -c 100000 /dev/zero | tr '\\0' 'x'" } }) }] },
      });
      const agent = createAnthropicAgent({ apiKey: 'k', baseURL: server.url, pricing, env: {} });
      const usage: number[] = [];
      const result = await agent.run(
        input(tempDir(), {
          model,
          maxTurns: 40,
          context: 'Task: '.repeat(2000),
          onUsage: (_m, u) => usage.push(u.cacheReadTokens),
        }),
      );
      expect(result.error?.message ?? null).toBeNull();
      expect(result.stop).toBe('max_turns');
      expect(server.requests).toHaveLength(40);
      expect(server.requests.every((r) => r.status === 200)).toBe(true);
      // The system prompt and the task context are read from the cache on every call after the first.
      expect(usage.slice(1).every((read) => read >= 3000)).toBe(true);
      // The newest tool result is whole: the model sees what it just asked for.
      const last = server.requests.at(-1)!.body as Anthropic.MessageCreateParams;
      const lastResult = (last.messages.at(-1)!.content as Anthropic.ToolResultBlockParam[])[0]!;
      expect(String(lastResult.content).length).toBeGreaterThan(90_000);
    },
    120_000,
  );
});

describe('a continued session stays a conversation the API accepts', () => {
  it('continues after an answer with no content (a refusal) without sending an empty assistant message', async () => {
    let n = 0;
    server = await startScriptedServer({ script: () => (n++ === 0 ? { content: [], stop_reason: 'end_turn' } : say('done')) });
    const agent = createAnthropicAgent({ apiKey: 'k', baseURL: server.url, pricing, env: {} });
    const first = await agent.run(input(tempDir()));
    expect(first.stop).toBe('end_turn');
    const again = await agent.run(input(tempDir(), { session: 'continue', sessionId: first.sessionId, prompt: 'Retry: try again' }));
    expect(again.error?.message ?? null).toBeNull();
    expect(server.requests.map((r) => r.status)).toEqual([200, 200]);
  });

  it('refuses a tool_use left without its tool_result, as the API does', async () => {
    server = await startScriptedServer({ script: { rules: [{ response: say('ok') }] } });
    const r = await refusal(
      base({
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'ls' } }] },
          { role: 'user', content: 'go on' },
        ],
      }),
    );
    expect(r.status).toBe(400);
    expect(r.json.error.message).toMatch(/tool_result/);
  });

  it('refuses an empty text block, as the API does, and the agent sends none even for an empty step prompt', async () => {
    server = await startScriptedServer({ script: { rules: [{ response: say('ok') }] } });
    expect((await refusal(base({ messages: [{ role: 'user', content: [{ type: 'text', text: '' }] }] }))).status).toBe(400);
    const agent = createAnthropicAgent({ apiKey: 'k', baseURL: server.url, pricing, env: {} });
    const result = await agent.run(input(tempDir(), { prompt: '' }));
    expect(result.error?.message ?? null).toBeNull();
  });
});
