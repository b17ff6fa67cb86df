// @vitest-environment jsdom
// The run's actions for an agent-drafted plan waiting for approval: review it, edit it, approve it (runs.approve starts the run).
// The stylesheet's text through Vite's `?raw` import (a plain CSS import is an empty module under vitest): no Node in the renderer.
import css from '../styles.css?raw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { FakeBridge } from '../../dev/fake-bridge';
import { RUN_IDS } from '../../dev/fixtures-runs';
import { useUi } from '../stores/ui';
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

describe('RunActions by the run state (issue 13 item 4)', () => {
  const noneDone = (status: 'failed' | 'cancelled') => {
    const doc = fake.runs.get(RUN_IDS.failed)!.doc;
    return { ...doc, status, steps: doc.steps.map((s) => ({ ...s, status: s.index === 1 ? ('failed' as const) : ('pending' as const), commit: null })) };
  };

  it('a run with no completed step offers Start again as the primary action and no Retry; Start again opens the new run', async () => {
    const doc = noneDone('failed');
    render(<RunActions runId={doc.id} doc={doc} selectedStep={null} />);
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    const again = screen.getByRole('button', { name: /Start again/ });
    expect(again.className).toContain('primary');
    expect(screen.getByRole('button', { name: 'Resume…' }).className).not.toContain('primary');
    fireEvent.click(again);
    // A new run spends money from its first step: it asks first.
    expect(await screen.findByText(/new run of the same task/)).toBeTruthy();
    expect(fake.calls.some((c) => c.method === 'runs.restart')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Keep this run' }));
    expect(screen.queryByText(/new run of the same task/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /Start again/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Start a new run' }));
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'runs.restart')).toBe(true));
    expect((fake.calls.find((c) => c.method === 'runs.restart')!.input as { runId: string }).runId).toBe(doc.id);
    await waitFor(() => expect(location.hash).toMatch(/^#\/runs\/r-new\d+/));
  });

  it('the buttons the reason asks for stand out by its reason code, not its words (issue 21)', () => {
    // Reworded, with no command in it: the code still says the step failed, so Revise plan stands out.
    const doc = { ...noneDone('failed'), reason: 'L’étape 1 a échoué.', reasonCode: 'step_failed' as const };
    render(<RunActions runId={doc.id} doc={doc} selectedStep={null} />);
    expect(screen.getByRole('button', { name: 'Revise plan…' }).className).toContain('suggested');
    cleanup();
    // A command in the words of a reason whose code asks for nothing: nothing stands out.
    const other = { ...noneDone('failed'), reason: 'Internal error. See `ratchet plan r --edit plan.yml`.', reasonCode: 'internal_error' as const };
    render(<RunActions runId={other.id} doc={other} selectedStep={null} />);
    expect(screen.getByRole('button', { name: 'Revise plan…' }).className ?? '').not.toContain('suggested');
  });

  it('a run stopped before step 1 began offers neither Resume… nor Skip step 1, only Start again and Revise (issue 34 item 10)', () => {
    const doc = fake.runs.get(RUN_IDS.failed)!.doc;
    const never = { ...doc, status: 'cancelled' as const, steps: doc.steps.map((s) => ({ ...s, status: 'pending' as const, commit: null, attempts: [] })) };
    render(<RunActions runId={doc.id} doc={never} selectedStep={never.steps[0]!} />);
    expect(screen.queryByRole('button', { name: /^Resume/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Skip step/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Start again' })).toBeTruthy();
  });

  it('a failed run with a committed step offers Retry as the primary action', () => {
    const doc = fake.runs.get(RUN_IDS.failed)!.doc;
    const withDone = {
      ...doc,
      steps: doc.steps.map((s) => (s.index === 1 ? { ...s, status: 'succeeded' as const, commit: 'abc1234' } : { ...s, status: 'pending' as const })),
    };
    render(<RunActions runId={doc.id} doc={withDone} selectedStep={null} />);
    expect(screen.getByRole('button', { name: 'Retry' }).className).toContain('primary');
    expect(screen.getAllByRole('button').filter((b) => b.className.split(' ').includes('primary'))).toHaveLength(1);
  });

  it('Revise plan while disconnected says so at once instead of spinning', async () => {
    useUi.setState({ connection: { state: 'closed', retryAt: Date.now() + 5000, attempts: 1 } });
    try {
      const doc = noneDone('cancelled');
      render(<RunActions runId={doc.id} doc={doc} selectedStep={null} />);
      fireEvent.click(screen.getByRole('button', { name: 'Revise plan…' }));
      expect(await screen.findByText(/Not connected to Ratchet — reconnecting/)).toBeTruthy();
      expect(screen.queryByText('Loading the plan…')).toBeNull();
      // Back online: the plan loads.
      act(() => useUi.setState({ connection: { state: 'open', retryAt: null, attempts: 0 } }));
      expect(await screen.findByLabelText('step 1 title')).toBeTruthy();
    } finally {
      useUi.setState({ connection: { state: 'open', retryAt: null, attempts: 0 } });
    }
  });

  it('after saving a revised plan of a failed run, offers Retry right there (issue 20 item 22)', async () => {
    const doc = fake.runs.get(RUN_IDS.failed)!.doc;
    const withDone = {
      ...doc,
      steps: doc.steps.map((s) =>
        s.index === 1
          ? { ...s, status: 'succeeded' as const, commit: 'abc1234' }
          : { ...s, status: s.index === 2 ? ('failed' as const) : ('pending' as const) },
      ),
    };
    render(<RunActions runId={doc.id} doc={withDone} selectedStep={null} />);
    fireEvent.click(screen.getByRole('button', { name: 'Revise plan…' }));
    fireEvent.change(await screen.findByLabelText('step 2 title'), { target: { value: 'Wrap fetch() in the limiter, one call at a time' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save revision' }));
    const dialog = await screen.findByRole('dialog');
    const retry = await within(dialog).findByRole('button', { name: 'Retry with this plan' });
    expect(within(dialog).getByRole('button', { name: 'Done' })).toBeTruthy();
    fireEvent.click(retry);
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'runs.retry')).toBe(true));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('RunActions read as they mean (issue 34 items 3 and 6)', () => {
  const failedNoneDone = () => {
    const doc = fake.runs.get(RUN_IDS.failed)!.doc;
    return {
      ...doc,
      reasonCode: 'step_failed' as const,
      steps: doc.steps.map((s) => ({ ...s, status: s.index === 1 ? ('failed' as const) : ('pending' as const), commit: null })),
    };
  };

  it('says "Suggested" on the action the reason asks for, in a style that is not the focus ring', () => {
    const doc = failedNoneDone();
    render(<RunActions runId={doc.id} doc={doc} selectedStep={null} />);
    const revise = screen.getByRole('button', { name: 'Revise plan…' });
    expect(revise.textContent).toContain('Suggested');
    // The focus ring is an accent outline; the suggested style uses neither an outline nor a ring-like shadow.
    const rules = [...css.matchAll(/([^{}]*\.suggested[^{}]*)\{([^}]*)\}/g)].map((m) => m[2]!);
    expect(rules.length).toBeGreaterThan(0);
    for (const body of rules) expect(body).not.toMatch(/box-shadow|outline/);
  });

  it('puts each confirmation on its own row under the buttons, neutral unless it throws work away', () => {
    const doc = failedNoneDone();
    const step = doc.steps[0]!;
    render(<RunActions runId={doc.id} doc={doc} selectedStep={step} />);
    const toolbar = screen.getByRole('toolbar', { name: 'run actions' });
    fireEvent.click(screen.getByRole('button', { name: /Start again/ }));
    const confirm = screen.getByRole('group', { name: 'confirm start again' });
    // The button stays where it was; the question is a row of its own, not in the row of buttons.
    expect(screen.getByRole('button', { name: /Start again/ }).getAttribute('aria-expanded')).toBe('true');
    expect(confirm.tagName).toBe('DIV');
    expect(confirm.classList.contains('confirm-destructive')).toBe(false);
    expect(
      toolbar.lastElementChild === confirm ||
        confirm.compareDocumentPosition(screen.getByRole('button', { name: /Skip step 1/ })) & Node.DOCUMENT_POSITION_PRECEDING,
    ).toBeTruthy();
  });

  it('closes a dialog on Escape wherever focus is, "Revision 2 saved" too', async () => {
    const doc = fake.runs.get(RUN_IDS.failed)!.doc;
    const withDone = {
      ...doc,
      steps: doc.steps.map((s) => (s.index === 1 ? { ...s, status: 'succeeded' as const, commit: 'abc1234' } : { ...s, status: 'pending' as const })),
    };
    render(<RunActions runId={doc.id} doc={withDone} selectedStep={null} />);
    fireEvent.click(screen.getByRole('button', { name: 'Revise plan…' }));
    fireEvent.change(await screen.findByLabelText('step 2 title'), { target: { value: 'Wrap fetch() in the limiter' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save revision' }));
    await screen.findByText(/Revision \d+ saved/);
    // The Save button went away with the answer: focus is on the page.
    act(() => (document.activeElement as HTMLElement | null)?.blur());
    fireEvent.keyDown(document.body, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
