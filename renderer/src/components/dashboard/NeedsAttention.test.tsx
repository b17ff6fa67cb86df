// @vitest-environment jsdom
// The dashboard's Needs you (issue 34 item 2): five runs, a way to all of them in Runs, and one count shared with the
// runs list and the window title, team runs included.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { TeamRunItem } from '../../../../shared/team';
import { installFake, NOW } from '../../test-helpers';
import { App } from '../../App';
import { NeedsAttention } from './NeedsAttention';
import { useUi } from '../../stores/ui';

afterEach(() => {
  cleanup();
  location.hash = '';
});

const at = (minAgo: number) => new Date(NOW - minAgo * 60_000).toISOString();
function teamRun(id: string, status: TeamRunItem['status'], minAgo: number): TeamRunItem {
  return {
    id,
    title: `Team ${id}`,
    remote: '/srv/git/calc.git',
    repoName: 'calc',
    branch: `ratchet/${id}`,
    status,
    reason: null,
    reasonCode: null,
    worker: 'build-7',
    submittedBy: 'dev@laptop',
    priority: 0,
    costUsd: 0.01,
    stepsDone: 1,
    stepsTotal: 2,
    createdAt: at(minAgo),
    updatedAt: at(minAgo),
  };
}

describe('Needs you on the dashboard', () => {
  it('lists five, offers the rest in Runs, and counts as the runs list and the window title do, team runs too', async () => {
    const team = [teamRun('t-1', 'failed', 0), teamRun('t-2', 'paused', 0), teamRun('t-3', 'running', 0)];
    const fake = installFake({
      overrides: {
        'team.settings': () => ({ url: 'postgres://team.example/ratchet', source: 'session' as const, warning: null }),
        'team.list': () => team,
      },
    });
    const localNeedYou = [...fake.runs.values()].filter((r) => ['paused', 'waiting_approval', 'interrupted', 'failed'].includes(r.summary.status)).length;
    const total = localNeedYou + 2;
    expect(total).toBeGreaterThan(5);
    // The shell: the window title and the runs list's Needs you.
    render(<App />);
    await waitFor(() => expect(document.title).toBe(`(${total}) Ratchet`));
    const group = await screen.findByRole('rowgroup', { name: 'Needs you' });
    await waitFor(() => expect(within(group).getAllByRole('link')).toHaveLength(total));
    cleanup();
    // The dashboard's list: the same name and count, five of them, the newest first (the team's, opening their screen).
    render(<NeedsAttention />);
    const section = await screen.findByRole('region', { name: /^Needs you/ });
    await waitFor(() => expect(within(section).getByLabelText(`${total} runs`)).toBeTruthy());
    expect(within(section).getAllByRole('link')).toHaveLength(5);
    expect(within(section).getAllByRole('link')[0]!.getAttribute('href')).toMatch(/^#\/team\/t-/);
    fireEvent.click(within(section).getByRole('button', { name: `Show all ${total} in Runs` }));
    expect(location.hash).toBe('#/');
    expect(useUi.getState().runsFilter.status).toBe('needs_you');
  });
});
