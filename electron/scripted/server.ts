// A scripted stand-in for the Anthropic Messages API, for tests and the demo: the real SDK talks to it over HTTP.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AddressInfo } from 'node:net';
import { PromptCache, estimateOutputTokens, layoutPrompt } from './usage';
import { CLIENT_TOOL_NAMES, MAX_CACHE_BREAKPOINTS, isRetiredModel, modelSpec } from '../../shared/anthropic-models';

export type ScriptContent =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; name: string; input: unknown; id?: string };

export interface ScriptUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

export type ScriptResponse =
  | { content: ScriptContent[]; stop_reason?: 'end_turn' | 'tool_use' | 'max_tokens'; usage?: ScriptUsage; delayMs?: number }
  | { error: { status: number; type?: string; message?: string; retryAfter?: number; shouldRetry?: boolean } }
  | { raw: string; status?: number }; // a deliberately malformed body, for robustness tests

export interface ScriptRule {
  match?: string;
  system?: string;
  times?: number;
  response: ScriptResponse;
}

export interface Script {
  rules: ScriptRule[];
}

export type ScriptFn = (req: RecordedRequest) => ScriptResponse | Promise<ScriptResponse>;

export interface RecordedRequest {
  /** The parsed request JSON; the raw text when it was not JSON. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests reach into arbitrary request shapes
  body: any;
  headers: Record<string, string | string[] | undefined>;
  lastUserText: string;
  systemText: string;
  stream: boolean;
  /** What was answered; 0 while the answer is still being decided (as seen by a ScriptFn). */
  status: number;
  method: string;
  path: string;
}

export interface ScriptedServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  setScript(s: Script | ScriptFn): void;
  close(): Promise<void>;
}

interface CompiledRule {
  rule: ScriptRule;
  match: RegExp | null;
  system: RegExp | null;
  remaining: number;
}

type Json = Record<string, unknown>;

const MAX_BODY_BYTES = 32 * 1024 * 1024;

const ERROR_TYPE_BY_STATUS: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

