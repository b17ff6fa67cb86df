// Failing tests and compile errors as the retry prompt lists them: "- **name**", Expected, Got,
// Location; values quoted as the tool printed them.
import type { FailedTest } from './failure-text';

export const MAX_FAILURES_LISTED = 30;
const MAX_MESSAGE_LINES = 6;

export const NO_STRUCTURED_FAILURES = 'No structured failures found: the output is in no format Ratchet reads (or names no test). Read the gate output below.';

/** "file:line" (with ":col" when known), or null without a file. */
export function failureLocation(f: Pick<FailedTest, 'file' | 'line' | 'column'>): string | null {
  if (!f.file) return null;
  if (f.line === null) return f.file;
  return `${f.file}:${f.line}${f.column ? `:${f.column}` : ''}`;
}

/** A value on one line as printed; a multi-line one indented under its label. */
function value(label: string, v: string): string {
  const lines = v.split('\n');
  return lines.length === 1 ? `  ${label}: ${v}` : [`  ${label}:`, ...lines.map((l) => `    ${l}`)].join('\n');
}

function messageLines(message: string | null): string | null {
  if (!message) return null;
  const lines = message.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0) return null;
  const shown = lines.slice(0, MAX_MESSAGE_LINES);
  if (lines.length > shown.length) shown.push('…');
  return value('Error', shown.join('\n'));
}

/** One entry: a failing test (name, Expected/Got or its error, Location) or a compile error (where + code, message). */
export function formatFailure(f: FailedTest): string {
  const where = failureLocation(f);
  if (f.kind === 'compile') {
    const [first = '', ...rest] = (f.message ?? '')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    return [
      `- **${f.name}**${first ? ` ${first}` : ''}`,
      ...rest.slice(0, MAX_MESSAGE_LINES).map((l) => `  ${l}`),
      where && where !== f.name.split(' ')[0] ? `  Location: ${where}` : null,
    ]
      .filter((l): l is string => l !== null)
      .join('\n');
  }
  const lines = [`- **${f.name}**`];
  if (f.expected !== null || f.actual !== null) {
    lines.push(value('Expected', f.expected ?? '(not printed)'), value('Got', f.actual ?? '(not printed)'));
    const msg = f.message?.split('\n')[0]?.trim();
    // The assertion's own message ("division should be exact") says what the values mean.
    if (msg && !msg.includes(f.expected ?? '\u0000') && !msg.includes(f.actual ?? '\u0000')) lines.push(value('Message', msg));
  } else {
    const msg = messageLines(f.message);
    if (msg) lines.push(msg);
  }
  lines.push(`  Location: ${where ?? 'unknown'}`);
  return lines.join('\n');
}

/**
 * The failures section of a retry prompt: compile errors first (nothing runs until they are fixed), then failing
 * tests, at most MAX_FAILURES_LISTED entries; or a clear "no structured failures found" when there are none.
 */
export function formatFailures(failures: readonly FailedTest[], max = MAX_FAILURES_LISTED): string {
  if (failures.length === 0) return NO_STRUCTURED_FAILURES;
  const compile = failures.filter((f) => f.kind === 'compile');
  const tests = failures.filter((f) => f.kind !== 'compile');
  const ordered = [...compile, ...tests];
  const shown = ordered.slice(0, max);
  const counts = [
    compile.length ? `${compile.length} error${compile.length === 1 ? '' : 's'}` : '',
    tests.length ? `${tests.length} failing test${tests.length === 1 ? '' : 's'}` : '',
  ].filter(Boolean);
  const more = ordered.length - shown.length;
  return [`${counts.join(' and ')}:`, '', shown.map(formatFailure).join('\n\n'), more > 0 ? `\n(${more} more not listed: see the output below.)` : '']
    .join('\n')
    .trimEnd();
}
