// The error classes: the list and how people read them ("Test failure", not `test_failure`), one map for the app, the CLI and the engine's sentences.
export const ERROR_CLASSES = [
  'test_failure',
  'compilation_error',
  'crash',
  'timeout',
  'api_error',
  'rate_limit',
  'git_conflict',
  'missing_dependency',
  'permission_error',
  'resource_exhaustion',
  'environment',
  'sandbox_violation',
  'no_change',
  'empty_attempt',
  /** A test-first step's test attempt broke its rule: no test file changed, or the tests pass before the implementation. */
  'tdd_violation',
  'unknown',
] as const;
/** An error class's name (the zod schema of it is `ErrorClass` in error-class.ts: this file stays free of zod, for the CLI's light paths). */
export type ErrorClassName = (typeof ERROR_CLASSES)[number];

export const ERROR_CLASS_LABEL: Record<ErrorClassName, string> = {
  test_failure: 'Test failure',
  compilation_error: 'Compilation error',
  crash: 'Crash',
  timeout: 'Timeout',
  api_error: 'API error',
  rate_limit: 'Rate limit',
  git_conflict: 'Git conflict',
  missing_dependency: 'Missing dependency',
  permission_error: 'Permission error',
  resource_exhaustion: 'Out of resources',
  environment: 'Environment problem',
  sandbox_violation: 'Sandbox violation',
  no_change: 'No change',
  empty_attempt: 'Empty attempt',
  tdd_violation: 'TDD violation',
  unknown: 'Unknown error',
};

/**
 * The readable label of an error class; `midSentence` lower-cases its first word unless it is an acronym
 * ("a test failure", "an API error"). An unknown code reads with its underscores as spaces.
 */
export function errorClassLabel(code: string, opts: { midSentence?: boolean } = {}): string {
  const label = (ERROR_CLASS_LABEL as Record<string, string | undefined>)[code] ?? code.replace(/_/g, ' ');
  if (!opts.midSentence || /^[A-Z]{2,}\b/.test(label)) return label;
  return label.charAt(0).toLowerCase() + label.slice(1);
}

/** "1 retry", "2 retries": a count with its noun in the right number. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