function defaultErrorType(status: number): string {
  return ERROR_TYPE_BY_STATUS[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function newId(prefix: string): string {
  const bytes = randomBytes(22);
  let s = '';
  for (const b of bytes) s += ID_ALPHABET[b % ID_ALPHABET.length];
  return `${prefix}01${s}`;
}

function isRecord(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function blockText(block: unknown): string {
  if (!isRecord(block)) return '';
  if (block.type === 'text' && typeof block.text === 'string') return block.text;
  if (block.type === 'tool_result') {
    if (typeof block.content === 'string') return block.content;
    if (Array.isArray(block.content)) return block.content.map(blockText).filter((t) => t !== '').join('\n');
  }
  return '';
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map(blockText).filter((t) => t !== '').join('\n');
  return '';
}

/** The text of the last user turn: what a rule's `match` is tested against. */
export function lastUserTextOf(body: unknown): string {
  if (!isRecord(body) || !Array.isArray(body.messages)) return '';
  for (let i = body.messages.length - 1; i >= 0; i--) {
    const m: unknown = body.messages[i];
    if (isRecord(m) && m.role === 'user') return contentText(m.content);
  }
  return '';
}

/** The system prompt as text: what a rule's `system` is tested against. */
export function systemTextOf(body: unknown): string {
  return isRecord(body) ? contentText(body.system) : '';
}

function validateBody(body: unknown): string | null {
  if (!isRecord(body)) return 'request body must be a JSON object';
  if (body.model === undefined) return 'model: Field required';
  if (typeof body.model !== 'string' || body.model === '') return 'model: Input should be a non-empty string';
  if (body.max_tokens === undefined) return 'max_tokens: Field required';
  if (typeof body.max_tokens !== 'number' || !Number.isInteger(body.max_tokens) || body.max_tokens < 1) {
    return 'max_tokens: Input should be a positive integer';
  }
  if (body.messages === undefined) return 'messages: Field required';
  if (!Array.isArray(body.messages)) return 'messages: Input should be a valid list';
  if (body.messages.length === 0) return 'messages: at least one message is required';
  for (const [i, m] of body.messages.entries()) {
    if (!isRecord(m) || (m.role !== 'user' && m.role !== 'assistant' && m.role !== 'system')) {
      return `messages.${i}.role: Input should be 'user' or 'assistant'`;
    }
    if (typeof m.content !== 'string' && !Array.isArray(m.content)) {
      return `messages.${i}.content: Input should be a valid string or list`;
    }
  }
  if (body.stream !== undefined && typeof body.stream !== 'boolean') return 'stream: Input should be a valid boolean';
  return null;
}

/** The request fields the Messages API knows; any other is refused as the real API refuses it. */
const KNOWN_FIELDS = new Set([
  'model', 'max_tokens', 'messages', 'system', 'tools', 'tool_choice', 'stream', 'temperature', 'top_p', 'top_k',
  'stop_sequences', 'metadata', 'thinking', 'output_config', 'service_tier', 'container', 'mcp_servers',
  'context_management', 'inference_geo', 'cache_control',
]);

interface Refusal {
  status: number;
  type: string;
  message: string;
}

const invalid = (message: string): Refusal => ({ status: 400, type: 'invalid_request_error', message });

function countCacheControl(v: unknown): number {
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + countCacheControl(x), 0);
  if (!isRecord(v)) return 0;
  let n = v.cache_control !== undefined && v.cache_control !== null ? 1 : 0;
  for (const [k, x] of Object.entries(v)) if (k !== 'cache_control' && typeof x === 'object') n += countCacheControl(x);
  return n;
}

/**
 * What the real API refuses of a well-formed request, per the published reference: retired models, unknown fields,
 * client tools under the wrong name or an unknown version, more than four cache breakpoints, and for the models it
 * knows (models.ts) max_tokens over the model's output limit, sampling parameters and thinking modes the model
 * refuses, and a prompt that with max_tokens does not fit the context window. A model it does not know (a test double)
 * gets the model-independent checks only.
 */
export function refusalOf(body: Json): Refusal | null {
  const model = String(body.model);
  if (isRetiredModel(model)) return { status: 404, type: 'not_found_error', message: `model: ${model}` };
  for (const key of Object.keys(body)) if (!KNOWN_FIELDS.has(key)) return invalid(`${key}: Extra inputs are not permitted`);
  if (body.tools !== undefined) {
    if (!Array.isArray(body.tools)) return invalid('tools: Input should be a valid list');
    for (const [i, tool] of body.tools.entries()) {
      if (!isRecord(tool)) return invalid(`tools.${i}: Input should be a valid dictionary`);
      const type = typeof tool.type === 'string' ? tool.type : null;
      if (type === null || type === 'custom') continue;
      if (/^(bash|text_editor)_\d+$/.test(type)) {
        const expected = CLIENT_TOOL_NAMES[type];
        if (!expected) return invalid(`tools.${i}: Input tag '${type}' found using 'type' does not match any of the expected tags: ${Object.keys(CLIENT_TOOL_NAMES).map((t) => `'${t}'`).join(', ')}`);
        if (tool.name !== expected) return invalid(`tools.${i}.${type}.name: Input should be '${expected}'`);
      }
    }
  }
  if (Array.isArray(body.system) && body.system.some((b) => isRecord(b) && b.type === 'text' && b.text === '')) return invalid('system: text content blocks must be non-empty');
  // Every message but a final assistant one has content, and each tool_use is answered in the very next message.
  const messages = body.messages as Json[];
  for (const [i, m] of messages.entries()) {
    const content = m.content;
    const empty = typeof content === 'string' ? content === '' : Array.isArray(content) && content.length === 0;
    if (empty && !(i === messages.length - 1 && m.role === 'assistant')) {
      return invalid(`messages.${i}: all messages must have non-empty content except for the optional final assistant message`);
    }
    if (Array.isArray(content) && content.some((b) => isRecord(b) && b.type === 'text' && b.text === '')) {
      return invalid(`messages.${i}: text content blocks must be non-empty`);
    }
    if (m.role !== 'assistant' || !Array.isArray(content)) continue;
    const ids = content.filter((b) => isRecord(b) && b.type === 'tool_use').map((b) => String((b as Json).id));
    if (!ids.length || i === messages.length - 1) continue;
    const after = messages[i + 1]?.content;
    const answered = new Set(Array.isArray(after) ? after.filter((b) => isRecord(b) && b.type === 'tool_result').map((b) => String((b as Json).tool_use_id)) : []);
    const missing = ids.filter((id) => !answered.has(id));
    if (missing.length) {
      return invalid(`messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`);
    }
  }
  const breakpoints = countCacheControl(body.system) + countCacheControl(body.messages) + countCacheControl(body.tools) + (body.cache_control ? 1 : 0);
  if (breakpoints > MAX_CACHE_BREAKPOINTS) return invalid(`A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints}.`);
  const spec = modelSpec(model);
  if (!spec) return null;
  const maxTokens = Number(body.max_tokens);
  if (maxTokens > spec.maxOutput) return invalid(`max_tokens: ${maxTokens} > ${spec.maxOutput}, which is the maximum allowed number of output tokens for ${model}`);
  const has = (k: string) => body[k] !== undefined && body[k] !== null;
  if (has('temperature') && has('top_p')) return invalid('`temperature` and `top_p` cannot both be specified for this model. Please use only one.');
  if (spec.refusesSampling && ((has('temperature') && body.temperature !== 1) || has('top_p') || has('top_k'))) {
    return invalid(`${has('top_k') ? 'top_k' : has('top_p') ? 'top_p' : 'temperature'}: sampling parameters are not supported for ${model}; leave them out`);
  }
  const thinking = isRecord(body.thinking) ? body.thinking : null;
  if (thinking) {
    const t = thinking.type;
    if (t === 'enabled' && (spec.thinking === 'adaptive' || spec.thinking === 'adaptive-always')) {
      return invalid('"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.');
    }
    if (t === 'disabled' && spec.thinking === 'adaptive-always') return invalid('"thinking.type.disabled" is not supported for this model: its thinking is always on.');
    if (t === 'adaptive' && spec.thinking === 'manual') return invalid('"thinking.type.adaptive" is not supported for this model. Use "thinking.type.enabled" with "budget_tokens".');
    if (t === 'enabled' && (typeof thinking.budget_tokens !== 'number' || thinking.budget_tokens < 1024 || thinking.budget_tokens >= maxTokens)) {
      return invalid('thinking.enabled.budget_tokens: must be at least 1024 and less than max_tokens');
    }
  }
  const input = layoutPrompt(body).reduce((n, p) => n + p.tokens, 0);
  if (input > spec.contextWindow) return invalid(`prompt is too long: ${input} tokens > ${spec.contextWindow} maximum`);
  if (input + maxTokens > spec.contextWindow) {
    return invalid(`input length and \`max_tokens\` exceed context limit: ${input} + ${maxTokens} > ${spec.contextWindow}, decrease input length or \`max_tokens\` and try again`);
  }
  return null;
}

function compileRegex(source: string | undefined, where: string): RegExp | null {
  if (source === undefined) return null;
  try {
    return new RegExp(source);
  } catch (err) {
    throw new Error(`${where} is not a valid regular expression: ${(err as Error).message}`, { cause: err });
  }
}

function compileScript(script: Script): CompiledRule[] {
  return script.rules.map((rule, i) => ({
    rule,
    match: compileRegex(rule.match, `rules[${i}].match`),
    system: compileRegex(rule.system, `rules[${i}].system`),
    remaining: rule.times ?? Infinity,
  }));
}

function errorBody(type: string, message: string, requestId: string): string {
  return JSON.stringify({ type: 'error', error: { type, message }, request_id: requestId });
}

function splitChunks(s: string, count: number): string[] {
  const chars = Array.from(s); // code points, so no chunk ends inside a surrogate pair
  const size = Math.max(1, Math.ceil(chars.length / Math.max(1, count)));
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

function toBlock(c: ScriptContent): Json {
  if (c.type === 'text') return { type: 'text', text: c.text };
  return { type: 'tool_use', id: c.id ?? newId('toolu_'), name: c.name, input: c.input ?? {} };
}

/** The event sequence of the real streaming API for one finished message. */
function streamEvents(message: Json & { content: Json[]; usage: Json }): Json[] {
  const { content, usage, stop_reason, stop_sequence, ...rest } = message;
  const events: Json[] = [
    { type: 'message_start', message: { ...rest, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } },
    { type: 'ping' },
  ];
  content.forEach((block, index) => {
    if (block.type === 'text') {
      const text = String(block.text);
      events.push({ type: 'content_block_start', index, content_block: { ...block, text: '' } });
      const pieces = splitChunks(text, Math.min(8, Math.ceil(text.length / 24)));
      for (const piece of pieces) events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
    } else {
      events.push({ type: 'content_block_start', index, content_block: { ...block, input: {} } });
      // The real API opens every tool input with an empty fragment; clients must cope with that.
      const pieces = ['', ...splitChunks(JSON.stringify(block.input), 3)];
      for (const piece of pieces) events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } });
    }
    events.push({ type: 'content_block_stop', index });
  });
  // message_delta repeats the cumulative input counters, as the current API does; the SDK overwrites with them.
  events.push({ type: 'message_delta', delta: { stop_reason, stop_sequence }, usage });
  events.push({ type: 'message_stop' });
  return events;
}

