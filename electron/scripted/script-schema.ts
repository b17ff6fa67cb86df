// Validates a scripted-server script (usually a JSON file) and says exactly which path in it is wrong.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Script } from './script-rules';

const Usage = z.strictObject({
  input_tokens: z.number().int().min(0).optional(),
  output_tokens: z.number().int().min(0).optional(),
  cache_creation_input_tokens: z.number().int().min(0).optional(),
  cache_read_input_tokens: z.number().int().min(0).optional(),
});

const Content = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text'), text: z.string() }),
  z.strictObject({ type: z.literal('tool_use'), name: z.string().min(1), input: z.unknown(), id: z.string().min(1).optional() }),
]);

const MessageResponse = z.strictObject({
  content: z.array(Content),
  stop_reason: z.enum(['end_turn', 'tool_use', 'max_tokens']).optional(),
  usage: Usage.optional(),
  delayMs: z.number().int().min(0).optional(),
});

const ErrorResponse = z.strictObject({
  error: z.strictObject({
    status: z.number().int().min(400).max(599),
    type: z.string().min(1).optional(),
    message: z.string().optional(),
    retryAfter: z.number().min(0).optional(),
    shouldRetry: z.boolean().optional(),
  }),
});

const RawResponse = z.strictObject({ raw: z.string(), status: z.number().int().min(100).max(599).optional() });

// A plain union would report only "invalid input" at the response; choosing the variant by its key
// lets the message point into the variant the author meant (e.g. rules[2].response.content[0].text).
const ResponseSchema = z.unknown().transform((value, ctx) => {
  const variant =
    isRecord(value) && 'error' in value
      ? ErrorResponse
      : isRecord(value) && 'raw' in value
        ? RawResponse
        : isRecord(value) && 'content' in value
          ? MessageResponse
          : null;
  if (!variant) {
    ctx.addIssue({ code: 'custom', message: 'a response is an object with one of `content`, `error` or `raw`' });
    return z.NEVER;
  }
  const result = variant.safeParse(value);
  if (!result.success) {
    for (const issue of result.error.issues) ctx.addIssue({ code: 'custom', message: messageOf(issue), path: issue.path });
    return z.NEVER;
  }
  return result.data;
});

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function messageOf(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `\`${k}\``).join(', ')}`;
  return issue.message;
}

const Regex = z.string().refine(
  (s) => {
    try {
      new RegExp(s);
      return true;
    } catch {
      return false;
    }
  },
  { message: 'not a valid regular expression' },
);

const Rule = z.strictObject({
  match: Regex.optional(),
  system: Regex.optional(),
  times: z.number().int().min(1).optional(),
  response: ResponseSchema,
});

export const ScriptSchema = z.strictObject({ rules: z.array(Rule) });

// Fails to compile if the schema and the server's Script type drift apart.
const _sameShape: (s: z.infer<typeof ScriptSchema>) => Script = (s) => s;

function pathText(path: readonly PropertyKey[]): string {
  return (
    path
      .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
      .join('')
      .replace(/^\./, '') || '(top level)'
  );
}

/** Validates a parsed script; throws one Error listing every problem as `path: message`. */
export function parseScript(data: unknown, source = 'script'): Script {
  const result = ScriptSchema.safeParse(data);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `  ${pathText(issue.path)}: ${messageOf(issue)}`);
  throw new Error(`${source} is not a valid scripted-server script:\n${lines.join('\n')}`);
}

/** Reads and validates a JSON script file. */
export function loadScriptFile(file: string): Script {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read script file ${file}: ${(err as Error).message}`, { cause: err });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`script file ${file} is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  return parseScript(data, `script file ${file}`);
}
