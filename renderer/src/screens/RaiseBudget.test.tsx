// @vitest-environment jsdom
// "Raise budget and continue": shown only on a run paused for its task budget; raises it, then resumes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { StatusDocument } from '../../../shared/domain';
import type { FakeBridge } from '../../dev/fake-bridge';
import { installFake } from '../test-helpers';
import { RaiseBudget } from './RaiseBudget';

let fake: FakeBridge;
beforeEach(() => {
  fake = installFake();
});
afterEach(cleanup);

const doc = (over: Partial<StatusDocument>): StatusDocument => ({
  id: 'r-1',
  status: 'paused',
  reason: 'task budget of $1.00 reached ($1.02 spent); nothing is lost',
  reasonCode: 'task_budget',
  repo: '/r',
  branch: 'ratchet/x',
  worktree: '/w',
  baseCommit: 'abc',
  costUsd: 1.02,
  steps: [],
  resumes: [],
  ...over,
});

describe('RaiseBudget', () => {
  it('raises the budget, then resumes the run', async () => {
    render(<RaiseBudget runId="r-1" doc={doc({})} />);
    fireEvent.click(screen.getByRole('button', { name: 'Raise budget and continue' }));
    const input = screen.getByLabelText(/New task budget/);
    fireEvent.change(input, { target: { value: '0.5' } });
    expect((screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(/Give it more than \$1\.02/)).toBeTruthy();
    fireEvent.change(input, { target: { value: '5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(fake.calls.map((c) => c.method)).toContain('runs.resume'));
    const methods = fake.calls.map((c) => c.method).filter((m) => m === 'runs.raiseBudget' || m === 'runs.resume');
    expect(methods).toEqual(['runs.raiseBudget', 'runs.resume']);
    expect(fake.calls.find((c) => c.method === 'runs.raiseBudget')?.input).toEqual({ runId: 'r-1', taskUsd: 5 });
  });

  it('is not offered for a run paused for another reason, or not paused', () => {
    render(
      <>
        <RaiseBudget runId="r-2" doc={doc({ reason: 'Paused after one step (auto-progress: step)', reasonCode: 'auto_progress_step' })} />
        <RaiseBudget runId="r-3" doc={doc({ status: 'failed' })} />
      </>,
    );
    expect(screen.queryByRole('button', { name: 'Raise budget and continue' })).toBeNull();
  });

  it('decides by the reason code, not the reason’s words: reworded, the same run gets the same button', () => {
    render(<RaiseBudget runId="r-4" doc={doc({ reason: 'Plafond de la tâche atteint : rien n’est perdu.' })} />);
    expect(screen.getByRole('button', { name: 'Raise budget and continue' })).toBeTruthy();
    cleanup();
    // The budget's words in a run the code says paused for something else: no button.
    render(<RaiseBudget runId="r-5" doc={doc({ reasonCode: 'auto_progress_step' })} />);
    expect(screen.queryByRole('button', { name: 'Raise budget and continue' })).toBeNull();
  });
});
