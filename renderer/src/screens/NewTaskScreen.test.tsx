// @vitest-environment jsdom
// Tests for New task: a drafted plan must be approved before it runs; the workflow file runs as is unless edited; start goes to the run.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { FakeBridge } from '../../dev/fake-bridge';
import { GO_REPO } from '../../dev/fixtures-misc';
import { REPO } from '../../dev/fixtures-runs';
import { WORKFLOW } from '../../dev/fixtures-misc';
import { installFake } from '../test-helpers';
import { NewTaskScreen } from './NewTaskScreen';

let fake: FakeBridge;
beforeEach(() => {
  fake = installFake();
});
afterEach(() => {
  cleanup();
  location.hash = '';
});

const startInput = () => fake.calls.find((c) => c.method === 'runs.start')?.input as Record<string, unknown> | undefined;

describe('NewTaskScreen', () => {
  it('runs a drafted plan only once it is approved, with the approved steps', async () => {
    render(<NewTaskScreen repoPath={GO_REPO} />);
    fireEvent.change(await screen.findByLabelText('Title'), { target: { value: 'Versioned saves' } });
    fireEvent.click(screen.getByRole('tab', { name: 'Drafted by the agent' }));
    fireEvent.click(screen.getByRole('button', { name: 'Draft a plan' }));
    await screen.findByLabelText(/Drafted plan/);
    const start = screen.getByRole('button', { name: 'Start run' }) as HTMLButtonElement;
    expect(start.disabled).toBe(true);
    expect(screen.getByText(/Needs approving the drafted plan/)).toBeTruthy();
    fireEvent.click(screen.getByLabelText(/approve these steps/));
    expect(start.disabled).toBe(false);
    fireEvent.click(start);
    await waitFor(() => expect(location.hash).toMatch(/^#\/runs\/r-new1$/));
    expect(startInput()).toMatchObject({
      repo: GO_REPO,
      title: 'Versioned saves',
      steps: [{ title: 'Read the current save format' }, { title: 'Add a versioned save schema' }, { title: 'Write saves atomically' }],
    });
  });

  it('lists each step of a drafted plan with its share of the estimate (p50/p90 cost and time), from runs.estimate', async () => {
    render(<NewTaskScreen repoPath={GO_REPO} />);
    fireEvent.change(await screen.findByLabelText('Title'), { target: { value: 'Versioned saves' } });
    fireEvent.click(screen.getByRole('tab', { name: 'Drafted by the agent' }));
    fireEvent.click(screen.getByRole('button', { name: 'Draft a plan' }));
    await screen.findByLabelText(/Drafted plan/);
    // The fake's history shares $0.40 / $1.10 and 6.2 / 13.8 min alike over the three drafted steps.
    const first = await screen.findByRole('note', { name: 'step 1 estimate' });
    expect(first.textContent).toBe('about $0.13, up to $0.37 · 2–5 min');
    expect(screen.getByRole('note', { name: 'step 3 estimate' }).textContent).toBe('about $0.13, up to $0.37 · 2–5 min');
    const asked = fake.calls.filter((c) => c.method === 'runs.estimate').at(-1)?.input as { steps: unknown[] };
    expect(asked.steps).toHaveLength(3);
    // A step removed: the shares follow the plan the estimate was asked for (two steps, $0.20 each).
    fireEvent.click(screen.getByRole('button', { name: 'remove step 3' }));
    await waitFor(() => expect(screen.getByRole('note', { name: 'step 1 estimate' }).textContent).toBe('about $0.20, up to $0.55 · 3–7 min'));
    expect(screen.queryByRole('note', { name: 'step 3 estimate' })).toBeNull();
    // The run's own line stays under the plan.
    expect((await screen.findByRole('region', { name: 'estimate' })).textContent).toContain('about $0.40, up to $1.10');
  });

  it('runs the repository’s workflow file as it is when untouched', async () => {
    render(<NewTaskScreen repoPath={REPO} />);
    fireEvent.change(await screen.findByLabelText('Title'), { target: { value: 'Health' } });
    fireEvent.click(screen.getByRole('tab', { name: /workflow/ }));
    await screen.findByDisplayValue('Add heal() capped at max health');
    // The fixture's file is not trusted yet: its commands are listed and Start waits for the Trust answer.
    expect(screen.getByRole('region', { name: 'workflow trust' }).textContent).toContain('npm run build');
    // Not only commands: a secret-looking variable the file passes to the sandbox is listed, with its warning.
    expect(screen.getByRole('region', { name: 'workflow trust' }).textContent).toContain('NPM_TOKEN');
    expect(screen.getByRole('region', { name: 'workflow trust' }).textContent).toContain('looks like a secret');
    expect((screen.getByRole('button', { name: 'Start run' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Trust' }));
    fireEvent.click(screen.getByRole('button', { name: 'Start run' }));
    await waitFor(() => expect(startInput()).toBeDefined());
    // Trust is given to the content shown: the hash workflow.load gave goes with it.
    expect(startInput()).toEqual({
      repo: REPO,
      title: 'Health',
      description: '',
      workflowFile: `${REPO}/ratchet.yml`,
      trust: true,
      trustSha256: WORKFLOW.trust!.sha256,
    });
  });

  it('shows a trusted workflow file as trusted, with Revoke trust through the contract; it then asks again', async () => {
    await fake.bridge.invoke('runs.start', { repo: REPO, title: 'Earlier', description: '', workflowFile: `${REPO}/ratchet.yml`, trust: true });
    render(<NewTaskScreen repoPath={REPO} />);
    fireEvent.change(await screen.findByLabelText('Title'), { target: { value: 'Health' } });
    fireEvent.click(screen.getByRole('tab', { name: /workflow/ }));
    await screen.findByDisplayValue('Add heal() capped at max health');
    expect(screen.getByRole('region', { name: 'workflow trust' }).textContent).toContain('You trust this workflow file');
    // Trusted: no longer "new, or changed" (issue 34 item 8).
    expect(screen.getByRole('region', { name: 'workflow trust' }).textContent).not.toContain('new, or changed');
    expect((screen.getByRole('button', { name: 'Start run' }) as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Revoke trust' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Trust' })).toBeTruthy());
    expect(fake.calls.find((c) => c.method === 'trust.revoke')?.input).toEqual({ repo: REPO });
    expect((screen.getByRole('button', { name: 'Start run' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('runs the user’s steps with the workflow file’s settings once the steps are edited (the file still needs trust)', async () => {
    render(<NewTaskScreen repoPath={REPO} />);
    fireEvent.change(await screen.findByLabelText('Title'), { target: { value: 'Health' } });
    await screen.findByDisplayValue('Add heal() capped at max health');
    fireEvent.change(screen.getByLabelText('step 3 title'), { target: { value: 'Emit died once' } });
    expect((screen.getByRole('button', { name: 'Start run' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Trust' }));
    // Just trusted: the box no longer calls the file "new, or changed" (issue 34 item 8).
    const box = screen.getByRole('region', { name: 'workflow trust' }).textContent;
    expect(box).toContain('as you trusted it');
    expect(box).not.toContain('new, or changed');
    fireEvent.click(screen.getByRole('button', { name: 'Start run' }));
    await waitFor(() => expect(startInput()).toBeDefined());
    expect(startInput()).toMatchObject({ workflowFile: `${REPO}/ratchet.yml`, trust: true });
    expect((startInput()!.steps as Array<{ title: string }>).map((s) => s.title)[2]).toBe('Emit died once');
    expect(startInput()!.gates).toBeUndefined();
  });

  it('runs the user’s version of setup and gates once they are edited: no workflow file, no trust asked', async () => {
    render(<NewTaskScreen repoPath={REPO} />);
    fireEvent.change(await screen.findByLabelText('Title'), { target: { value: 'Health' } });
    await screen.findByDisplayValue('npm run build');
    fireEvent.change(screen.getByLabelText('gate 2 command'), { target: { value: 'npm run build -- --strict' } });
    expect(screen.getByLabelText('where the project settings come from').textContent).toMatch(/You changed what .*ratchet.yml says/);
    expect(screen.queryByRole('region', { name: 'workflow trust' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Start run' }));
    await waitFor(() => expect(startInput()).toBeDefined());
    expect(startInput()!.workflowFile).toBeUndefined();
    expect(startInput()).toMatchObject({
      gates: { test: 'npm test', build: 'npm run build -- --strict' },
      setup: { run: ['npm ci'], network: ['registry:npm'] },
    });
    expect((startInput()!.steps as unknown[]).length).toBe(3);
  });

  it('sets this task’s retry configuration: max retries, agent timeout, the classes to retry on', async () => {
    render(<NewTaskScreen repoPath={GO_REPO} />);
    fireEvent.change(await screen.findByLabelText('Title'), { target: { value: 'Health' } });
    fireEvent.change(screen.getByLabelText('step 1 title'), { target: { value: 'Add health' } });
    fireEvent.change(screen.getByLabelText('Max retries'), { target: { value: '1.5' } });
    expect(screen.getByText(/Needs max retries as a whole number/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Max retries'), { target: { value: '5' } });
    fireEvent.change(screen.getByLabelText(/Agent timeout/), { target: { value: '600' } });
    fireEvent.click(screen.getByLabelText('test_failure'));
    fireEvent.click(screen.getByLabelText('compilation_error'));
    fireEvent.click(screen.getByRole('button', { name: 'Start run' }));
    await waitFor(() => expect(startInput()).toBeDefined());
    expect(startInput()!.retry).toEqual({ maxRetries: 5, timeoutSeconds: 600, allowRetryOn: ['test_failure', 'compilation_error'] });
  });

  it('takes any decimal budget (0.004), and says at the field why zero is refused', async () => {
    render(<NewTaskScreen repoPath={GO_REPO} />);
    fireEvent.change(await screen.findByLabelText('Title'), { target: { value: 'Health' } });
    fireEvent.change(screen.getByLabelText('step 1 title'), { target: { value: 'Add health' } });
    const budget = screen.getByLabelText('Budget (USD)');
    fireEvent.change(budget, { target: { value: '0' } });
    expect(document.getElementById(budget.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'The budget must be more than $0 (leave it empty for the workflow’s or Settings’ budget).',
    );
    fireEvent.change(budget, { target: { value: '0.004' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start run' }));
    await waitFor(() => expect(startInput()).toBeDefined());
    expect(startInput()!.budgetUsd).toBe(0.004);
  });

  it('shows the estimate under the plan, warns when the budget is below its p90 and sets the budget there', async () => {
    render(<NewTaskScreen repoPath={GO_REPO} />);
    fireEvent.change(await screen.findByLabelText('Title'), { target: { value: 'Health' } });
    fireEvent.change(screen.getByLabelText('step 1 title'), { target: { value: 'Add health' } });
    const panel = await screen.findByRole('region', { name: 'estimate' });
    expect(panel.textContent).toContain('Estimate: about $0.40, up to $1.10 · 6–14 min · from 23 runs like this one');
    const asked = fake.calls.filter((c) => c.method === 'runs.estimate').at(-1)?.input as Record<string, unknown>;
    expect(asked).toMatchObject({ repo: GO_REPO, title: 'Health', steps: [{ title: 'Add health' }] });
    expect(screen.queryByRole('group', { name: 'budget below estimate' })).toBeNull();
    const budget = screen.getByLabelText('Budget (USD)') as HTMLInputElement;
    fireEvent.change(budget, { target: { value: '0.5' } });
    const warning = await screen.findByRole('group', { name: 'budget below estimate' });
    expect(warning.textContent).toContain('The task budget ($0.50) is below what 9 runs in 10 like this one cost ($1.10)');
    fireEvent.click(within(warning).getByRole('button', { name: 'Set it to $1.10' }));
    expect(budget.value).toBe('1.1');
    await waitFor(() => expect(screen.queryByRole('group', { name: 'budget below estimate' })).toBeNull());
  });

  it('explains why a folder cannot be used', async () => {
    render(<NewTaskScreen repoPath="/tmp/not-a-repo" />);
    expect(await screen.findByText(/is not a git repository/)).toBeTruthy();
  });

  it('never starts a paid run from Enter in a field: only the Start run button starts one (issue 20 item 19)', async () => {
    render(<NewTaskScreen repoPath={REPO} />);
    const title = await screen.findByLabelText('Title');
    fireEvent.change(title, { target: { value: 'Health' } });
    fireEvent.click(screen.getByRole('tab', { name: /workflow/ }));
    await screen.findByDisplayValue('Add heal() capped at max health');
    fireEvent.click(screen.getByRole('button', { name: 'Trust' }));
    const start = screen.getByRole('button', { name: 'Start run' }) as HTMLButtonElement;
    expect(start.disabled).toBe(false);
    // What Enter in the title does in a browser: the form's implicit submission.
    fireEvent.keyDown(title, { key: 'Enter' });
    fireEvent.submit(title.closest('form')!);
    expect(startInput()).toBeUndefined();
    // The title changes after the Enter: a run started from the Enter would carry the old title, and come first.
    fireEvent.change(title, { target: { value: 'Health, by the button' } });
    fireEvent.click(start);
    // Its run has started and is open: only then is "no other start" checked.
    await waitFor(() => expect(location.hash).toMatch(/^#\/runs\//));
    expect(fake.calls.filter((c) => c.method === 'runs.start').map((c) => (c.input as { title: string }).title)).toEqual(['Health, by the button']);
  });

  it('offers the recent repositories when none is chosen yet (issue 20 item 23)', async () => {
    render(<NewTaskScreen repoPath={null} />);
    const recent = await screen.findByRole('list', { name: 'recent repositories' });
    const first = within(recent).getAllByRole('button')[0]!;
    fireEvent.click(first);
    await waitFor(() => expect(location.hash).toMatch(/^#\/new\?repo=%2F/));
  });
});
