// @vitest-environment jsdom
// Failure notices: grouped (three failed runs are one notice), each closable and the group too, one
// line each (the full reason is on the run's page), gone once that run is opened, and never laid over the screen.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { installFake } from '../test-helpers';
import { useUi } from '../stores/ui';
import { groupNotices } from '../lib/notices';
import { Notices } from './Banners';
import { App } from '../App';

afterEach(() => {
  cleanup();
  location.hash = '';
});
beforeEach(() => {
  installFake();
});

const LONG =
  'step 2 "Refuse a zero divisor" failed: test_failure: limit of 1 retry reached\nAttempts summary:\n  1. test failure\nNext steps:\n  1. Look at the failing test';

function five() {
  const { notify } = useUi.getState();
  notify({ code: 'run.failed', level: 'error', title: 'Run failed: Division', body: LONG.split('\n')[0]!, runId: 'r1' });
  notify({ code: 'run.failed', level: 'error', title: 'Run failed: Parser', body: 'step 1 failed: compilation error', runId: 'r2' });
  notify({ code: 'run.succeeded', level: 'info', title: 'Run succeeded: Calculator', body: '', runId: 'r3' });
  notify({ code: 'run.failed', level: 'error', title: 'Run failed: Lexer', body: 'step 3 failed', runId: 'r4' });
  notify({ code: 'run.needs_you', level: 'warn', title: 'Run needs you: Budget', body: 'task budget of $0.0040 reached', runId: 'r5' });
}

describe('notices', () => {
  it('groups them by what happened, failures first', () => {
    five();
    const groups = groupNotices(useUi.getState().notices);
    expect(groups.map((g) => [g.label, g.items.length])).toEqual([
      ['3 runs failed', 3],
      ['Run needs you', 1],
      ['Run succeeded', 1],
    ]);
    render(<Notices />);
    expect(screen.getAllByRole('group')).toHaveLength(3);
    const failed = screen.getByRole('group', { name: '3 runs failed' });
    expect(
      within(failed)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Division', 'Parser', 'Lexer']);
  });

  it('closes one, or a whole group', () => {
    five();
    render(<Notices />);
    const failed = screen.getByRole('group', { name: '3 runs failed' });
    fireEvent.click(within(failed).getByRole('button', { name: 'Dismiss the notice about Parser' }));
    expect(screen.getByRole('group', { name: '2 runs failed' })).toBeTruthy();
    fireEvent.click(within(screen.getByRole('group', { name: '2 runs failed' })).getByRole('button', { name: 'Dismiss all 2' }));
    expect(screen.queryByRole('group', { name: /runs? failed/ })).toBeNull();
    expect(useUi.getState().notices.map((n) => n.runId)).toEqual(['r3', 'r5']);
  });

  it('shows one line of the reason, and drops a run’s notices once its page (with the whole reason) is open', () => {
    five();
    render(<Notices />);
    const line = screen.getByText(/Refuse a zero divisor/);
    expect(line.classList.contains('truncate')).toBe(true);
    act(() => useUi.getState().setRoute('#/runs/r1'));
    expect(useUi.getState().notices.some((n) => n.runId === 'r1')).toBe(false);
  });

  it('decides by the notice’s code, not its words: reworded titles group, replace and clear the same', () => {
    const { notify } = useUi.getState();
    notify({ code: 'run.failed', level: 'error', title: 'Échec : Division', body: 'step 2 failed', runId: 'r1' });
    notify({ code: 'run.failed', level: 'error', title: 'Broke: Parser', body: 'step 1 failed', runId: 'r2' });
    notify({ code: 'run.failed', level: 'error', title: 'Broke again: Parser', body: 'step 1 failed twice', runId: 'r2' });
    notify({ code: 'run.needs_you', level: 'warn', title: 'Waiting on you: Budget', body: '', runId: 'r5' });
    const groups = groupNotices(useUi.getState().notices);
    // One notice per run and code (the latest), the failures one group whatever their titles say.
    expect(groups.map((g) => [g.label, g.items.length])).toEqual([
      ['2 runs failed', 2],
      ['Waiting on you', 1],
    ]);
    expect(groups[0]!.items.map((n) => n.title)).toEqual(['Échec : Division', 'Broke again: Parser']);
    // Opening the run's page drops its outcome notice, whatever its title.
    act(() => useUi.getState().setRoute('#/runs/r5'));
    expect(useUi.getState().notices.map((n) => n.runId)).toEqual(['r1', 'r2']);
  });

  it('sits in the page above the screen, not over it (nothing can cover New task’s Start button)', async () => {
    location.hash = '#/settings';
    render(<App />);
    act(() => five());
    const notices = await screen.findByRole('region', { name: 'notices' });
    const main = document.getElementById('main')!;
    expect(main.contains(notices)).toBe(true);
  });
});
