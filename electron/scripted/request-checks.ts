// What the scripted server refuses of a request, as the real Messages API refuses it: a malformed body (400 with the
// field's path), and of a well-formed one what the published reference refuses (retired models, unknown fields, …).
import { layoutPrompt } from './usage';
import { CLIENT_TOOL_NAMES, MAX_CACHE_BREAKPOINTS, isRetiredModel, modelSpec } from '../../shared/anthropic-models';

export type Json = Record<string, unknown>;

export function isRecord(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function validateBody(body: unknown): string | null {
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
  'model',
  'max_tokens',
  'messages',
  'system',
  'tools',
  'tool_choice',
  'stream',
  'temperature',
  'top_p',
  'top_k',
  'stop_sequences',
  'metadata',
  'thinking',
  'output_config',
  'service_tier',
  'container',
  'mcp_servers',
  'context_management',
  'inference_geo',
  'cache_control',
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
        if (!expected)
          return invalid(
            `tools.${i}: Input tag '${type}' found using 'type' does not match any of the expected tags: ${Object.keys(CLIENT_TOOL_NAMES)
              .map((t) => `'${t}'`)
              .join(', ')}`,
          );
        if (tool.name !== expected) return invalid(`tools.${i}.${type}.name: Input should be '${expected}'`);
      }
    }
  }
  if (Array.isArray(body.system) && body.system.some((b) => isRecord(b) && b.type === 'text' && b.text === ''))
    return invalid('system: text content blocks must be non-empty');
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
    const answered = new Set(
      Array.isArray(after) ? after.filter((b) => isRecord(b) && b.type === 'tool_result').map((b) => String((b as Json).tool_use_id)) : [],
    );
    const missing = ids.filter((id) => !answered.has(id));
    if (missing.length) {
      return invalid(
        `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
      );
    }
  }
  const breakpoints = countCacheControl(body.system) + countCacheControl(body.messages) + countCacheControl(body.tools) + (body.cache_control ? 1 : 0);
  if (breakpoints > MAX_CACHE_BREAKPOINTS)
    return invalid(`A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints}.`);
  const spec = modelSpec(model);
  if (!spec) return null;
  const maxTokens = Number(body.max_tokens);
  if (maxTokens > spec.maxOutput)
    return invalid(`max_tokens: ${maxTokens} > ${spec.maxOutput}, which is the maximum allowed number of output tokens for ${model}`);
  const has = (k: string) => body[k] !== undefined && body[k] !== null;
  if (has('temperature') && has('top_p')) return invalid('`temperature` and `top_p` cannot both be specified for this model. Please use only one.');
  if (spec.refusesSampling && ((has('temperature') && body.temperature !== 1) || has('top_p') || has('top_k'))) {
    return invalid(`${has('top_k') ? 'top_k' : has('top_p') ? 'top_p' : 'temperature'}: sampling parameters are not supported for ${model}; leave them out`);
  }
  const thinking = isRecord(body.thinking) ? body.thinking : null;
  if (thinking) {
    const t = thinking.type;
    if (t === 'enabled' && (spec.thinking === 'adaptive' || spec.thinking === 'adaptive-always')) {
      return invalid(
        '"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.',
      );
    }
    if (t === 'disabled' && spec.thinking === 'adaptive-always')
      return invalid('"thinking.type.disabled" is not supported for this model: its thinking is always on.');
    if (t === 'adaptive' && spec.thinking === 'manual')
      return invalid('"thinking.type.adaptive" is not supported for this model. Use "thinking.type.enabled" with "budget_tokens".');
    if (t === 'enabled' && (typeof thinking.budget_tokens !== 'number' || thinking.budget_tokens < 1024 || thinking.budget_tokens >= maxTokens)) {
      return invalid('thinking.enabled.budget_tokens: must be at least 1024 and less than max_tokens');
    }
  }
  const input = layoutPrompt(body).reduce((n, p) => n + p.tokens, 0);
  if (input > spec.contextWindow) return invalid(`prompt is too long: ${input} tokens > ${spec.contextWindow} maximum`);
  if (input + maxTokens > spec.contextWindow) {
    return invalid(
      `input length and \`max_tokens\` exceed context limit: ${input} + ${maxTokens} > ${spec.contextWindow}, decrease input length or \`max_tokens\` and try again`,
    );
  }
  return null;
}
