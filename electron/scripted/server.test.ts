// Drives the scripted server with the real Anthropic SDK, so what passes here is what the engine will see.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import Anthropic, { AnthropicError, InternalServerError, OverloadedError, RateLimitError } from '@anthropic-ai/sdk';
import type { MessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { startScriptedServer, type ScriptedServer } from './server';
import { loadScriptFile } from './script-schema';
import { startFromCli } from './cli';
import { estimateTokens } from './usage';

const MODEL = 'claude-test-1';
const open: ScriptedServer[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function serve(script: Parameters<typeof startScriptedServer>[0]['script']): Promise<ScriptedServer> {
  const server = await startScriptedServer({ script });
  open.push(server);
  return server;
}

function client(server: ScriptedServer, maxRetries = 2): Anthropic {
  return new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries });
}

function ask(text: string, extra: Partial<Anthropic.MessageCreateParamsNonStreaming> = {}): Anthropic.MessageCreateParamsNonStreaming {
  return { model: MODEL, max_tokens: 256, messages: [{ role: 'user', content: text }], ...extra };
}

function post(server: ScriptedServer, body: string, headers: Record<string, string> = { 'x-api-key': 'k' }): Promise<Response> {
  return fetch(`${server.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
}

describe('successful responses', () => {
  it('answers a non-streaming request with a full Message', async () => {
    const server = await serve({ rules: [{ response: { content: [{ type: 'text', text: 'Hello from the script.' }] } }] });
    const msg = await client(server).messages.create(ask('hi'));
    expect(msg.id).toMatch(/^msg_/);
    expect(msg.type).toBe('message');
    expect(msg.role).toBe('assistant');
    expect(msg.model).toBe(MODEL);
    expect(msg.content).toEqual([{ type: 'text', text: 'Hello from the script.' }]);
    expect(msg.stop_reason).toBe('end_turn');
    expect(msg.stop_sequence).toBeNull();
    expect(msg.usage.output_tokens).toBe(estimateTokens([{ type: 'text', text: 'Hello from the script.' }]));
    expect(msg.usage.input_tokens).toBe(estimateTokens('hi'));
    expect(msg.usage.cache_creation_input_tokens).toBe(0);
    expect(msg.usage.cache_read_input_tokens).toBe(0);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.status).toBe(200);
    expect(server.requests[0]?.body.model).toBe(MODEL);
    expect(server.requests[0]?.stream).toBe(false);
  });

  it('streams a tool_use whose input arrives as input_json_delta chunks', async () => {
    const input = { path: 'src/ünïcode 🚀.ts', edits: [{ line: 3, text: 'export const x = 1;' }], dryRun: false };
    const server = await serve({
      rules: [
        {
          response: {
            content: [
              { type: 'text', text: 'Let me edit that file for you now.' },
              { type: 'tool_use', name: 'edit_file', input },
            ],
          },
        },
      ],
    });
    const stream = client(server).messages.stream({ ...ask('edit it'), tools: [{ name: 'edit_file', input_schema: { type: 'object' } }] });
    const events: MessageStreamEvent[] = [];
    stream.on('streamEvent', (e) => events.push(e));
    const msg = await stream.finalMessage();

    expect(msg.content).toHaveLength(2);
    expect(msg.content[0]).toEqual({ type: 'text', text: 'Let me edit that file for you now.' });
    const tool = msg.content[1];
    expect(tool?.type).toBe('tool_use');
    if (tool?.type !== 'tool_use') throw new Error('unreachable');
    expect(tool.id).toMatch(/^toolu_/);
    expect(tool.name).toBe('edit_file');
    expect(tool.input).toEqual(input);
    expect(msg.stop_reason).toBe('tool_use');
    expect(msg.usage.output_tokens).toBe(estimateTokens(msg.content));
    expect(msg.usage.input_tokens).toBeGreaterThan(0);

    const jsonDeltas = events.filter((e) => e.type === 'content_block_delta' && e.delta.type === 'input_json_delta');
    expect(jsonDeltas.length).toBeGreaterThanOrEqual(3);
    expect(events.filter((e) => e.type === 'content_block_delta' && e.delta.type === 'text_delta').length).toBeGreaterThanOrEqual(2);
    expect(events.map((e) => e.type).filter((t, i, all) => t !== all[i - 1])).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(server.requests[0]?.stream).toBe(true);
  });

  it('keeps given tool ids, stop_reason and usage fields', async () => {
    const server = await serve({
      rules: [
        {
          response: {
            content: [{ type: 'tool_use', id: 'toolu_fixed', name: 'x', input: {} }],
            stop_reason: 'max_tokens',
            usage: { input_tokens: 1234, output_tokens: 7 },
          },
        },
      ],
    });
    const msg = await client(server).messages.stream(ask('go')).finalMessage();
    expect(msg.content).toEqual([{ type: 'tool_use', id: 'toolu_fixed', name: 'x', input: {} }]);
    expect(msg.stop_reason).toBe('max_tokens');
    expect(msg.usage.input_tokens).toBe(1234);
    expect(msg.usage.output_tokens).toBe(7);
  });

  it('records lastUserText from tool_result blocks and systemText from system blocks', async () => {
    const server = await serve(() => ({ content: [{ type: 'text', text: 'ok' }] }));
    await client(server).messages.create({
      model: MODEL,
      max_tokens: 100,
      system: [
        { type: 'text', text: 'You are Ratchet.' },
        { type: 'text', text: 'Be brief.' },
      ],
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read', input: {} }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: 'file body' },
            { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: 'second result' }] },
            { type: 'text', text: 'continue' },
          ],
        },
      ],
    });
    const rec = server.requests[0];
    expect(rec?.lastUserText).toBe('file body\nsecond result\ncontinue');
    expect(rec?.systemText).toBe('You are Ratchet.\nBe brief.');
    // This SDK version sends the API key as a bearer token, not as x-api-key.
    expect(rec?.headers.authorization).toBe('Bearer test-key');
  });
});

describe('errors and the SDK retry policy', () => {
  it.each([
    [429, 'rate_limit_error'],
    [529, 'overloaded_error'],
    [500, 'api_error'],
  ])('a %i with retryAfter 1 is retried by the SDK and then succeeds', async (status, type) => {
    const server = await serve({
      rules: [{ times: 1, response: { error: { status, retryAfter: 1 } } }, { response: { content: [{ type: 'text', text: 'after retry' }] } }],
    });
    const started = Date.now();
    const msg = await client(server, 2).messages.create(ask('hi'));
    expect(msg.content).toEqual([{ type: 'text', text: 'after retry' }]);
    expect(server.requests.map((r) => r.status)).toEqual([status, 200]);
    // The SDK honoured retry-after: 1 (its own backoff would have been ~0.4-0.5 s).
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    // The SDK throws the error body away when it retries, so check what it was sent directly.
    server.setScript({ rules: [{ response: { error: { status } } }] });
    const raw = await post(server, JSON.stringify(ask('x')));
    expect(raw.status).toBe(status);
    expect(raw.headers.get('retry-after')).toBeNull();
    expect(await raw.json()).toMatchObject({ type: 'error', error: { type } });
  });

  it('answers the Anthropic error body and retry-after header', async () => {
    const server = await serve({ rules: [{ response: { error: { status: 529, retryAfter: 3 } } }] });
    const res = await post(server, JSON.stringify(ask('hi')));
    expect(res.status).toBe(529);
    expect(res.headers.get('retry-after')).toBe('3');
    const body = (await res.json()) as { type: string; error: { type: string; message: string } };
    expect(body.type).toBe('error');
    expect(body.error.type).toBe('overloaded_error');
  });

  it('retries a streaming request too', async () => {
    const server = await serve({
      rules: [{ times: 1, response: { error: { status: 429, retryAfter: 1 } } }, { response: { content: [{ type: 'text', text: 'streamed after retry' }] } }],
    });
    const msg = await client(server, 2).messages.stream(ask('hi')).finalMessage();
    expect(msg.content).toEqual([{ type: 'text', text: 'streamed after retry' }]);
    expect(server.requests).toHaveLength(2);
  });

  it('with maxRetries 0 a 429 surfaces as RateLimitError with its header', async () => {
    const server = await serve({ rules: [{ response: { error: { status: 429, retryAfter: 1, message: 'slow down' } } }] });
    const err: unknown = await client(server, 0)
      .messages.create(ask('hi'))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    const e = err as RateLimitError;
    expect(e.status).toBe(429);
    expect(e.headers.get('retry-after')).toBe('1');
    expect(e.type).toBe('rate_limit_error');
    expect(e.apiMessage).toBe('slow down');
    expect(e.requestID).toMatch(/^req_/);
    expect(server.requests).toHaveLength(1);
  });

  it('exhausted retries surface the last error with the right class', async () => {
    const server = await serve({ rules: [{ response: { error: { status: 529, retryAfter: 0.05 } } }] });
    const err: unknown = await client(server, 2)
      .messages.create(ask('hi'))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OverloadedError);
    expect(server.requests).toHaveLength(3);
  });

  it('shouldRetry: false stops the SDK from retrying a 500', async () => {
    const server = await serve({ rules: [{ response: { error: { status: 500, shouldRetry: false } } }] });
    const err: unknown = await client(server, 2)
      .messages.create(ask('hi'))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(1);
  });

  it('401 without a key, 400 on malformed or incomplete bodies, 404 elsewhere', async () => {
    const server = await serve({ rules: [{ response: { content: [{ type: 'text', text: 'never' }] } }] });
    const noKey = await post(server, JSON.stringify(ask('hi')), {});
    expect(noKey.status).toBe(401);
    expect(((await noKey.json()) as { error: { type: string } }).error.type).toBe('authentication_error');

    const malformed = await post(server, '{"model": ');
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');

    const noMaxTokens = await post(server, JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'x' }] }));
    expect(noMaxTokens.status).toBe(400);
    expect(((await noMaxTokens.json()) as { error: { message: string } }).error.message).toMatch(/max_tokens/);

    const noModel = await post(server, JSON.stringify({ max_tokens: 5, messages: [] }));
    expect(noModel.status).toBe(400);

    const wrongPath = await fetch(`${server.url}/v1/complete`, { method: 'POST', headers: { 'x-api-key': 'k' }, body: '{}' });
    expect(wrongPath.status).toBe(404);
    expect(await wrongPath.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });

    expect(server.requests.map((r) => r.status)).toEqual([401, 400, 400, 400, 404]);
    expect(server.requests[1]?.body).toBe('{"model": ');
    expect(server.requests[4]?.path).toBe('/v1/complete');
  });

  it('returns a raw body as is, and the SDK fails on it', async () => {
    const server = await serve({ rules: [{ response: { raw: '{"type":"message","content":[', status: 200 } }] });
    const res = await post(server, JSON.stringify(ask('hi')));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('{"type":"message","content":[');
    await expect(client(server).messages.create(ask('hi'))).rejects.toThrow(SyntaxError);
  });

  it('a raw body on a stream makes the SDK stream fail', async () => {
    const server = await serve({ rules: [{ response: { raw: 'event: message_start\ndata: {not json\n\n' } }] });
    const quiet = new Anthropic({ apiKey: 'k', baseURL: server.url, logLevel: 'off' });
    const err: unknown = await quiet.messages
      .stream(ask('hi'))
      .finalMessage()
      .catch((e: unknown) => e);
    // The stream wraps the parse failure, while a non-streaming call lets the bare SyntaxError through.
    expect(err).toBeInstanceOf(AnthropicError);
    expect((err as Error).cause).toBeInstanceOf(SyntaxError);
  });
});

describe('API keys (issue 20 item 18)', () => {
  it('refuses a key it was not given, as the real API does: 401 authentication_error "invalid x-api-key"', async () => {
    const server = await startScriptedServer({ script: { rules: [{ response: { content: [{ type: 'text', text: 'hi' }] } }] }, apiKeys: ['sk-ant-good'] });
    open.push(server);
    const refused = { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } };
    const bad = await post(server, JSON.stringify(ask('hello')), { 'x-api-key': 'sk-ant-typo' });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject(refused);
    const models = await fetch(`${server.url}/v1/models?limit=1`, { headers: { 'x-api-key': 'sk-ant-typo', 'anthropic-version': '2023-06-01' } });
    expect(models.status).toBe(401);
    expect(await models.json()).toMatchObject(refused);
    // The SDK sees the error class a user's first run would.
    await expect(new Anthropic({ apiKey: 'sk-ant-typo', baseURL: server.url, maxRetries: 0 }).messages.create(ask('hello'))).rejects.toMatchObject({
      status: 401,
    });
    expect((await post(server, JSON.stringify(ask('hello')), { 'x-api-key': 'sk-ant-good' })).status).toBe(200);
  });

  it('lists models at GET /v1/models for a good key, the cheap call that checks a key', async () => {
    const server = await serve({ rules: [] });
    const res = await fetch(`${server.url}/v1/models?limit=1`, { headers: { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: Array<{ type: string; id: string }>; has_more: boolean };
    expect(body.data).toHaveLength(1);
    expect(body.data[0]!.type).toBe('model');
    expect(typeof body.has_more).toBe('boolean');
    expect((await fetch(`${server.url}/v1/models`)).status).toBe(401);
  });
});

describe('rule selection', () => {
  it('matches on the last user text and on the system prompt', async () => {
    const server = await serve({
      rules: [
        { match: 'plan', system: 'planner', response: { content: [{ type: 'text', text: 'planner plans' }] } },
        { match: 'plan', response: { content: [{ type: 'text', text: 'anyone plans' }] } },
        { system: '^You are the coder', response: { content: [{ type: 'text', text: 'coder codes' }] } },
      ],
    });
    const c = client(server);
    const text = async (p: Anthropic.MessageCreateParamsNonStreaming) => {
      const m = await c.messages.create(p);
      return m.content[0]?.type === 'text' ? m.content[0].text : null;
    };
    expect(await text(ask('make a plan', { system: 'You are the planner.' }))).toBe('planner plans');
    expect(await text(ask('make a plan', { system: 'You are the coder.' }))).toBe('anyone plans');
    expect(await text(ask('write code', { system: [{ type: 'text', text: 'You are the coder.' }] }))).toBe('coder codes');
  });

  it('uses up `times` so rules without match act as a queue, then answers the no-rule 500', async () => {
    const server = await serve({
      rules: [
        { times: 1, response: { content: [{ type: 'text', text: 'one' }] } },
        { times: 2, response: { content: [{ type: 'text', text: 'two' }] } },
      ],
    });
    const c = client(server);
    const texts: string[] = [];
    for (let i = 0; i < 3; i++) {
      const m = await c.messages.create(ask(`turn ${i}`));
      texts.push(m.content[0]?.type === 'text' ? m.content[0].text : '');
    }
    expect(texts).toEqual(['one', 'two', 'two']);

    const err: unknown = await c.messages.create(ask('a fourth turn nobody planned for')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InternalServerError);
    const e = err as InternalServerError;
    expect(e.status).toBe(500);
    expect(e.type).toBe('api_error');
    expect(e.apiMessage).toContain('scripted server: no rule matches');
    expect(e.apiMessage).toContain('a fourth turn nobody planned for');
    // Marked not retryable, so a broken script fails at once instead of after the SDK's backoff.
    expect(server.requests).toHaveLength(4);
  });

  it('cuts the last user text to 200 characters in the no-rule message', async () => {
    const server = await serve({ rules: [] });
    const res = await post(server, JSON.stringify(ask('x'.repeat(150) + 'y'.repeat(150))));
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).toContain('x'.repeat(150) + 'y'.repeat(50) + '"');
    expect(body.error.message).not.toContain('y'.repeat(51));
  });

  it('setScript swaps the script, and a script function sees the recorded request', async () => {
    const server = await serve({ rules: [] });
    server.setScript((req) => ({ content: [{ type: 'text', text: `echo ${req.lastUserText}` }] }));
    const m = await client(server).messages.create(ask('ping'));
    expect(m.content).toEqual([{ type: 'text', text: 'echo ping' }]);
    server.setScript({ rules: [{ response: { content: [{ type: 'text', text: 'rules again' }] } }] });
    const m2 = await client(server).messages.create(ask('ping'));
    expect(m2.content).toEqual([{ type: 'text', text: 'rules again' }]);
    expect(() => server.setScript({ rules: [{ match: '(', response: { content: [] } }] })).toThrow(/rules\[0\]\.match/);
  });
});

describe('prompt-cache simulation', () => {
  const system: Anthropic.TextBlockParam[] = [{ type: 'text', text: 'You are a careful coding agent. '.repeat(20), cache_control: { type: 'ephemeral' } }];

  it('writes a cache_control prefix once and reads it afterwards', async () => {
    const server = await serve({ rules: [{ response: { content: [{ type: 'text', text: 'ok' }] } }] });
    const c = client(server);
    const first = await c.messages.create(ask('step one', { system }));
    const second = await c.messages.stream(ask('step two!', { system })).finalMessage();

    expect(first.usage.cache_creation_input_tokens).toBe(estimateTokens({ type: 'text', text: system[0]?.text }));
    expect(first.usage.cache_read_input_tokens).toBe(0);
    expect(second.usage.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens);
    expect(second.usage.cache_creation_input_tokens).toBe(0);
    expect(first.usage.input_tokens).toBe(estimateTokens('step one'));
    expect(second.usage.input_tokens).toBe(estimateTokens('step two!'));
  });

  it('reports no cache use without cache_control', async () => {
    const server = await serve({ rules: [{ response: { content: [{ type: 'text', text: 'ok' }] } }] });
    const c = client(server);
    const plain = [{ type: 'text' as const, text: 'You are a careful coding agent.' }];
    await c.messages.create(ask('a', { system: plain }));
    const again = await c.messages.create(ask('a', { system: plain }));
    expect(again.usage.cache_creation_input_tokens).toBe(0);
    expect(again.usage.cache_read_input_tokens).toBe(0);
    expect(again.usage.input_tokens).toBe(estimateTokens(plain[0]) + estimateTokens('a'));
  });

  it('is per server instance', async () => {
    const a = await serve({ rules: [{ response: { content: [{ type: 'text', text: 'ok' }] } }] });
    const b = await serve({ rules: [{ response: { content: [{ type: 'text', text: 'ok' }] } }] });
    await client(a).messages.create(ask('x', { system }));
    const fresh = await client(b).messages.create(ask('x', { system }));
    expect(fresh.usage.cache_read_input_tokens).toBe(0);
    expect(fresh.usage.cache_creation_input_tokens).toBeGreaterThan(0);
  });
});

describe('delays and shutdown', () => {
  it('delays between stream events and closes promptly while a stream is in flight', async () => {
    const server = await serve({ rules: [{ response: { content: [{ type: 'text', text: 'slow '.repeat(40) }], delayMs: 150 } }] });
    const stream = client(server, 0).messages.stream(ask('hi'));
    const seen: string[] = [];
    const firstText = new Promise<void>((resolve) => stream.on('text', () => resolve()));
    stream.on('streamEvent', (e) => seen.push(e.type));
    const failed = stream.finalMessage().then(
      () => 'completed',
      () => 'failed',
    );
    await firstText;
    expect(seen).not.toContain('message_stop');
    const started = Date.now();
    await server.close();
    expect(Date.now() - started).toBeLessThan(500);
    expect(await failed).toBe('failed');
  });

  it('delays a non-streaming answer by delayMs', async () => {
    const server = await serve({ rules: [{ response: { content: [{ type: 'text', text: 'late' }], delayMs: 300 } }] });
    const started = Date.now();
    await client(server).messages.create(ask('hi'));
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });
});

describe('script files and the CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scripted-'));

  it('rejects a bad script file naming the bad path', () => {
    const file = join(dir, 'bad.json');
    writeFileSync(
      file,
      JSON.stringify({
        rules: [
          { response: { content: [{ type: 'text', text: 'fine' }] } },
          { match: 'x', times: 0, response: { content: [{ type: 'tool_use', input: {} }] } },
          { response: { error: { status: 429, retryAfter: 'soon' } } },
        ],
      }),
    );
    let message = '';
    try {
      loadScriptFile(file);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain(file);
    expect(message).toContain('rules[1].times');
    expect(message).toContain('rules[1].response.content[0].name');
    expect(message).toContain('rules[2].response.error.retryAfter');
    expect(message).not.toContain('rules[0]');
  });

  it('rejects a file that is not JSON', () => {
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{ rules: ');
    expect(() => loadScriptFile(file)).toThrow(/not valid JSON/);
  });

  it('startFromCli serves a script file and prints its URL', async () => {
    const file = join(dir, 'good.json');
    writeFileSync(file, JSON.stringify({ rules: [{ match: '^hello', response: { content: [{ type: 'text', text: 'from file' }] } }] }));
    let printed = '';
    const server = await startFromCli(['--script', file, '--port', '0'], { write: (s: string) => (printed += s) });
    open.push(server);
    expect(printed).toBe(`listening on ${server.url}\n`);
    const msg = await client(server).messages.create(ask('hello there'));
    expect(msg.content).toEqual([{ type: 'text', text: 'from file' }]);
    await expect(startFromCli(['--bogus'])).rejects.toThrow(/unknown argument --bogus/);
  });

  it('runs as a process until SIGTERM', async () => {
    const file = join(dir, 'proc.json');
    writeFileSync(file, JSON.stringify({ rules: [{ response: { content: [{ type: 'text', text: 'from a process' }] } }] }));
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'cli.ts'), '--script', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (m?.[1]) resolve(m[1]);
        });
        child.on('exit', () => reject(new Error(`exited before listening: ${out}`)));
      });
      const msg = await new Anthropic({ apiKey: 'k', baseURL: url }).messages.create(ask('hi'));
      expect(msg.content).toEqual([{ type: 'text', text: 'from a process' }]);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
