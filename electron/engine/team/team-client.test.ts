// How the team reads a run's status: the worker's row, with what DBOS says of its workflow over it.
import type { WorkflowStatus } from '@dbos-inc/dbos-sdk';
import { describe, expect, it } from 'vitest';
import type { TeamRunRow } from '../store/team-db';
import { itemOf } from './team-client';

const row = (status: string): TeamRunRow => ({
  id: 'r1',
  title: 't',
  remote: 'https://host/x.git',
  repo_name: 'x',
  branch: 'ratchet/t-r1',
  submitted_by: 'u@h',
  priority: 0,
  status,
  reason: status === 'failed' ? 'gate failed' : null,
  reason_code: status === 'failed' ? 'step_failed' : null,
  worker: 'w',
  cost_usd: 0,
  task_budget_usd: null,
  steps_done: 3,
  steps_total: 3,
  doc: null,
  created_at: new Date(0),
  updated_at: new Date(0),
});
const wf = (status: string) => ({ status }) as WorkflowStatus;

describe('itemOf', () => {
  it("shows a run its worker says ended as running until its workflow ends (the last step's push is still under way)", () => {
    expect(itemOf(row('succeeded'), wf('PENDING'))).toMatchObject({ status: 'running', reason: null, reasonCode: null });
    expect(itemOf(row('failed'), wf('PENDING')).status).toBe('running');
    expect(itemOf(row('succeeded'), wf('SUCCESS')).status).toBe('succeeded');
    expect(itemOf(row('failed'), wf('SUCCESS'))).toMatchObject({ status: 'failed', reason: 'gate failed', reasonCode: 'step_failed' });
  });

  it('shows the queue over the row (waiting) and a cancel over a run that had not ended', () => {
    expect(itemOf(row('running'), wf('ENQUEUED')).status).toBe('queued');
    expect(itemOf(row('running'), wf('CANCELLED')).status).toBe('cancelled');
    expect(itemOf(row('paused'), wf('PENDING')).status).toBe('running');
    expect(itemOf(row('waiting'), wf('PENDING')).status).toBe('waiting');
  });

  it("says why a run is on the queue from DBOS's word alone (Stop, Resume, Retry and a takeover write no status)", () => {
    expect(itemOf(row('queued'), wf('ENQUEUED'))).toMatchObject({
      status: 'queued',
      reasonCode: 'waiting_for_slot',
      reason: 'Waiting in the team queue for a free worker.',
    });
    expect(itemOf(row('cancelled'), wf('ENQUEUED'))).toMatchObject({ status: 'queued', reasonCode: 'waiting_for_slot' });
    expect(itemOf(row('failed'), wf('ENQUEUED'))).toMatchObject({ status: 'queued', reason: 'Back in the team queue; it goes on from its last checkpoint.' });
    expect(itemOf(row('running'), wf('ENQUEUED'))).toMatchObject({
      status: 'queued',
      reasonCode: 'process_lost',
      reason: 'The worker running it (w) stopped; it waits for another worker and goes on from its last checkpoint.',
    });
    expect(itemOf(row('queued'), wf('CANCELLED'))).toMatchObject({ status: 'cancelled', reasonCode: 'removed_from_queue' });
    expect(itemOf(row('running'), wf('CANCELLED'))).toMatchObject({ status: 'cancelled', reasonCode: 'stopped_by_user' });
    expect(itemOf(row('queued'), wf('PENDING'))).toMatchObject({ status: 'running', reasonCode: null });
  });

  it("shows a wait inside a durable step (a backoff, the API key's hold) from the step's own status document", () => {
    const r = { ...row('running'), doc: { status: 'waiting', reason: 'rate-limited', reasonCode: 'api_rate_limited' } as unknown as TeamRunRow['doc'] };
    expect(itemOf(r, wf('PENDING'))).toMatchObject({ status: 'waiting', reason: 'rate-limited', reasonCode: 'api_rate_limited' });
    expect(itemOf(r, wf('CANCELLED')).status).toBe('cancelled');
    expect(itemOf({ ...r, status: 'succeeded' }, wf('SUCCESS')).status).toBe('succeeded');
  });
});
