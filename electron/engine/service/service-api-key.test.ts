// Settings › API key: a key is checked with one cheap call (GET /v1/models at ANTHROPIC_BASE_URL)
// before it is kept; a refused key is not saved, and the sentence says what is wrong.
import { describe, expect, it } from 'vitest';
import { startScriptedServer } from '../../scripted/server';
import { callResult } from '../testing/service-calls';
import { serviceHarness } from '../testing/service-harness';

const harness = serviceHarness();
const call = callResult;

async function hostWith(baseURL: string) {
  const env: NodeJS.ProcessEnv = { ANTHROPIC_BASE_URL: baseURL };
  const service = harness.service(harness.engine(env), { version: '0', env });
  return { service, env };
}

describe('settings.setApiKey checks the key before keeping it', () => {
  it('refuses a key the API refuses, says why, and keeps none', async () => {
    const server = await harness.server({ script: { rules: [] }, apiKeys: ['sk-ant-good'] });
    const { service, env } = await hostWith(server.url);
    const bad = await call(service, 'settings.setApiKey', { key: 'sk-ant-typo' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'api_key_refused' } });
    const message = (bad as { ok: false; error: { message: string } }).error.message;
    expect(message).toContain('invalid x-api-key');
    expect(message).toMatch(/not saved/);
    expect(message).not.toContain('sk-ant-typo');
    expect(env.ANTHROPIC_API_KEY).toBeUndefined();
    expect(await call(service, 'settings.get', {})).toMatchObject({ ok: true, value: { apiKeySet: false } });
    // One cheap call, to the models list, with the key and the API version.
    const asked = server.requests.filter((r) => r.path === '/v1/models');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.headers['anthropic-version']).toBeTruthy();
    expect(server.requests.some((r) => r.path === '/v1/messages')).toBe(false);

    expect(await call(service, 'settings.setApiKey', { key: 'sk-ant-good' })).toMatchObject({ ok: true, value: { apiKeySet: true } });
    expect(env.ANTHROPIC_API_KEY).toBe('sk-ant-good');
  });

  it('says the key could not be checked when the API cannot be reached, and keeps none', async () => {
    const closed = await startScriptedServer({ script: { rules: [] } });
    const url = closed.url;
    await closed.close();
    const { service, env } = await hostWith(url);
    const r = await call(service, 'settings.setApiKey', { key: 'sk-ant-good' });
    expect(r).toMatchObject({ ok: false, error: { code: 'api_key_unchecked', message: expect.stringContaining(url) } });
    expect(env.ANTHROPIC_API_KEY).toBeUndefined();
  });
});
