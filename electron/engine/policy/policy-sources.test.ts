// Per-task and per-step retry configuration: what overrides what, and where each value came from.
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { WorkflowFile } from '../workflow/schema';
import { resolvePolicy } from './policy';
import { policyDoc } from './policy-doc';
import { parseTaskRetryConfig, retryConfigBlock, withRetryConfig } from './task-retry-config';

const workflow = (yaml: string) => WorkflowFile.parse(parseYaml(`${yaml}\nsteps:\n  - title: one\n`));

/** A worked example, as a task description. */
const SEED_002 = `# Task: Add health to Player

Give the player a health bar.

\`\`\`markdown
## Retry Configuration
max_retries: 5
timeout_seconds: 600
allow_retry_on: [test_failure, compilation_error]
\`\`\`
`;

describe('the "## Retry Configuration" block of a task description', () => {
  it('parses the example of seed 002, fenced or not, and ends at the next heading', () => {
    expect(parseTaskRetryConfig(SEED_002)).toEqual({ max_retries: 5, timeout_seconds: 600, allow_retry_on: ['test_failure', 'compilation_error'] });
    expect(parseTaskRetryConfig('Intro\n\n## Retry Configuration\nmax_retries: 1\n\n## Notes\nmax_retries: 9\n')).toEqual({ max_retries: 1 });
    expect(retryConfigBlock('No block here')).toBeNull();
    expect(parseTaskRetryConfig('just a description')).toBeNull();
  });

  it('refuses unknown keys, bad values and unknown error classes, naming them', () => {
    expect(() => parseTaskRetryConfig('## Retry Configuration\nmax_retry: 5\n')).toThrow(/max_retry/);
    expect(() => parseTaskRetryConfig('## Retry Configuration\nmax_retries: -1\n')).toThrow(/max_retries/);
    expect(() => parseTaskRetryConfig('## Retry Configuration\nallow_retry_on: [flaky]\n')).toThrow(/allow_retry_on/);
    expect(() => parseTaskRetryConfig('## Retry Configuration\nmax_retries: [\n')).toThrow(/not valid YAML/);
  });
});

describe('withRetryConfig (what the New task screen sets)', () => {
  it('appends a block, or replaces the one there is (fenced as in seed 002, or not), and reads back the same', () => {
    const added = withRetryConfig('Do it.', { max_retries: 2, allow_retry_on: ['test_failure'] });
    expect(added).toBe('Do it.\n\n## Retry Configuration\nmax_retries: 2\nallow_retry_on: [test_failure]\n');
    expect(parseTaskRetryConfig(added)).toEqual({ max_retries: 2, allow_retry_on: ['test_failure'] });
    const replaced = withRetryConfig(SEED_002, { timeout_seconds: 60 });
    expect(parseTaskRetryConfig(replaced)).toEqual({ timeout_seconds: 60 });
    expect(replaced).toContain('Give the player a health bar.');
    expect(replaced.match(/```/g)).toHaveLength(2);
    const plain = withRetryConfig('A\n\n## Retry Configuration\nmax_retries: 9\n\n## Notes\nkeep me\n', { max_retries: 1 });
    expect(parseTaskRetryConfig(plain)).toEqual({ max_retries: 1 });
    expect(plain).toContain('## Notes\nkeep me');
    expect(withRetryConfig('Same.', {})).toBe('Same.');
  });
});

describe('resolvePolicy with a task and a step', () => {
  it('default < preset < workflow < task < step, each value with its source', () => {
    const base = resolvePolicy(workflow(''));
    expect(base.sources).toMatchObject({
      max_retries: 'default',
      timeout_seconds: 'default',
      allow_retry_on: 'default',
      backoff: 'default',
      daily_usd: 'default',
    });
    const preset = resolvePolicy(workflow('preset: aggressive'));
    expect(preset.maxRetries).toBe(5);
    expect(preset.sources).toMatchObject({ max_retries: 'preset', backoff: 'preset', daily_usd: 'preset' });
    const w = workflow('preset: aggressive\nmax_retries: 2\ntimeout_seconds: 900\nallow_retry_on: [test_failure]');
    const wp = resolvePolicy(w);
    expect([wp.maxRetries, wp.timeoutSeconds, [...(wp.allowRetryOn ?? [])]]).toEqual([2, 900, ['test_failure']]);
    expect(wp.sources).toMatchObject({ max_retries: 'workflow', timeout_seconds: 'workflow', allow_retry_on: 'workflow' });
    const task = parseTaskRetryConfig(SEED_002);
    const tp = resolvePolicy(w, { task });
    expect([tp.maxRetries, tp.limits.test_failure, tp.timeoutSeconds, [...(tp.allowRetryOn ?? [])]]).toEqual([
      5,
      5,
      600,
      ['test_failure', 'compilation_error'],
    ]);
    expect(tp.sources).toMatchObject({ max_retries: 'task', timeout_seconds: 'task', allow_retry_on: 'task' });
    const sp = resolvePolicy(w, { task, step: { max_retries: 0 } });
    expect([sp.maxRetries, sp.timeoutSeconds]).toEqual([0, 600]);
    expect(sp.sources).toMatchObject({ max_retries: 'step', timeout_seconds: 'task' });
    // Other classes keep their own limits.
    expect(sp.limits.compilation_error).toBe(2);
  });

  it('a raised budget takes the place of task_usd from the workflow', () => {
    const w = workflow('budget: { task_usd: 1 }');
    expect(resolvePolicy(w).budget.taskUsd).toBe(1);
    const raised = resolvePolicy(w, { raisedTaskUsd: 4 });
    expect(raised.budget.taskUsd).toBe(4);
    expect(raised.sources.task_usd).toBe('raised');
  });

  it('the policy document lists the max_retries of each step with its source', () => {
    const w = WorkflowFile.parse(parseYaml('max_retries: 2\nsteps:\n  - title: one\n  - title: two\n    max_retries: 6\n'));
    const doc = policyDoc(w, SEED_002, w.steps);
    expect(doc.maxRetries).toBe(5);
    expect(doc.sources.max_retries).toBe('task');
    expect(doc.steps).toEqual([
      { index: 1, maxRetries: 5, source: 'task' },
      { index: 2, maxRetries: 6, source: 'step' },
    ]);
  });
});
