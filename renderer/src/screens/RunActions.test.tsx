// @vitest-environment jsdom
// The run's actions for an agent-drafted plan waiting for approval: review it, edit it, approve it (runs.approve starts the run).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { FakeBridge } from '../../dev/fake-bridge';
import { RUN_IDS } from '../../dev/fixtures-runs';
import { installFake } from '../test-helpers';
import { RunActions } from './RunActions';

let fake: FakeBridge;
beforeEach(() => {
  fake = installFake();
});
afterEach(cleanup);

describe('RunActions on a drafted plan waiting for approval', () => {
  it('offers the review as the one primary action, and approves the plan as edited', async () => {
    const doc = fake.runs.get(RUN_IDS.approval)!.doc;
    expect(doc.status).toBe('waiting_approval');
    render(<RunActions runId={doc.id} doc={doc} selectedStep={null} />);
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Revise plan…' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Review and approve the plan…' }));
    expect(await screen.findByText(/The agent drafted these steps; nothing has run yet/)).toBeTruthy();
    const title = await screen.findByLabelText('step 1 title');
    fireEvent.change(title, { target: { value: 'CSV writer with RFC 4180 escaping' } });
    fireEvent.click(screen.getByRole('button', { name: 'Approve and start' }));
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'runs.approve')).toBe(true));
    const call = fake.calls.find((c) => c.method === 'runs.approve')!.input as { runId: string; steps: Array<{ title: string }> };
    expect(call.runId).toBe(doc.id);
    expect(call.steps.map((s) => s.title)).toEqual(['CSV writer with RFC 4180 escaping', 'Export button']);
    await waitFor(() => expect(screen.queryByText('Approve the drafted plan')).toBeNull());
  });
});
