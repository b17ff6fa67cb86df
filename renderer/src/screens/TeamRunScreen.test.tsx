// @vitest-environment jsdom
// Team runs in the app: the runs list shows them with the local ones (marked "team", with their worker, opening the team
// run's screen); that screen offers what the run's state allows and acts through the team's methods.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { StatusDocument } from '../../../shared/domain';
import type { TeamRunItem } from '../../../shared/team';
import { installFake, NOW } from '../test-helpers';
import { hrefs, parseHash } from '../lib/route';
import { withTeamRuns } from '../lib/team-runs';
import { useRuns } from '../stores/runs';
import { useTeam } from '../stores/team';
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

  it('offers Raise budget for a run paused at its task budget, shows a refusal as the local screen does, and raises through team.raiseBudget', async () => {
    const paused = teamItem({ status: 'paused', reasonCode: 'task_budget', reason: 'Task budget reached.', costUsd: 0.4 });
    let item = paused;
    const raised: number[] = [];
    const fake = installFake({
      overrides: {
        'team.status': () => ({ item, doc: { ...statusDoc('paused'), reasonCode: 'task_budget', costUsd: 0.4 } }),
        'team.list': () => [item],
        'team.raiseBudget': ({ usd }) => {
          // The service's own refusal (the client's sentence) when a value slips under the spend.
          if (usd <= 0.5) throw Object.assign(new Error('Team run t-1 has already spent $0.50; give it more than that.'), { code: 'bad_arguments' });
          raised.push(usd);
          item = { ...item, status: 'queued', reasonCode: 'waiting_for_slot' };
          return { ok: true as const };
        },
      },
    });
    render(<TeamRunScreen runId="t-1" step={null} />);
    await screen.findByRole('heading', { name: 'Team task' });
    const actions = screen.getByRole('group', { name: 'team run actions' });
    // Resume would pause again at once: Raise budget is the one way on.
    expect(within(actions).queryByRole('button', { name: 'Resume' })).toBeNull();
    fireEvent.click(within(actions).getByRole('button', { name: 'Raise budget and continue' }));
    const input = screen.getByLabelText('New task budget (USD)');
    fireEvent.change(input, { target: { value: '0.3' } });
    expect(screen.getByText('Give it more than $0.40 (what it has spent).')).toBeTruthy();
    fireEvent.change(input, { target: { value: '0.45' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(/has already spent \$0\.50; give it more than that\./)).toBeTruthy();
    fireEvent.change(input, { target: { value: '1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(raised).toEqual([1]));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Raise budget and continue' })).toBeNull());
    expect(fake.calls.filter((c) => c.method === 'team.raiseBudget').map((c) => c.input)).toEqual([
      { runId: 't-1', usd: 0.45 },
      { runId: 't-1', usd: 1 },
    ]);
  });

  it('offers Raise budget for a run paused at the team’s daily budget too', async () => {
    installFake({
      overrides: {
        'team.status': () => ({
          item: teamItem({ status: 'paused', reasonCode: 'daily_budget' }),
          doc: { ...statusDoc('paused'), reasonCode: 'daily_budget' },
        }),
      },
    });
    render(<TeamRunScreen runId="t-1" step={null} />);
    await screen.findByRole('heading', { name: 'Team task' });
    const actions = screen.getByRole('group', { name: 'team run actions' });
    expect(within(actions).getByRole('button', { name: 'Raise budget and continue' })).toBeTruthy();
    expect(within(actions).getByRole('button', { name: 'Resume' })).toBeTruthy();
  });

  it('follows a running run’s engine events live (attempt, tool call, gate) and stops following when the screen closes', async () => {
    let status: 'running' | 'succeeded' = 'running';
    const fake = installFake({
      overrides: { 'team.status': () => ({ item: teamItem({ status }), doc: statusDoc(status) }), 'team.follow': () => ({ ok: true as const }) },
    });
    const view = render(<TeamRunScreen runId="t-1" step={null} />);
    await screen.findByRole('heading', { name: 'Team task' });
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'team.follow')).toBe(true));
    const { follow } = fake.calls.find((c) => c.method === 'team.follow')!.input as { follow: string };
    let id = 0;
    const push = (type: string, payload: Record<string, unknown>, token = follow) =>
      fake.emit('team.onEvent', { runId: 't-1', follow: token, worker: 'build-7-1234-abcdef', event: { id: ++id, runId: 't-1', at: at(0), type, payload } });
    act(() => {
      push('attempt.started', { attemptId: 3, step: 1, n: 1, model: 'claude-sonnet-5-5' });
      push('agent.transcript', {
        attemptId: 3,
        kind: 'tool_use',
        text: '',
        name: 'str_replace_based_edit_tool',
        input: { command: 'view', path: 'src/calc.js' },
      });
      push('gate.started', { attemptId: 3, gate: 'test', command: 'npm test' });
      // An event of an earlier follow (still on its way) is not mixed in.
      push('agent.transcript', { attemptId: 3, kind: 'text', text: 'stale event' }, 'old-token');
    });
    const live = await screen.findByRole('region', { name: 'live attempt' });
    expect(within(live).getByRole('heading').textContent).toMatch(/^live Attempt 1 on build-7-1234-abcdef · claude-sonnet-5-5$/);
    expect(within(live).getByText('view src/calc.js')).toBeTruthy();
    expect(within(live).getByText('running…')).toBeTruthy();
    expect(screen.queryByText('stale event')).toBeNull();
    act(() => push('gate.finished', { attemptId: 3, gate: 'test', passed: true, exitCode: 0, durationMs: 2100 }));
    expect(await within(live).findByText('passed in 2.1 s')).toBeTruthy();

    // Once the run ended, the follow stops and the partial live view goes: the status document tells the attempts whole.
    status = 'succeeded';
    await act(() => useTeam.getState().loadRun('t-1'));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'live attempt' })).toBeNull());
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'team.unfollow')).toBe(true));
    view.unmount();
    expect(fake.calls.filter((c) => c.method === 'team.unfollow').map((c) => c.input)).toEqual([{ runId: 't-1', follow }]);
  });
});
