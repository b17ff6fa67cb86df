// @vitest-environment jsdom
// Tests for the what-if panel: the choice sent through the contract, a bad field named, the changed runs and the assumptions shown.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { WhatIfDoc } from '../../../shared/contract';
import { installFake } from '../test-helpers';
import { toWhatIfChoice, WhatIfPanel } from './WhatIfPanel';

afterEach(cleanup);

const RESULT: WhatIfDoc = {
  policy: { limits: { test_failure: 1 }, taskUsd: null },
  runs: 3,
  actual: { succeeded: 3, failed: 0, needsYou: 0, budget: 0, unknown: 0, costUsd: 3.35 },
  simulated: { succeeded: 1, failed: 2, needsYou: 0, budget: 0, unknown: 0, costUsd: 2.25 },
  changed: [
    {
      runId: 'r1',
      title: 'Add login',
      actual: 'succeeded',
      simulated: 'failed',
      actualCostUsd: 3,
      simulatedCostUsd: 2,
      reason: 'step 1 "Tests" fails after attempt 2: 1 test failure retry used up',
    },
  ],
  changedCount: 1,
  assumptions: ['Each recorded attempt is replayed as it happened: an attempt that did not happen is unknown, never guessed.'],
};

describe('WhatIfPanel', () => {
  it('sends the chosen policy for the period and shows the totals, the runs that change and the assumptions', async () => {
    const fake = installFake({ overrides: { 'stats.whatIf': () => RESULT } as never });
    render(<WhatIfPanel days={30} />);
    fireEvent.change(screen.getByLabelText('Max retries'), { target: { value: '1' } });
    fireEvent.change(screen.getByLabelText('Budget per run ($)'), { target: { value: '0.75' } });
    fireEvent.click(screen.getByRole('button', { name: 'Replay' }));
    expect(await screen.findByText('1 run changes outcome')).toBeTruthy();
    expect(fake.calls.find((c) => c.method === 'stats.whatIf')?.input).toEqual({ days: 30, preset: 'minimal', maxRetries: 1, taskUsd: 0.75 });
    expect(screen.getByRole('link', { name: 'Add login' }).getAttribute('href')).toBe('#/runs/r1');
    expect(screen.getByText(/fails after attempt 2/)).toBeTruthy();
    expect(screen.getByText(/never guessed/)).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Outcomes as recorded and under the chosen policy' });
    expect(table.textContent).toContain('failed02');
  });

  it('counts every run that changes and says the list holds the most expensive of them', async () => {
    installFake({ overrides: { 'stats.whatIf': () => ({ ...RESULT, changedCount: 1234 }) } as never });
    render(<WhatIfPanel days={30} />);
    fireEvent.click(screen.getByRole('button', { name: 'Replay' }));
    expect(await screen.findByText('1,234 runs change outcome; the most expensive 1 of them:')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Add login' })).toBeTruthy();
  });

  it('names the field that is wrong and does not send', () => {
    expect(toWhatIfChoice({ preset: '', maxRetries: '2.5', compile: '', taskUsd: '' })).toMatchObject({ ok: false, field: 'Max retries' });
    expect(toWhatIfChoice({ preset: '', maxRetries: '', compile: '', taskUsd: '-1' })).toMatchObject({ ok: false, field: 'Budget per run' });
    expect(toWhatIfChoice({ preset: 'aggressive', maxRetries: '', compile: '4', taskUsd: '' })).toEqual({
      ok: true,
      value: { preset: 'aggressive', limits: { compilation_error: 4 } },
    });
    installFake();
    render(<WhatIfPanel days={7} />);
    fireEvent.change(screen.getByLabelText('Max retries'), { target: { value: 'many' } });
    expect(screen.getByRole('alert').textContent).toBe('Max retries: a whole number from 0 to 20.');
    expect((screen.getByRole('button', { name: 'Replay' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
