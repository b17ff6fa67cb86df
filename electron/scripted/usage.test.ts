// Checks the token estimate and the prompt-cache simulation on plain request bodies.
import { describe, expect, it } from 'vitest';
import { PromptCache, estimateOutputTokens, estimateTokens, layoutPrompt } from './usage';

const cc = { cache_control: { type: 'ephemeral' } };
const tool = { name: 'read_file', description: 'Reads a file from the worktree.', input_schema: { type: 'object' } };
const sys = { type: 'text', text: 'You are a careful coding agent working in a git worktree.' };

function body(messages: unknown[], extra: Record<string, unknown> = {}) {
  return { model: 'm', max_tokens: 10, messages, ...extra };
}

describe('estimates', () => {
  it('counts a quarter of the JSON characters, rounded up', () => {
    expect(estimateTokens('abcdef')).toBe(2); // "abcdef" is 8 characters with quotes
    expect(estimateTokens({ a: 1 })).toBe(2); // {"a":1} is 7
    expect(estimateOutputTokens([])).toBe(1);
  });

  it('lays a request out as tools, then system, then message blocks, ignoring the cache markers', () => {
    const parts = layoutPrompt(body([{ role: 'user', content: [{ type: 'text', text: 'hi', ...cc }] }], { tools: [tool], system: [sys] }));
    expect(parts.map((p) => p.breakpoint)).toEqual([false, false, true]);
    expect(parts.map((p) => p.tokens)).toEqual([estimateTokens(tool), estimateTokens(sys), estimateTokens({ type: 'text', text: 'hi' })]);
  });
});

describe('PromptCache', () => {
  it('puts everything in input_tokens without cache_control', () => {
    const cache = new PromptCache();
    const b = body([{ role: 'user', content: 'hello' }], { system: 'sys' });
    const expected = { input_tokens: estimateTokens('sys') + estimateTokens('hello'), cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    expect(cache.usageFor(b)).toEqual(expected);
    expect(cache.usageFor(b)).toEqual(expected);
  });

  it('writes a prefix up to the last breakpoint, then reads it', () => {
    const cache = new PromptCache();
    const prefix = estimateTokens(tool) + estimateTokens(sys);
    const first = cache.usageFor(body([{ role: 'user', content: 'one' }], { tools: [tool], system: [{ ...sys, ...cc }] }));
    expect(first).toEqual({ input_tokens: estimateTokens('one'), cache_creation_input_tokens: prefix, cache_read_input_tokens: 0 });
    const second = cache.usageFor(body([{ role: 'user', content: 'two!' }], { tools: [tool], system: [{ ...sys, ...cc }] }));
    expect(second).toEqual({ input_tokens: estimateTokens('two!'), cache_creation_input_tokens: 0, cache_read_input_tokens: prefix });
  });

  it('misses when the prefix content changes, or the model does', () => {
    const cache = new PromptCache();
    cache.usageFor(body([{ role: 'user', content: 'x' }], { system: [{ ...sys, ...cc }] }));
    const changed = cache.usageFor(body([{ role: 'user', content: 'x' }], { system: [{ ...sys, text: sys.text + '!', ...cc }] }));
    expect(changed.cache_read_input_tokens).toBe(0);
    expect(changed.cache_creation_input_tokens).toBeGreaterThan(0);
    const otherModel = cache.usageFor({ ...body([{ role: 'user', content: 'x' }], { system: [{ ...sys, ...cc }] }), model: 'other' });
    expect(otherModel.cache_read_input_tokens).toBe(0);
  });

  it('reads the earlier turn and writes only the new part with a rolling breakpoint', () => {
    const cache = new PromptCache();
    const u1 = { type: 'text', text: 'first instruction' };
    const a1 = { type: 'text', text: 'first answer' };
    const u2 = { type: 'text', text: 'second instruction' };
    const turn1 = cache.usageFor(body([{ role: 'user', content: [{ ...u1, ...cc }] }], { system: [{ ...sys, ...cc }] }));
    expect(turn1.cache_creation_input_tokens).toBe(estimateTokens(sys) + estimateTokens(u1));
    const turn2 = cache.usageFor(
      body(
        [
          { role: 'user', content: [u1] },
          { role: 'assistant', content: [a1] },
          { role: 'user', content: [{ ...u2, ...cc }] },
        ],
        {
          system: [{ ...sys, ...cc }],
        },
      ),
    );
    expect(turn2).toEqual({
      input_tokens: 0,
      cache_read_input_tokens: estimateTokens(sys) + estimateTokens(u1),
      cache_creation_input_tokens: estimateTokens(a1) + estimateTokens(u2),
    });
  });

  it('treats a top-level cache_control as a breakpoint on the last block', () => {
    const cache = new PromptCache();
    const b = body([{ role: 'user', content: 'all of it' }], { system: 'sys', ...cc });
    const total = estimateTokens('sys') + estimateTokens('all of it');
    expect(cache.usageFor(b)).toEqual({ input_tokens: 0, cache_creation_input_tokens: total, cache_read_input_tokens: 0 });
    expect(cache.usageFor(b)).toEqual({ input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: total });
  });

  it('caches tool definitions', () => {
    const cache = new PromptCache();
    const b = body([{ role: 'user', content: 'q' }], { tools: [{ ...tool, ...cc }] });
    expect(cache.usageFor(b).cache_creation_input_tokens).toBe(estimateTokens(tool));
    expect(cache.usageFor(b).cache_read_input_tokens).toBe(estimateTokens(tool));
  });
});
