// How the agent reads the SDK's errors: what the policy may retry and what only the user can fix.
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { toAgentError } from './anthropic-agent';

describe('toAgentError', () => {
  it('no API key at all is not retried (the SDK refuses before any request): the user must add one', async () => {
    const client = new Anthropic({ apiKey: null, baseURL: 'http://127.0.0.1:9', maxRetries: 0 });
    const err = await client.messages
      .create({ model: 'claude-sonnet-5-5', max_tokens: 1, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    const e = toAgentError(err);
    expect(e.retriable).toBe(false);
    expect(e.message).toMatch(/ANTHROPIC_API_KEY is not set/);
  });

  it('a dropped connection stays a retriable API error', async () => {
    const client = new Anthropic({ apiKey: 'k', baseURL: 'http://127.0.0.1:9', maxRetries: 0 });
    const err = await client.messages
      .create({ model: 'claude-sonnet-5-5', max_tokens: 1, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(toAgentError(err)).toMatchObject({ errorClass: 'api_error', retriable: true });
  });
});
