// What each notification says: a person's sentence, ntfy's priority (high only for a failure) and the webhook's exact JSON.
import { describe, expect, it } from 'vitest';
import { WebhookPayload } from '../../../shared/notify';
import { buildNotice } from './messages';

const run = { runId: 'r123', task: 'Add login', repo: '/src/app', costUsd: 0.42 };
const step = { index: 3, title: 'Write tests' };

describe('buildNotice', () => {
  it('a failure after retries: high priority, where it failed, after how many attempts, what it cost and what to do', () => {
    const n = buildNotice({ ...run, status: 'failed', event: 'run.failed', step, attempts: 4, maxAttempts: 4, cause: 'test_failure' });
    expect(n.priority).toBe('high');
    expect(n.title).toBe("Ratchet: 'Add login' failed");
    expect(n.body).toBe("Run 'Add login' failed at step 3 'Write tests' after 4 attempts ($0.42): Test failure. Next: ratchet retry r123");
    expect(n.tags).toEqual(['x']);
  });

  it('success after a retry, a budget alert, needs-you and a plain success: default priority', () => {
    const retry = buildNotice({ ...run, status: 'running', event: 'step.succeeded_after_retry', step, attempts: 3, maxAttempts: 4 });
    expect(retry.body).toBe("Run 'Add login': step 3 'Write tests' succeeded on attempt 3/4 ($0.42 so far). The run goes on.");
    const alert = buildNotice({ ...run, status: 'running', event: 'budget.alert', step, budget: 'task', spentUsd: 4.1, limitUsd: 5 });
    expect(alert.body).toBe(
      "Run 'Add login' has spent $4.10 of its $5.00 task budget (82 %). It pauses when the budget is reached; ratchet resume r123 --budget <usd> then gives it more.",
    );
    const daily = buildNotice({ ...run, status: 'running', event: 'budget.alert', step: null, budget: 'daily', spentUsd: 40, limitUsd: 50 });
    expect(daily.body).toContain('$40.00 of the $50.00 daily budget (80 %)');
    const needs = buildNotice({ ...run, status: 'paused', event: 'run.needs_you', step, attempts: 2, maxAttempts: 4, kind: 'escalated', cause: 'unknown' });
    expect(needs.body).toBe(
      "Run 'Add login' needs you at step 3 'Write tests' ($0.42): Unknown error. Next: look at its attempts, fix the cause or revise the plan (ratchet plan r123 --edit <file>), then ratchet resume r123",
    );
    const budget = buildNotice({ ...run, status: 'paused', event: 'run.needs_you', step, kind: 'task_budget', cause: null, attempts: null, maxAttempts: null });
    expect(budget.body).toBe(
      "Run 'Add login' needs you at step 3 'Write tests' ($0.42): it reached its task budget. Next: ratchet resume r123 --budget <usd> gives it more and it continues where it paused",
    );
    const approval = buildNotice({
      ...run,
      status: 'waiting_approval',
      event: 'run.needs_you',
      step: null,
      kind: 'approval',
      cause: null,
      attempts: null,
      maxAttempts: null,
    });
    expect(approval.body).toContain('ratchet resume r123 --approve');
    const ok = buildNotice({ ...run, status: 'succeeded', event: 'run.succeeded', stepsDone: 3, stepsTotal: 3, branch: 'ratchet/add-login-abc123' });
    expect(ok.body).toBe("Run 'Add login' succeeded: 3 of 3 steps committed on ratchet/add-login-abc123 ($0.42). Next: review the branch and merge it.");
    for (const n of [retry, alert, daily, needs, budget, approval, ok]) expect(n.priority).toBe('default');
  });

  it('says "cost unknown" when a price is unknown, and one attempt in the singular', () => {
    const n = buildNotice({ ...run, costUsd: null, status: 'failed', event: 'run.failed', step, attempts: 1, maxAttempts: 1, cause: 'missing_dependency' });
    expect(n.body).toContain('after 1 attempt (cost unknown): Missing dependency.');
  });

  it("has no field for free text: an internal error or an unknown cause reads in Ratchet's own words", () => {
    const internal = buildNotice({ ...run, status: 'failed', event: 'run.failed', step: null, attempts: null, maxAttempts: null, cause: 'internal' });
    expect(internal.body).toBe("Run 'Add login' failed ($0.42): an internal error in Ratchet stopped it (ratchet status says more). Next: ratchet retry r123");
    const none = buildNotice({ ...run, status: 'paused', event: 'run.needs_you', step, attempts: null, maxAttempts: null, kind: 'escalated', cause: null });
    expect(none.body).toContain("needs you at step 3 'Write tests' ($0.42): its attempts need a look. Next:");
  });

  it('gives the webhook exactly its ten keys, the message being the same sentence', () => {
    const n = buildNotice({ ...run, status: 'failed', event: 'run.failed', step, attempts: 4, maxAttempts: 4, cause: null });
    expect(Object.keys(n.webhook).sort()).toEqual(['attempts', 'costUsd', 'event', 'maxAttempts', 'message', 'repo', 'runId', 'status', 'step', 'task']);
    expect(WebhookPayload.parse(n.webhook)).toEqual({
      event: 'run.failed',
      runId: 'r123',
      task: 'Add login',
      repo: '/src/app',
      status: 'failed',
      step: 3,
      attempts: 4,
      maxAttempts: 4,
      costUsd: 0.42,
      message: n.body,
    });
    const ok = buildNotice({ ...run, status: 'succeeded', event: 'run.succeeded', stepsDone: 1, stepsTotal: 1, branch: 'b' });
    expect(WebhookPayload.parse(ok.webhook)).toMatchObject({ event: 'run.succeeded', step: null, attempts: null, maxAttempts: null });
  });
});
