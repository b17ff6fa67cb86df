// @vitest-environment jsdom
// Team runs in the app: the runs list shows them with the local ones (marked "team", with their worker, opening the team
// run's screen); that screen offers what the run's state allows and acts through the team's methods.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { StatusDocument } from '../../../shared/domain';
import type { TeamRunItem } from '../../../shared/team';
import { installFake, NOW } from '../test-helpers';
import { hrefs, parseHash } from '../lib/route';
import { withTeamRuns } from '../lib/team-runs';
import { useRuns } from '../stores/runs';
import { HomeScreen } from './HomeScreen';
import { TeamRunScreen } from './TeamRunScreen';

afterEach(() => {
  cleanup();
  location.hash = '';
});

const at = (minutesAgo: number) => new Date(NOW - minutesAgo * 60_000).toISOString();

function teamItem(over: Partial<TeamRunItem>): TeamRunItem {
  return {
    id: 't-1',
    title: 'Team task',
    remote: '/srv/git/calc.git',
    repoName: 'calc',
    branch: 'ratchet/team-task-1',
    status: 'running',
    reason: null,
    reasonCode: null,
    worker: 'build-7-1234-abcdef',
    submittedBy: 'dev@laptop',
    priority: 0,
    costUsd: 0.01,
    stepsDone: 1,
    stepsTotal: 2,
    createdAt: at(1),
    updatedAt: at(1),
    ...over,
  };
}

function statusDoc(status: StatusDocument['status']): StatusDocument {
  return {
    id: 't-1',
    status,
    reason: null,
    repo: '/work/calc',
    branch: 'ratchet/team-task-1',
    worktree: '/worker/home/worktrees/t-1',
    baseCommit: 'abcdef1234567890',
    costUsd: 0.01,
    resumes: [],
    steps: [
      {
        index: 1,
        title: 'First',
        status: 'running',
        commit: null,
        attempts: [
          {
            n: 1,
            outcome: 'running',
            errorClass: null,
            model: 'claude-sonnet-5-5',
            inputTokens: 0,
            outputTokens: 0,
            cacheReadTokens: 0,
            cacheWriteTokens: 0,
            costUsd: 0,
            decision: null,
            fingerprint: null,
            round: 0,
          },
        ],
      },
      { index: 2, title: 'Second', status: 'pending', commit: null, attempts: [] },
    ],
  };
}

describe('team runs', () => {
  it('routes #/team/<id> to the team run screen', () => {
    expect(parseHash(hrefs.teamRun('t-1', 2))).toEqual({ name: 'team-run', runId: 't-1', step: 2 });
    expect(parseHash(hrefs.run('t-1'))).toMatchObject({ name: 'run' });
  });

  it('merges team runs into the list newest first, a queued one costing nothing yet', () => {
    const local = [
      {
        id: 'l',
        status: 'succeeded' as const,
        repo: '/r',
        branch: 'b',
        createdAt: at(5),
        title: 'L',
        reason: null,
        wakeAt: null,
        updatedAt: at(5),
        stepsDone: 1,
        stepsTotal: 1,
        costUsd: 1,
      },
    ];
    const merged = withTeamRuns(local, [
      teamItem({ id: 'new', createdAt: at(0) }),
      teamItem({ id: 'old', createdAt: at(9), status: 'queued', worker: null, costUsd: null }),
    ]);
    expect(merged.map((r) => r.id)).toEqual(['new', 'l', 'old']);
    expect(merged[2]!.costUsd).toBe(0);
  });

  it('shows team runs in the runs list with their worker, each opening the team run screen', async () => {
    installFake({
      overrides: {
        'team.settings': () => ({ url: 'postgres://a:***@h/db', source: 'session', warning: null }),
        'team.list': () => [teamItem({})],
      },
    });
    render(<HomeScreen />);
    await useRuns.getState().load();
    const link = await screen.findByRole('link', { name: 'Team task' });
    expect(link.getAttribute('href')).toBe(hrefs.teamRun('t-1'));
    const row = link.closest('tr')!;
    expect(within(row).getByText('team')).toBeTruthy();
    expect(within(row).getByText('on worker build-7-1234-abcdef')).toBeTruthy();
  });

  it('offers Run next, Start later and Stop for a queued run, and acts through the team methods', async () => {
    let item = teamItem({ status: 'queued', worker: null });
    const fake = installFake({
      overrides: {
        'team.status': () => ({ item, doc: null }),
        'team.setPriority': ({ priority }) => {
          item = { ...item, priority };
          return { ok: true as const };
        },
        'team.list': () => [item],
      },
    });
    render(<TeamRunScreen runId="t-1" step={null} />);
    await screen.findByRole('heading', { name: 'Team task' });
    const actions = screen.getByRole('group', { name: 'team run actions' });
    expect(
      within(actions)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Run next', 'Start later', 'Stop']);
    expect(screen.getByText(/waits in the team’s queue \(2 steps\)/)).toBeTruthy();
    fireEvent.click(within(actions).getByRole('button', { name: 'Run next' }));
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'team.setPriority' && (c.input as { priority: number }).priority === 100)).toBe(true));
  });

  it('shows a stopped run’s unfinished attempt as stopped and offers Resume', async () => {
    installFake({ overrides: { 'team.status': () => ({ item: teamItem({ status: 'cancelled', reason: 'Stopped by you.' }), doc: statusDoc('cancelled') }) } });
    render(<TeamRunScreen runId="t-1" step={null} />);
    await screen.findByRole('heading', { name: 'Team task' });
    expect(
      within(screen.getByRole('group', { name: 'team run actions' }))
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Resume']);
    expect(screen.getByText('build-7-1234-abcdef', { selector: '[data-testid="team-worker"]' })).toBeTruthy();
    const attempt = screen.getByText('Attempt 1').closest('li')!;
    expect(within(attempt).getByText('stopped')).toBeTruthy();
  });
});