function readBody(req: IncomingMessage): Promise<{ text: string; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), tooLarge }));
    req.on('error', reject);
  });
}

/** What GET /v1/models lists (the real API lists the models the key may use, newest first). */
const MODELS = ['claude-sonnet-5-5', 'claude-opus-5-5', 'claude-haiku-5-5'];

/**
 * `apiKeys`: the keys this server accepts; any other is refused as the real API refuses a bad key (401,
 * authentication_error, "invalid x-api-key"). Without it every non-empty key is accepted.
 */
export function startScriptedServer(opts: { script: Script | ScriptFn; port?: number; apiKeys?: readonly string[] }): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const cache = new PromptCache();
  let scriptFn: ScriptFn | null = null;
  let rules: CompiledRule[] = [];

  const setScript = (s: Script | ScriptFn): void => {
    if (typeof s === 'function') {
      scriptFn = s;
      rules = [];
    } else {
      rules = compileScript(s); // compile first, so a bad script leaves the old one in place
      scriptFn = null;
    }
  };
  setScript(opts.script);

  const pickResponse = async (rec: RecordedRequest): Promise<ScriptResponse> => {
    if (scriptFn) return scriptFn(rec);
    for (const r of rules) {
      if (r.remaining <= 0) continue;
      if (r.match && !r.match.test(rec.lastUserText)) continue;
      if (r.system && !r.system.test(rec.systemText)) continue;
      r.remaining--;
      return r.rule.response;
    }
    return {
      error: {
        status: 500,
        type: 'api_error',
        message: `scripted server: no rule matches (last user text: ${JSON.stringify(rec.lastUserText.slice(0, 200))})`,
        shouldRetry: false,
      },
    };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const requestId = newId('req_');
    // Aborted when the client goes away or close() drops the connection, so delays stop early.
    const gone = new AbortController();
    res.on('close', () => gone.abort());

    const { text, tooLarge } = await readBody(req);
    const method = req.method ?? 'GET';
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    let body: unknown = text;
    let parsed = false;
    try {
      body = JSON.parse(text);
      parsed = true;
    } catch {
      // keep the raw text, so a test can see what was sent
    }
    const rec: RecordedRequest = {
      body,
      headers: req.headers,
      lastUserText: lastUserTextOf(body),
      systemText: systemTextOf(body),
      stream: isRecord(body) && body.stream === true,
      status: 0,
      method,
      path,
    };
    requests.push(rec);

    const sendError = (status: number, type: string, message: string, extra: Record<string, string> = {}): void => {
      rec.status = status;
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': requestId, ...extra });
      res.end(errorBody(type, message, requestId));
    };

    const listModels = method === 'GET' && path === '/v1/models';
    if (!listModels && (method !== 'POST' || path !== '/v1/messages')) {
      return sendError(404, 'not_found_error', `scripted server: no route ${method} ${path} (only POST /v1/messages and GET /v1/models)`);
    }
    const apiKey = req.headers['x-api-key'];
    const authorization = req.headers.authorization;
    const hasKey = typeof apiKey === 'string' && apiKey.trim() !== '';
    const bearer = typeof authorization === 'string' ? /^Bearer\s+(\S+)/i.exec(authorization)?.[1] : undefined;
    if (!hasKey && !bearer) return sendError(401, 'authentication_error', 'x-api-key header is required');
    const sentKey = hasKey ? String(apiKey).trim() : (bearer ?? '');
    if (opts.apiKeys && !opts.apiKeys.includes(sentKey)) return sendError(401, 'authentication_error', 'invalid x-api-key');
    if (listModels) {
      const limit = Math.max(1, Math.min(1000, Number(new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('limit')) || 20));
      const data = MODELS.slice(0, limit).map((id) => ({ type: 'model', id, display_name: id, created_at: '2026-01-01T00:00:00Z' }));
      rec.status = 200;
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': requestId });
      res.end(JSON.stringify({ data, has_more: limit < MODELS.length, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null }));
      return;
    }
    if (tooLarge) return sendError(413, 'request_too_large', `request exceeds the maximum size of ${MAX_BODY_BYTES} bytes`);
    if (!parsed) return sendError(400, 'invalid_request_error', 'request body is not valid JSON');
    const malformed = validateBody(body);
    if (malformed) return sendError(400, 'invalid_request_error', malformed);
    const request = body as Json;
    const refused = refusalOf(request);
    if (refused) return sendError(refused.status, refused.type, refused.message);

    let response: ScriptResponse;
    try {
      response = await pickResponse(rec);
    } catch (err) {
      return sendError(500, 'api_error', `scripted server: script function threw: ${(err as Error)?.message ?? String(err)}`, {
        'x-should-retry': 'false',
      });
    }

    if ('error' in response) {
      const e = response.error;
      const extra: Record<string, string> = {};
      if (e.retryAfter !== undefined) extra['retry-after'] = String(e.retryAfter);
      if (e.shouldRetry !== undefined) extra['x-should-retry'] = String(e.shouldRetry);
      return sendError(e.status, e.type ?? defaultErrorType(e.status), e.message ?? `scripted ${e.status} error`, extra);
    }

    if ('raw' in response) {
      rec.status = response.status ?? 200;
      res.writeHead(rec.status, { 'content-type': rec.stream ? 'text/event-stream' : 'application/json', 'request-id': requestId });
      res.end(response.raw);
      return;
    }

    const content = response.content.map(toBlock);
    const given = Object.fromEntries(Object.entries(response.usage ?? {}).filter(([, v]) => v !== undefined));
    const usage = { ...cache.usageFor(request), output_tokens: estimateOutputTokens(content), ...given };
    // The real API never writes more than max_tokens: a longer scripted answer is cut there, as the API cuts it.
    const cut = usage.output_tokens > Number(request.max_tokens);
    if (cut) usage.output_tokens = Number(request.max_tokens);
    const stop_reason = cut ? 'max_tokens' : (response.stop_reason ?? (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn'));
    const message = {
      id: newId('msg_'),
      type: 'message',
      role: 'assistant',
      model: request.model,
      content,
      stop_reason,
      stop_sequence: null,
      usage,
    };
    const delayMs = response.delayMs ?? 0;

    if (!rec.stream) {
      if (delayMs > 0) await sleep(delayMs, undefined, { signal: gone.signal }).catch(() => undefined);
      if (gone.signal.aborted) return;
      rec.status = 200;
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': requestId });
      res.end(JSON.stringify(message));
      return;
    }

    rec.status = 200;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'request-id': requestId,
    });
    res.flushHeaders();
    const events = streamEvents(message);
    for (const [i, event] of events.entries()) {
      if (i > 0 && delayMs > 0) await sleep(delayMs, undefined, { signal: gone.signal }).catch(() => undefined);
      if (gone.signal.aborted || res.destroyed) return;
      res.write(`event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
    }
    res.end();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      // A bug here must not hang the client: answer 500 if nothing was sent yet, else drop the connection.
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json', 'x-should-retry': 'false' });
        res.end(errorBody('api_error', `scripted server crashed: ${(err as Error)?.message ?? String(err)}`, 'req_crash'));
      } else {
        res.destroy();
      }
    });
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      const port = (server.address() as AddressInfo).port;
      let closing: Promise<void> | null = null;
      resolve({
        url: `http://127.0.0.1:${port}`,
        port,
        requests,
        setScript,
        close: () => {
          closing ??= new Promise<void>((done, fail) => {
            server.close((err) => (err ? fail(err) : done()));
            // Keep-alive sockets and half-sent streams would otherwise hold close() open.
            server.closeAllConnections();
          });
          return closing;
        },
      });
    });
  });
}
