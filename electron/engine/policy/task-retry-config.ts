// The per-task retry configuration: the `## Retry Configuration` block of a task description, parsed and checked.
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { ErrorClass } from '../../../shared/domain';
import { RatchetError } from '../errors';

export const TaskRetryConfig = z
  .object({
    max_retries: z.number().int().min(0).optional(),
    timeout_seconds: z.number().positive().optional(),
    allow_retry_on: z.array(ErrorClass).optional(),
  })
  .strict();
export type TaskRetryConfig = z.infer<typeof TaskRetryConfig>;

const HEADING = /^\s{0,3}#{1,6}\s+retry configuration\s*#*\s*$/i;
const ANY_HEADING = /^\s{0,3}#{1,6}\s/;
const FENCE = /^\s*(```|~~~)/;

/** The block's text (the lines under the heading, up to the next heading or a closing fence), or null when there is none. */
export function retryConfigBlock(description: string): string | null {
  const lines = description.split(/\r?\n/);
  const start = lines.findIndex((l) => HEADING.test(l));
  if (start < 0) return null;
  const body: string[] = [];
  let i = start + 1;
  while (i < lines.length && lines[i]?.trim() === '') i++;
  let fenced = false;
  if (i < lines.length && FENCE.test(lines[i] as string)) {
    fenced = true;
    i++;
  }
  for (; i < lines.length; i++) {
    const l = lines[i] as string;
    if (FENCE.test(l) || (!fenced && ANY_HEADING.test(l))) break;
    body.push(l);
  }
  return body.join('\n');
}

/** Parses the block; null when the description has none. Bad values throw a `retry_config_invalid` error that names them. */
export function parseTaskRetryConfig(description: string): TaskRetryConfig | null {
  const block = retryConfigBlock(description);
  if (block === null) return null;
  let data: unknown;
  try {
    data = parseYaml(block) ?? {};
  } catch (err) {
    throw new RatchetError(
      'retry_config_invalid',
      `The task's "## Retry Configuration" block is not valid YAML: ${(err as Error).message.split('\n')[0]}. Write one \`key: value\` a line (max_retries, timeout_seconds, allow_retry_on).`,
    );
  }
  const r = TaskRetryConfig.safeParse(data);
  if (!r.success) {
    const problems = r.error.issues.map((i) => `${i.path.join('.') || 'block'}: ${i.message}`).join('; ');
    throw new RatchetError(
      'retry_config_invalid',
      `The task's "## Retry Configuration" block is not valid: ${problems}. It takes max_retries (a whole number), timeout_seconds (seconds) and allow_retry_on (a list of error classes).`,
    );
  }
  return r.data;
}

/** The description with its "## Retry Configuration" block set to `config` (replacing one it had); unchanged when `config` is empty. */
export function withRetryConfig(description: string, config: TaskRetryConfig): string {
  const lines = Object.entries(TaskRetryConfig.parse(config))
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? `[${v.join(', ')}]` : String(v)}`);
  if (!lines.length) return description;
  const block = `## Retry Configuration\n${lines.join('\n')}\n`;
  const all = description.split(/\r?\n/);
  const start = all.findIndex((l) => HEADING.test(l));
  if (start < 0) return `${description.replace(/\s*$/, '')}${description.trim() ? '\n\n' : ''}${block}`;
  // Replace the old block: its heading, an optional fence, and its lines up to the next heading or the fence's end.
  let end = start + 1;
  while (end < all.length && all[end]?.trim() === '') end++;
  const fenced = end < all.length && FENCE.test(all[end] as string);
  if (fenced) end++;
  while (end < all.length && !FENCE.test(all[end] as string) && (fenced || !ANY_HEADING.test(all[end] as string))) end++;
  if (fenced && end < all.length) end++;
  return [...all.slice(0, start), ...block.trimEnd().split('\n'), ...all.slice(end)].join('\n');
}
