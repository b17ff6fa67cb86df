// @vitest-environment jsdom
// Tests for Home: runs with their badges, the interrupted banner, and opening a repository by drop (with or without pathForFile).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { RunSummary } from '../../../shared/contract';
import { installFake, NOW } from '../test-helpers';
import { useRuns } from '../stores/runs';
import { useUi } from '../stores/ui';
import { HomeScreen } from './HomeScreen';

// Only the clock is fake: the fixtures' wake time is NOW + 95 s, and promises still run.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  vi.useRealTimers();
  cleanup();
  location.hash = '';
});

async function renderHome() {
  render(<HomeScreen />);
  await Promise.all([useRuns.getState().load(), useRuns.getState().loadInterrupted()]);
}

describe('HomeScreen', () => {
  it('lists runs with status badges, steps and cost, and offers to resume the interrupted one', async () => {
    installFake();
    await renderHome();
    const rows = await screen.findAllByRole('row');
    const waiting = rows.find((r) => r.textContent?.includes('Rate limiter'))!;
    expect(within(waiting).getByText(/^waiting/).textContent).toBe('waiting in 1:35');
    expect(within(waiting).getByText('1/3')).toBeTruthy();
    expect(rows.some((r) => r.textContent?.includes('needs approval'))).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Review and resume…' }));
    expect(useUi.getState().resumeRunId).toBe('r-4d2e88');
  });

  it('offers a run paused between steps at start-up too, saying it is paused rather than interrupted', async () => {
    // The engine offers what the store's awaitingResume() gives: here the fixtures' paused run, paused by the user's "no".
    const pausedRun = () => [...fake.runs.values()].find((r) => r.summary.status === 'paused')!;
    const fake = installFake({ overrides: { 'runs.interrupted': () => [{ ...pausedRun().summary, reasonCode: 'paused_by_user' }] } });
    const paused = pausedRun();
    await renderHome();
    const banner = await screen.findByRole('status');
    expect(banner.textContent).toContain(`The run ${paused.summary.title} is paused between steps.`);
    fireEvent.click(within(banner).getByRole('button', { name: 'Review and resume…' }));
    expect(useUi.getState().resumeRunId).toBe(paused.summary.id);
  });

  it('opens a dropped folder through pathForFile and goes to New task', async () => {
    installFake({ pathForFile: () => '/home/dev/code/space-game' });
    await renderHome();
    const file = new File([''], 'space-game');
    fireEvent.drop(screen.getByRole('region', { name: 'open a repository' }), { dataTransfer: { files: [file] } });
    await waitFor(() => expect(location.hash).toBe('#/new?repo=%2Fhome%2Fdev%2Fcode%2Fspace-game'));
  });

  it('asks for the path when the browser cannot give one, and shows why a folder is refused', async () => {
    installFake();
    await renderHome();
    fireEvent.drop(screen.getByRole('region', { name: 'open a repository' }), { dataTransfer: { files: [new File([''], 'scratch')] } });
    expect(screen.getByText(/cannot tell where “scratch” is/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('repository path'), { target: { value: '/tmp/not-a-repo' } });
    fireEvent.click(screen.getByRole('button', { name: 'Use this path' }));
    expect(await screen.findByText(/is not a git repository/)).toBeTruthy();
    expect(location.hash).toBe('');
  });

  it('shows an empty state with no runs and an error state when the list fails', async () => {
    installFake({ overrides: { 'runs.list': () => [] } });
    await renderHome();
    expect(screen.getByText('No runs yet')).toBeTruthy();
    cleanup();
    installFake({
      overrides: {
        'runs.list': () => {
          throw new Error('Ratchet’s store cannot be opened.');
        },
      },
    });
    await renderHome();
    expect(screen.getByText('Ratchet’s store cannot be opened.')).toBeTruthy();
  });

  it('puts what runs first: Running and Queued above Needs you, each by Updated, running rows with their progress (issue 34 item 1)', async () => {
    const at = (minAgo: number) => new Date(NOW - minAgo * 60_000).toISOString();
    const run = (id: string, status: RunSummary['status'], updatedMinAgo: number, createdMinAgo: number): RunSummary => ({
      id,
      title: `Task ${id}`,
      status,
      repo: '/home/dev/code/calc',
      branch: `ratchet/${id}`,
      createdAt: at(createdMinAgo),
      reason: null,
      wakeAt: null,
      updatedAt: at(updatedMinAgo),
      stepsDone: 1,
      stepsTotal: 3,
      costUsd: 0,
    });
    // runs.list answers newest created first; the Needs-you runs were updated in another order.
    const list = [
      run('n-a', 'failed', 30, 1),
      run('run-1', 'running', 1, 2),
      run('n-b', 'paused', 2, 3),
      run('n-c', 'interrupted', 10, 4),
      run('q-1', 'queued', 0, 5),
    ];
    installFake({ overrides: { 'runs.list': () => list, 'runs.queue': () => ({ concurrency: 1, active: [], queued: [], holds: [] }) } });
    await renderHome();
    const names = screen
      .getAllByRole('rowgroup')
      .map((g) => g.getAttribute('aria-label'))
      .filter(Boolean);
    expect(names).toEqual(['Running', 'Queued', 'Needs you']);
    const needYou = screen.getByRole('rowgroup', { name: 'Needs you' });
    expect(
      within(needYou)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Task n-b', 'Task n-c', 'Task n-a']);
    const running = screen.getByRole('rowgroup', { name: 'Running' });
    expect(within(running).getByText('step 2 · 1 min')).toBeTruthy();
    // Live: the step's gate, timed from the step's start.
    act(() => {
      useRuns.getState().applyEvent({ id: 1, runId: 'run-1', at: at(3), type: 'step.started', payload: { step: 2 } });
      useRuns.getState().applyEvent({ id: 2, runId: 'run-1', at: at(1), type: 'gate.started', payload: { attemptId: 7, gate: 'test', command: 'npm test' } });
    });
    expect(within(running).getByText('step 2 · gate test · 3 min')).toBeTruthy();
    // Each section folds, and says how many it holds.
    const toggle = within(needYou).getByRole('button', { name: /Needs you\s*3/ });
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(within(needYou).queryAllByRole('link')).toHaveLength(0);
  });

  it('folds Finished in a long list so Running and Needs you stay on the first screen (issue 34 item 1)', async () => {
    const fake = installFake();
    const base = [...fake.runs.values()][0]!.summary;
    const many = Array.from({ length: 30 }, (_, i) => ({ ...base, id: `done-${i}`, title: `Done ${i}`, status: 'succeeded' as const }));
    installFake({ overrides: { 'runs.list': () => [...[...fake.runs.values()].map((r) => r.summary), ...many] } });
    await renderHome();
    const finished = screen.getByRole('rowgroup', { name: 'Finished' });
    expect(
      within(finished)
        .getByRole('button', { name: /Finished/ })
        .getAttribute('aria-expanded'),
    ).toBe('false');
    expect(within(finished).queryAllByRole('link')).toHaveLength(0);
  });

  it('lists queued runs in queue order with their place, and moves one to the front or cancels it', async () => {
    const summary = (id: string, title: string) => ({
      id,
      title,
      status: 'queued' as const,
      repo: '/home/dev/code/calc',
      branch: `ratchet/${id}`,
      createdAt: new Date(NOW).toISOString(),
      reason: 'Queued: waits for a free slot (2 runs at a time).',
      wakeAt: null,
      updatedAt: new Date(NOW).toISOString(),
      stepsDone: 0,
      stepsTotal: 3,
      costUsd: 0,
    });
    const entry = (runId: string, priority: number, position: number) => ({
      runId,
      title: runId,
      priority,
      position,
      queuedAt: new Date(NOW).toISOString(),
      action: 'execute' as const,
    });
    const fake = installFake({
      overrides: {
        // Newest first, as runs.list answers; the queue starts q-old first (priority 2), then q-mid.
        'runs.list': () => [summary('q-new', 'Newest'), summary('q-mid', 'Middle'), summary('q-old', 'Oldest')],
        'runs.queue': () => ({ concurrency: 2, active: [], queued: [entry('q-old', 2, 1), entry('q-mid', 0, 2), entry('q-new', 0, 3)], holds: [] }),
        'runs.setPriority': () => ({ ok: true as const }),
        'runs.stop': () => ({ ok: true as const }),
      },
    });
    await renderHome();
    const queued = screen.getByRole('rowgroup', { name: 'Queued' });
    await within(queued).findByText('3rd in the queue');
    expect(
      within(queued)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Oldest', 'Middle', 'Newest']);
    const rowOf = (title: string) => within(queued).getByRole('link', { name: title }).closest('tr')!;
    expect(within(rowOf('Oldest')).getByText('1st in the queue')).toBeTruthy();
    // The first has nowhere to move; the others go one above the highest priority waiting.
    expect(within(rowOf('Oldest')).queryByRole('button', { name: 'Run next' })).toBeNull();
    fireEvent.click(within(rowOf('Newest')).getByRole('button', { name: 'Run next' }));
    await waitFor(() => expect(fake.calls.find((c) => c.method === 'runs.setPriority')?.input).toEqual({ runId: 'q-new', priority: 3 }));
    fireEvent.click(within(rowOf('Middle')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(fake.calls.find((c) => c.method === 'runs.stop')?.input).toEqual({ runId: 'q-mid' }));
    // The controls keep their clicks: the row did not open the run.
    expect(location.hash).toBe('');
  });

  it('gives every title the room left by the sized columns, and the whole title on hover', async () => {
    installFake();
    await renderHome();
    const cols = [...document.querySelectorAll('table.runs-table col')].map((c) => c.className);
    expect(cols).toEqual(['c-status', 'c-task', 'c-repo', 'c-steps', 'c-cost', 'c-updated']);
    for (const link of screen.getAllByRole('link').filter((a) => a.classList.contains('run-title-link'))) {
      expect(link.getAttribute('title')).toBe(link.textContent);
      expect(link.classList.contains('truncate')).toBe(true);
    }
  });

  it('finds runs by text, status and repository (issue 20 item 21)', async () => {
    const fake = installFake();
    await renderHome();
    const all = [...fake.runs.values()].map((r) => r.summary);
    const titles = () =>
      screen
        .queryAllByRole('link')
        .filter((a) => a.classList.contains('run-title-link'))
        .map((a) => a.textContent);
    expect(titles()).toHaveLength(all.length);
    fireEvent.change(screen.getByRole('searchbox', { name: 'filter runs' }), { target: { value: 'websocket' } });
    expect(titles()).toEqual(['Fix the flaky websocket reconnect']);
    fireEvent.change(screen.getByRole('searchbox', { name: 'filter runs' }), { target: { value: '' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'status' }), { target: { value: 'needs_you' } });
    const needYou = all.filter((r) => ['paused', 'waiting_approval', 'interrupted', 'failed'].includes(r.status));
    expect(titles().sort()).toEqual(needYou.map((r) => r.title).sort());
    fireEvent.change(screen.getByRole('combobox', { name: 'status' }), { target: { value: '' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'repository' }), { target: { value: '/home/dev/code/http-kit' } });
    expect(titles().sort()).toEqual(
      all
        .filter((r) => r.repo === '/home/dev/code/http-kit')
        .map((r) => r.title)
        .sort(),
    );
    // Nothing left: said, with a way back.
    fireEvent.change(screen.getByRole('searchbox', { name: 'filter runs' }), { target: { value: 'no such run' } });
    expect(screen.getByText(/No run matches/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Clear the filters' }));
    expect(titles()).toHaveLength(all.length);
  });

  it('counts failed runs under Needs you (issue 20 item 21)', async () => {
    installFake();
    await renderHome();
    const group = screen.getByRole('rowgroup', { name: 'Needs you' });
    expect(within(group).getByRole('link', { name: 'Fix the flaky websocket reconnect' })).toBeTruthy();
  });

  it('keeps a branch name’s unique suffix in view, cutting the middle (issue 20 item 21)', async () => {
    const fake = installFake();
    const run = [...fake.runs.values()][0]!;
    run.summary.branch = 'ratchet/division-that-refuses-zero-and-says-why-4f9c2a';
    await renderHome();
    const cell = document.querySelector(`[title="${run.summary.branch}"]`)!;
    expect(cell.classList.contains('middle-ellipsis')).toBe(true);
    // The head shrinks with an ellipsis; the tail (the run's id) never does.
    expect(cell.querySelector('.tail')!.textContent).toBe('-4f9c2a');
    expect(cell.querySelector('.head')!.textContent).toBe('ratchet/division-that-refuses-zero-and-says-why');
  });

  it('says a run’s reason without the terminal’s command or a raw time (issue 20 items 20, 23)', async () => {
    const fake = installFake();
    const [paused, interrupted] = [...fake.runs.values()].filter((r) => r.summary.status === 'paused' || r.summary.status === 'interrupted');
    paused!.summary.reason = `task budget of $0.0040 reached ($0.0059 spent); nothing is lost: give the run more with ratchet resume ${paused!.summary.id} --budget <usd> (in the app: Raise budget and continue)`;
    interrupted!.summary.reason = `The process running this run stopped during it (last seen ${new Date(NOW - 60_000).toISOString()}).`;
    await renderHome();
    const table = document.querySelector('table.runs-table')!;
    expect(table.textContent).toContain('give the run more with Raise budget and continue');
    // A reason starts its row with a capital (issue 34 item 10).
    expect(table.textContent).toContain('Task budget of $0.0040 reached');
    expect(table.textContent).toContain('(last seen 1 min ago)');
    expect(table.textContent).not.toMatch(/ratchet resume|<usd>|\d{4}-\d\d-\d\dT/);
  });

  it('offers drag and drop only where a drop can be used: not in a browser (issue 20 item 23)', async () => {
    installFake();
    await renderHome();
    const zone = screen.getByRole('region', { name: 'open a repository' });
    expect(zone.textContent).not.toMatch(/Drop/);
    expect(screen.getByLabelText('repository path')).toBeTruthy();
    cleanup();
    installFake({ pathForFile: () => '/home/dev/code/space-game' });
    await renderHome();
    expect(screen.getByRole('region', { name: 'open a repository' }).textContent).toMatch(/Drop a git repository here/);
  });
});
