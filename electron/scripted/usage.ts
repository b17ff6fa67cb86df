// Token estimates and a prompt-cache simulation for the scripted server, so usage numbers behave like the real API's.
import { createHash } from 'node:crypto';

export interface InputUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/** One cacheable unit of a request: a tool definition, a system block or a message content block. */
export interface PromptPart {
  /** Identity of the part for cache keys: where it sits plus its content without the cache_control marker. */
  key: string;
  tokens: number;
  breakpoint: boolean;
}

/** A crude but stable estimate: a quarter of the characters of the JSON text. */
export function estimateTokens(value: unknown): number {
  return Math.ceil((JSON.stringify(value) ?? '').length / 4);
}

/** Output tokens of a response's content; never 0, because the real API always counts at least one. */
export function estimateOutputTokens(content: unknown): number {
  return Math.max(1, estimateTokens(content));
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function hasCacheControl(v: unknown): boolean {
  return isRecord(v) && v.cache_control !== undefined && v.cache_control !== null;
}

// The marker only says where to cache; the same content must hit whether or not this request marks it.
function withoutCacheControl(v: unknown): unknown {
  if (!isRecord(v) || !('cache_control' in v)) return v;
  const { cache_control: _ignored, ...rest } = v;
  return rest;
}

function part(location: unknown[], value: unknown): PromptPart {
  const content = withoutCacheControl(value);
  return { key: JSON.stringify([...location, content]), tokens: estimateTokens(content), breakpoint: hasCacheControl(value) };
}

/** Lays a request body out in the order the API caches it: tools, then system, then messages. */
export function layoutPrompt(body: unknown): PromptPart[] {
  const b = isRecord(body) ? body : {};
  const parts: PromptPart[] = [];
  if (Array.isArray(b.tools)) for (const tool of b.tools) parts.push(part(['tools'], tool));
  if (typeof b.system === 'string') parts.push(part(['system'], b.system));
  else if (Array.isArray(b.system)) for (const block of b.system) parts.push(part(['system'], block));
  if (Array.isArray(b.messages)) {
    b.messages.forEach((m: unknown, i) => {
      const msg = isRecord(m) ? m : {};
      // Message index and role are in the key so that regrouping the same blocks into other turns is a different prompt.
      const where = ['messages', i, msg.role];
      if (Array.isArray(msg.content)) for (const block of msg.content) parts.push(part(where, block));
      else parts.push(part(where, msg.content));
    });
  }
  // A top-level cache_control asks the API to put the breakpoint on the last cacheable block itself.
  const last = parts.at(-1);
  if (hasCacheControl(b) && last) last.breakpoint = true;
  return parts;
}

/**
 * Remembers cached prefixes like the API does for one organisation: a prefix is written at each breakpoint,
 * and a later request reads the longest remembered prefix that ends at or before its last breakpoint.
 * With a single breakpoint this is exactly "same prefix seen before → read, else → write"; with a
 * rolling breakpoint on the newest message it also gives the partial hits a real agent loop gets.
 */
export class PromptCache {
  private readonly seen = new Set<string>();

  usageFor(body: unknown): InputUsage {
    const parts = layoutPrompt(body);
    const total = parts.reduce((n, p) => n + p.tokens, 0);
    let lastBreakpoint = -1;
    parts.forEach((p, i) => {
      if (p.breakpoint) lastBreakpoint = i;
    });
    if (lastBreakpoint < 0) return { input_tokens: total, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

    // Caches are per model, so the model seeds every prefix hash.
    const model = isRecord(body) && typeof body.model === 'string' ? body.model : '';
    const running = createHash('sha256').update(JSON.stringify(model));
    const prefixHashes: string[] = [];
    for (let i = 0; i <= lastBreakpoint; i++) {
      running.update('\n' + (parts[i] as PromptPart).key);
      prefixHashes.push(running.copy().digest('hex'));
    }
    let readEnd = -1;
    for (let i = lastBreakpoint; i >= 0; i--) {
      if (this.seen.has(prefixHashes[i] as string)) {
        readEnd = i;
        break;
      }
    }
    parts.forEach((p, i) => {
      if (p.breakpoint && i <= lastBreakpoint) this.seen.add(prefixHashes[i] as string);
    });

    const sum = (from: number, to: number) => parts.slice(from, to).reduce((n, p) => n + p.tokens, 0);
    const read = sum(0, readEnd + 1);
    const creation = sum(readEnd + 1, lastBreakpoint + 1);
    return { input_tokens: total - read - creation, cache_creation_input_tokens: creation, cache_read_input_tokens: read };
  }

  clear(): void {
    this.seen.clear();
  }
}
