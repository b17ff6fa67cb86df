// The retry policy in force for a task and its steps, as the status document and `ratchet check` show it.
import type { PolicyDoc } from '../../../shared/domain';
import { money } from '../../../shared/money';
import type { StepConfig, Workflow } from '../workflow/schema';
import { resolvePolicy, type ResolvedPolicy } from './policy';
import { parseTaskRetryConfig, type TaskRetryConfig } from './task-retry-config';

/** The policy for each step of a task: workflow < task description's block < the step's own keys < a raised budget. */
export function stepPolicies(
  workflow: Workflow,
  task: TaskRetryConfig | null,
  steps: readonly StepConfig[],
  raisedTaskUsd: number | null = null,
): ResolvedPolicy[] {
  return steps.map((step) => resolvePolicy(workflow, { task, step, raisedTaskUsd }));
}

export function policyDoc(workflow: Workflow, description: string, steps: readonly StepConfig[], raisedTaskUsd: number | null = null): PolicyDoc {
  let task: TaskRetryConfig | null = null;
  try {
    task = parseTaskRetryConfig(description);
  } catch {
    // Checked when the run was started; a description edited since then is shown without its block.
  }
  const p = resolvePolicy(workflow, { task, raisedTaskUsd });
  return {
    maxRetries: p.maxRetries,
    timeoutSeconds: p.timeoutSeconds,
    allowRetryOn: p.allowRetryOn ? [...p.allowRetryOn] : null,
    backoff: { ...p.backoff },
    budget: { ...p.budget },
    sources: { ...p.sources },
    steps: stepPolicies(workflow, task, steps, raisedTaskUsd).map((s, i) => ({ index: i + 1, maxRetries: s.maxRetries, source: s.sources.max_retries })),
  };
}

const usd = (n: number | null) => (n === null ? 'none' : money(n));

/** Plain lines for the terminal: each value with where it came from. */
export function policyLines(doc: PolicyDoc, steps: readonly { title: string }[]): string[] {
  const src = (k: string) => `(${doc.sources[k] ?? 'default'})`;
  const lines = [
    'retry policy in force:',
    `  max_retries      ${doc.maxRetries} ${src('max_retries')}`,
    `  timeout_seconds  ${doc.timeoutSeconds} ${src('timeout_seconds')}`,
    `  allow_retry_on   ${doc.allowRetryOn ? doc.allowRetryOn.join(', ') : 'every retriable class'} ${src('allow_retry_on')}`,
    `  backoff          ${doc.backoff.base_s} s doubling to ${doc.backoff.max_s} s, jitter ${doc.backoff.jitter} ${src('backoff')}`,
    `  budget           task ${usd(doc.budget.taskUsd)} ${src('task_usd')}, daily ${usd(doc.budget.dailyUsd)} ${src('daily_usd')}, alert at ${Math.round(doc.budget.alertAt * 100)} % ${src('alert_at')}`,
  ];
  for (const s of doc.steps) if (s.source === 'step') lines.push(`  step ${s.index} (${steps[s.index - 1]?.title ?? ''}): max_retries ${s.maxRetries} (step)`);
  return lines;
}
