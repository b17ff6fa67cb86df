// A team run's life between durable steps: what the workflow does after each step's outcome, and what the team sees.
import { describe, expect, it } from 'vitest';
import type { RunReasonCode, RunStatus } from '../../../shared/domain';
import { nextMove, teamStatusOf, type StepAnswer } from './team-run-life';

const a = (status: RunStatus, code: RunReasonCode | null = null, wakeAt: string | null = null): StepAnswer => ({
  status,
  code,
  reason: code ? `why: ${code}` : null,
  wakeAt,
  stepsDone: 1,
  stepsTotal: 3,
});

describe('team run life', () => {
  it('goes on after a step done by design, sleeps until a parked retry wakes, and ends otherwise', () => {
    expect(nextMove(a('planning'))).toEqual({ kind: 'step' });
    expect(nextMove(a('interrupted', 'process_lost'))).toEqual({ kind: 'step' });
    expect(nextMove(a('paused', 'auto_progress_step'))).toEqual({ kind: 'step' });
    expect(nextMove(a('waiting', 'retry_parked', '2026-12-07T12:00:00.000Z'))).toEqual({ kind: 'sleep', until: '2026-12-07T12:00:00.000Z' });
    for (const end of [
      a('paused', 'step_needs_you'),
      a('paused', 'task_budget'),
      a('waiting_approval'),
      a('succeeded'),
      a('failed', 'step_failed'),
      a('cancelled'),
    ])
      expect(nextMove(end)).toEqual({ kind: 'end' });
  });

  it('shows the team a run between two steps as running, and an end as the run machine worded it', () => {
    expect(teamStatusOf(a('paused', 'auto_progress_step'))).toEqual({ status: 'running', reason: null, reason_code: null });
    expect(teamStatusOf(a('planning'))).toEqual({ status: 'running', reason: null, reason_code: null });
    expect(teamStatusOf(a('failed', 'internal_error'))).toEqual({ status: 'failed', reason: 'why: internal_error', reason_code: 'internal_error' });
    expect(teamStatusOf(a('paused', 'task_budget'))).toEqual({ status: 'paused', reason: 'why: task_budget', reason_code: 'task_budget' });
  });
});
