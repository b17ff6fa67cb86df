// A scripted stand-in for the Anthropic Messages API, for tests and the demo: the real SDK talks to it over HTTP.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AddressInfo } from 'node:net';
import { defaultErrorType, errorBody, newId, streamEvents, toBlock } from './message-wire';
import { isRecord, refusalOf, validateBody, type Json } from './request-checks';
import {
  compileScript,
  lastUserTextOf,
  ruleResponse,
  systemTextOf,
  type CompiledRule,
  type RecordedRequest,
  type Script,
  type ScriptFn,
  type ScriptResponse,
} from './script-rules';
import { PromptCache, estimateOutputTokens } from './usage';

export type { RecordedRequest, Script, ScriptContent, ScriptFn, ScriptResponse, ScriptRule, ScriptUsage } from './script-rules';
export { lastUserTextOf, systemTextOf } from './script-rules';
export { refusalOf } from './request-checks';

export interface ScriptedServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  setScript(s: Script | ScriptFn): void;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 32 * 1024 * 1024;

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

  const pickResponse = async (rec: RecordedRequest): Promise<ScriptResponse> => (scriptFn ? scriptFn(rec) : ruleResponse(rules, rec));

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
