// Readable error classes and counts.
import { describe, expect, it } from 'vitest';
import { ERROR_CLASSES } from './domain';
import { errorClassLabel, plural } from './error-classes';

describe('errorClassLabel', () => {
  it('gives every class a label without underscores', () => {
    for (const c of ERROR_CLASSES) expect(errorClassLabel(c)).not.toMatch(/_/);
    expect(errorClassLabel('test_failure')).toBe('Test failure');
  });
  it('reads mid-sentence in lower case, keeping acronyms', () => {
    expect(errorClassLabel('test_failure', { midSentence: true })).toBe('test failure');
    expect(errorClassLabel('api_error', { midSentence: true })).toBe('API error');
    expect(errorClassLabel('some_new_class')).toBe('some new class');
  });
});

describe('plural', () => {
  it('says 1 gate and 2 gates', () => {
    expect(plural(1, 'gate')).toBe('1 gate');
    expect(plural(2, 'gate')).toBe('2 gates');
    expect(plural(0, 'run')).toBe('0 runs');
    expect(plural(1, 'retry', 'retries')).toBe('1 retry');
  });
});
