// The scripted server's answers as the real API writes them: ids, error bodies, a message's content blocks, and the
// event sequence of a streamed message.
import { randomBytes } from 'node:crypto';
import type { Json } from './request-checks';
import type { ScriptContent } from './script-rules';

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

export function defaultErrorType(status: number): string {
  return ERROR_TYPE_BY_STATUS[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function newId(prefix: string): string {
  const bytes = randomBytes(22);
  let s = '';
  for (const b of bytes) s += ID_ALPHABET[b % ID_ALPHABET.length];
  return `${prefix}01${s}`;
}

export function errorBody(type: string, message: string, requestId: string): string {
  return JSON.stringify({ type: 'error', error: { type, message }, request_id: requestId });
}

function splitChunks(s: string, count: number): string[] {
  const chars = Array.from(s); // code points, so no chunk ends inside a surrogate pair
  const size = Math.max(1, Math.ceil(chars.length / Math.max(1, count)));
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

export function toBlock(c: ScriptContent): Json {
  if (c.type === 'text') return { type: 'text', text: c.text };
  return { type: 'tool_use', id: c.id ?? newId('toolu_'), name: c.name, input: c.input ?? {} };
}

/** The event sequence of the real streaming API for one finished message. */
export function streamEvents(message: Json & { content: Json[]; usage: Json }): Json[] {
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
