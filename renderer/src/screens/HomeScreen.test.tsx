// @vitest-environment jsdom
// Tests for Home: runs with their badges, the interrupted banner, and opening a repository by drop (with or without pathForFile).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
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
    installFake({ overrides: { 'runs.list': () => { throw new Error('Ratchet’s store cannot be opened.'); } } });
    await renderHome();
    expect(screen.getByText('Ratchet’s store cannot be opened.')).toBeTruthy();
  });

  it('groups the runs by what they ask of you: needs you first, then running, queued and finished', async () => {
    const fake = installFake();
    await renderHome();
    const groups = screen.getAllByRole('rowgroup').filter((g) => g.getAttribute('aria-label'));
    const names = groups.map((g) => g.getAttribute('aria-label'));
    expect(names[0]).toBe('Needs you');
    expect(names).toEqual(['Needs you', 'Running', 'Queued', 'Finished'].filter((n) => names.includes(n)));
    const needYou = [...fake.runs.values()].filter((r) => ['paused', 'waiting_approval', 'interrupted'].includes(r.summary.status));
    expect(within(groups[0]!).getAllByRole('link')).toHaveLength(needYou.length);
  });
});

