// The script a scripted server answers by: its rules and answers, what a rule is tested against (the last user turn,
// the system prompt), and which rule a request picks.
import { isRecord } from './request-checks';

export type ScriptContent = { type: 'text'; text: string } | { type: 'tool_use'; name: string; input: unknown; id?: string };

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

export interface CompiledRule {
  rule: ScriptRule;
  match: RegExp | null;
  system: RegExp | null;
  remaining: number;
}

function blockText(block: unknown): string {
  if (!isRecord(block)) return '';
  if (block.type === 'text' && typeof block.text === 'string') return block.text;
  if (block.type === 'tool_result') {
    if (typeof block.content === 'string') return block.content;
    if (Array.isArray(block.content))
      return block.content
        .map(blockText)
        .filter((t) => t !== '')
        .join('\n');
  }
  return '';
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map(blockText)
      .filter((t) => t !== '')
      .join('\n');
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

function compileRegex(source: string | undefined, where: string): RegExp | null {
  if (source === undefined) return null;
  try {
    return new RegExp(source);
  } catch (err) {
    throw new Error(`${where} is not a valid regular expression: ${(err as Error).message}`, { cause: err });
  }
}

export function compileScript(script: Script): CompiledRule[] {
  return script.rules.map((rule, i) => ({
    rule,
    match: compileRegex(rule.match, `rules[${i}].match`),
    system: compileRegex(rule.system, `rules[${i}].system`),
    remaining: rule.times ?? Infinity,
  }));
}

/** The first rule with uses left whose patterns match the request (one use spent), else the 500 saying none matched. */
export function ruleResponse(rules: CompiledRule[], rec: RecordedRequest): ScriptResponse {
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
}
