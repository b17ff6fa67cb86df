// @vitest-environment jsdom
// The run screen's budget tells the truth: the budget that applies to the run (its workflow's, or a raised one), not the Settings value; figures keep their digits; a run paused for its budget offers "Raise budget and continue" first.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { PolicyDoc, StatusDocument } from '../../../shared/domain';
import type { FakeBridge } from '../../dev/fake-bridge';
import { RUN_IDS } from '../../dev/fixtures-runs';
import { installFake } from '../test-helpers';
import { RunScreen } from './RunScreen';

let fake: FakeBridge;
beforeEach(() => {
  fake = installFake();
});
afterEach(cleanup);

const policy = (taskUsd: number | null): PolicyDoc => ({
  maxRetries: 3,
  timeoutSeconds: 1800,
  allowRetryOn: null,
  backoff: { base_s: 2, max_s: 10, jitter: 0.1 },
  budget: { taskUsd, dailyUsd: null, alertAt: 0.8 },
  sources: { task_usd: 'workflow' },
  steps: [],
});

/** The fixture's paused run, as the engine now reports a run whose workflow set `budget.task_usd: 0.004` (Settings say $5.00). */
function budgetPaused(over: Partial<StatusDocument> = {}): StatusDocument {
  const r = fake.runs.get(RUN_IDS.paused)!;
  r.doc = {
    ...r.doc,
    status: 'paused',
    costUsd: 0.0059,
    policy: policy(0.004),
    reason: `task budget of $0.0040 reached ($0.0059 spent); nothing is lost: give the run more with ratchet resume ${RUN_IDS.paused} --budget <usd> (in the app: Raise budget and continue)`,
    ...over,
  };
  return r.doc;
}

describe('the run screen’s budget', () => {
  it('shows the budget that applies to the run, with enough digits, not the Settings one', async () => {
    budgetPaused();
    render(<RunScreen runId={RUN_IDS.paused} step={null} />);
    const meter = (await screen.findByRole('meter')).closest('.cost-meter') as HTMLElement;
    expect(meter.textContent).toContain('$0.0059');
    expect(meter.textContent).toContain('of $0.0040 task budget');
    expect(meter.textContent).not.toContain('$5.00');
    expect(within(meter).getByRole('meter').getAttribute('aria-valuenow')).toBe('148');
    expect(meter.className).toContain('cost-meter');
    expect(within(meter).getByRole('meter').className).toContain('meter-bad');
  });

  it('says a little spent against a large raised budget is "< 1 %", not 0 %', async () => {
    budgetPaused({ status: 'succeeded', reason: null, costUsd: 0.0132, policy: { ...policy(5), sources: { task_usd: 'raised' } } });
    render(<RunScreen runId={RUN_IDS.paused} step={null} />);
    const meter = (await screen.findByRole('meter')).closest('.cost-meter') as HTMLElement;
    expect(meter.textContent).toBe('$0.0132of $5.00 task budget< 1 %');
  });

  it('says "no budget" for a run without one, even when Settings has one', async () => {
    budgetPaused({ status: 'failed', reason: 'gave up', policy: policy(null) });
    render(<RunScreen runId={RUN_IDS.paused} step={null} />);
    expect(await screen.findByText('no budget')).toBeTruthy();
  });

  it('offers "Raise budget and continue" as the one primary action of a run paused for its budget; it raises, then continues', async () => {
    budgetPaused();
    render(<RunScreen runId={RUN_IDS.paused} step={null} />);
    const toolbar = await screen.findByRole('toolbar', { name: 'run actions' });
    const primaries = [...toolbar.querySelectorAll('button.primary')].map((b) => b.textContent);
    expect(primaries).toEqual(['Raise budget and continue']);
    fireEvent.click(within(toolbar).getByRole('button', { name: 'Raise budget and continue' }));
    expect(within(toolbar).getByText(/\$0\.0059 spent of \$0\.0040/)).toBeTruthy();
    const field = within(toolbar).getByLabelText(/New task budget/);
    fireEvent.change(field, { target: { value: '0.005' } });
    expect(within(toolbar).getByText('Give it more than $0.0059 (what it has spent).')).toBeTruthy();
    fireEvent.change(field, { target: { value: '0.25' } });
    fireEvent.click(within(toolbar).getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(fake.calls.map((c) => c.method)).toContain('runs.resume'));
    expect(fake.calls.find((c) => c.method === 'runs.raiseBudget')?.input).toEqual({ runId: RUN_IDS.paused, taskUsd: 0.25 });
  });

  it('says the pause once, in the app’s words, on an amber bar marking the next call, and suggests a budget that clears it (issue 34 item 4)', async () => {
    const reason = `task budget of $0.0040 reached ($0.0024 spent): the agent stopped before API call 3: it could cost up to $0.0030 and the budget leaves $0.0016, and a run never spends more than 10 % past its budget; nothing is lost: give the run more with ratchet resume ${RUN_IDS.paused} --budget <usd> (in the app: Raise budget and continue)`;
    budgetPaused({ costUsd: 0.0024, reason, reasonCode: 'task_budget' });
    render(<RunScreen runId={RUN_IDS.paused} step={null} />);
    const header = (await screen.findByRole('meter')).closest('header') as HTMLElement;
    const sentence = 'Paused before a call that could cost $0.0030; $0.0016 of the budget is left.';
    expect(within(header).getByText(sentence)).toBeTruthy();
    expect(header.textContent).not.toMatch(/ratchet resume|reached \(/);
    const meter = within(header).getByRole('meter');
    expect(meter.className).toContain('meter-attention');
    expect(within(meter).getByTestId('projected-mark')).toBeTruthy();
    fireEvent.click(within(header).getByRole('button', { name: 'Raise budget and continue' }));
    const amount = Number((within(header).getByRole('spinbutton') as HTMLInputElement).value);
    // The engine lets a run spend 10 % past its budget: the next call goes through when spent + next ≤ 1.1 × budget.
    expect(0.0024 + 0.003).toBeLessThanOrEqual(amount * 1.1);
    // Said once on the whole screen.
    await waitFor(() => expect(document.body.textContent!.split('could cost').length - 1).toBeLessThanOrEqual(1));
  });
});
