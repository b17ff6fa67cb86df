// What the agent's tools hand back to the model: a tool_result's text, and one sentence for an input the model got wrong.
import type { z } from 'zod';

/** What a tool execution hands back to the model as a tool_result. */
export interface ToolOutcome {
  content: string;
  isError: boolean;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value === 'number' ? 'the number' : typeof value} ${String(value)}`;
}

function expectedPhrase(expected: string): string {
  if (expected === 'int') return 'an integer';
  if (expected === 'array' || expected === 'object' || expected === 'integer') return `an ${expected}`;
  return `a ${expected}`;
}

function valueAt(input: unknown, keys: readonly PropertyKey[]): unknown {
  let cur: unknown = input;
  for (const key of keys) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

function fieldName(keys: readonly PropertyKey[]): string {
  return keys.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? String(k) : `.${String(k)}`)).join('');
}

/**
 * Turns zod's issues into one sentence the model can act on: which field, what was expected, what came.
 * Shared with the bash tool so both tools word input errors the same way.
 */
export function describeInvalidInput(toolName: string, input: unknown, error: z.ZodError): string {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return `Invalid input for ${toolName}: expected a JSON object, got ${describeValue(input)}.`;
  }
  const parts = error.issues.slice(0, 4).map((issue) => {
    const field = fieldName(issue.path);
    const got = valueAt(input, issue.path);
    if (issue.code === 'invalid_union' && 'options' in issue && Array.isArray(issue.options)) {
      const options = issue.options.map((o: unknown) => JSON.stringify(o)).join(', ');
      const hint = got === 'undo_edit' ? ' (undo_edit does not exist in this version of the tool)' : '';
      return `\`${field}\` must be one of ${options}, got ${got === undefined ? 'nothing' : describeValue(got)}${hint}`;
    }
    if (issue.code === 'invalid_type') {
      const expected = expectedPhrase(String(issue.expected));
      if (got === undefined) return `\`${field}\` is missing (expected ${expected})`;
      return `\`${field}\` must be ${expected}, got ${describeValue(got)}`;
    }
    return `\`${field || 'input'}\`: ${issue.message}`;
  });
  return `Invalid input for ${toolName}: ${parts.join('; ')}.`;
}
