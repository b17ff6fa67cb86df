// @vitest-environment jsdom
// Tests for the dashboard: every number is also text, it follows engine events live (throttled), a period fetched
// before other runs ended is fetched again, runs that need attention link to their run, the daily budget is on the
// cost axis, the improvement suggestions are shown, and the report renders as a document that can be saved.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { FakeBridge } from '../../dev/fake-bridge';
import { RUN_IDS } from '../../dev/fixtures-runs';
import { makeStats } from '../../dev/fixtures-misc';
import { getApi } from '../api/client';
import { connectEvents } from '../stores/engine-events';
import { NOW, installFake } from '../test-helpers';
import { DashboardScreen } from './DashboardScreen';

let fake: FakeBridge;
let disconnect: (() => void) | null = null;
afterEach(() => {
  cleanup();
  disconnect?.();
  disconnect = null;
});
beforeEach(() => {
  fake = installFake();
});

/** A fake engine whose numbers change as runs finish: `finished` more runs succeeded than the fixtures say. */
function liveFake() {
  const state = { finished: 0 };
  fake = installFake({
    overrides: {
      'stats.summary': ({ days }) => {
        const s = makeStats(NOW, days ?? 7);
        return {
          ...s,
          runs: s.runs + state.finished,
          succeeded: s.succeeded + state.finished,
          successRate: (s.succeeded + state.finished) / (s.succeeded + s.failed + state.finished),
        };
      },
    },
  });
  disconnect = connectEvents(getApi());
  return state;
}
const summaryCalls = () => fake.calls.filter((c) => c.method === 'stats.summary').map((c) => (c.input as { days: number }).days);

describe('DashboardScreen', () => {
  it('shows the statistics as text next to the charts', async () => {
    render(<DashboardScreen />);
    expect(await screen.findByText('82.6 %')).toBeTruthy();
    expect(screen.getByText('19 of 22 finished runs · 23 started')).toBeTruthy();
    expect(screen.getByText('1.38')).toBeTruthy();
    const breakdown = screen.getByRole('table', { name: 'Steps by number of retries' });
    expect([...breakdown.querySelectorAll('td.num')].map((td) => td.textContent)).toEqual(['41', '12', '5', '2', '3']);
    const reasons = screen.getByRole('table', { name: 'Retries by error class' });
    expect(within(reasons).getByRole('rowheader', { name: 'Test failure' }).nextElementSibling!.textContent).toBe('14');
    const perDay = screen.getByRole('table', { name: 'Cost per day' });
    expect(perDay.querySelectorAll('tbody tr')).toHaveLength(7);
    // Days written short ("Nov 22"), as on the chart's axis.
    expect(within(perDay).getByText('Nov 22')).toBeTruthy();
    expect(within(perDay).getAllByText('over').length).toBeGreaterThan(0);
    expect(screen.getByText(/daily budget \$20\.00, exceeded on 1 day/)).toBeTruthy();
  });

  it('loads 30 days when asked', async () => {
    render(<DashboardScreen />);
    await screen.findByText('82.6 %');
    fireEvent.click(screen.getByRole('button', { name: '30 days' }));
    await waitFor(() => expect(screen.getByText('76 of 88 finished runs · 92 started')).toBeTruthy());
    expect(summaryCalls()).toEqual([7, 30]);
    // The report keeps naming its period (issue 34 item 10).
    expect(screen.getByRole('button', { name: '30-day report…' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Report…' })).toBeNull();
  });

  it('updates live when a run finishes, without a reload', async () => {
    const state = liveFake();
    render(<DashboardScreen />);
    await screen.findByText('19 of 22 finished runs · 23 started');
    state.finished = 1;
    fake.engineEvent(RUN_IDS.running, 'run.status', { status: 'succeeded', reason: null, wakeAt: null });
    expect(await screen.findByText('20 of 23 finished runs · 24 started', {}, { timeout: 3000 })).toBeTruthy();
  });

  it('re-fetches at most once a second however many events arrive', async () => {
    liveFake();
    render(<DashboardScreen />);
    await screen.findByText('19 of 22 finished runs · 23 started');
    const before = summaryCalls().length;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      for (let i = 0; i < 50; i++) fake.engineEvent(RUN_IDS.running, 'api.usage', { costUsd: 0.01 });
      await vi.advanceTimersByTimeAsync(999);
      expect(summaryCalls().length - before).toBeLessThanOrEqual(1);
      for (let i = 0; i < 50; i++) fake.engineEvent(RUN_IDS.running, 'api.usage', { costUsd: 0.01 });
      await vi.advanceTimersByTimeAsync(2000);
      expect(summaryCalls().length - before).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('fetches a period again when runs ended since it was fetched (7 days no longer shows fewer runs than 30)', async () => {
    const state = liveFake();
    render(<DashboardScreen />);
    await screen.findByText('19 of 22 finished runs · 23 started');
    fireEvent.click(screen.getByRole('button', { name: '30 days' }));
    await screen.findByText('76 of 88 finished runs · 92 started');
    // A run finishes while 30 days is shown: the 30-day numbers follow, and the 7-day ones are out of date.
    state.finished = 1;
    fake.engineEvent(RUN_IDS.running, 'run.status', { status: 'succeeded', reason: null, wakeAt: null });
    await screen.findByText('77 of 89 finished runs · 93 started', {}, { timeout: 3000 });
    fireEvent.click(screen.getByRole('button', { name: '7 days' }));
    expect(await screen.findByText('20 of 23 finished runs · 24 started')).toBeTruthy();
  });

  it('lists the runs that need you, failed ones too (issue 20 item 21), newest first, each linking to its run', async () => {
    render(<DashboardScreen />);
    const section = await screen.findByRole('region', { name: /^Needs you/ });
    await waitFor(() => expect(within(section).getAllByRole('link').length).toBe(4));
    const hrefs = within(section)
      .getAllByRole('link')
      .map((a) => a.getAttribute('href'));
    // The same runs as the runs list's Needs you (a run waiting to retry goes on by itself: it is Running there).
    expect(new Set(hrefs)).toEqual(new Set([RUN_IDS.paused, RUN_IDS.approval, RUN_IDS.interrupted, RUN_IDS.failed].map((id) => `#/runs/${id}`)));
    expect(within(section).getByText(/Task budget \$5\.00 reached/)).toBeTruthy();
    // A run leaving `paused` leaves the list, live.
    disconnect = connectEvents(getApi());
    fake.engineEvent(RUN_IDS.paused, 'run.status', { status: 'running', reason: null, wakeAt: null });
    await waitFor(() => expect(within(section).getAllByRole('link')).toHaveLength(3));
  });

  it('draws the pull requests’ rounds: what CI fixes cost and bought, flaky rate per check and per test, infrastructure re-runs', async () => {
    render(<DashboardScreen />);
    const card = await screen.findByRole('region', { name: 'Pull requests' });
    expect(within(card).getByText('6 pull requests watched, 5 merged')).toBeTruthy();
    const facts = within(card).getByRole('table', { name: 'Pull request rounds' });
    const row = (name: string) => within(facts).getByRole('rowheader', { name }).nextElementSibling!.textContent;
    expect(row('CI fix rounds')).toBe('4 (3 pushed)');
    expect(row('CI fixes cost')).toBe('$1.84');
    expect(row('Merged after a CI fix')).toBe('3');
    expect(row('Infrastructure re-runs')).toBe('2 (no agent call)');
    expect(row('Broken on the base')).toBe('1');
    expect(row('Review rounds')).toBe('2, $0.61');
    const checks = within(card).getByRole('table', { name: 'Flaky rate per check' });
    expect([...checks.querySelectorAll('tbody tr')].map((tr) => tr.textContent)).toEqual(['test (ubuntu-latest, node 22)3 of 933 %', 'e2e1 of 425 %']);
    const tests = within(card).getByRole('table', { name: 'Flaky tests' });
    expect([...tests.querySelectorAll('tbody tr')].map((tr) => tr.textContent)).toEqual([
      'settles before the deadlinetest (ubuntu-latest, node 22)2',
      'the dashboard follows a run livee2e1',
      'retries the lease after a crashtest (ubuntu-latest, node 22)1',
    ]);
  });

  it('leaves the pull requests’ card out when the period watched none', async () => {
    const none = { pullRequests: 0, merged: 0, ciFixRounds: 0, ciFixesPushed: 0, ciFixCostUsd: 0, ciFixUnknownCost: false, mergedAfterCiFix: 0 };
    const zero = { ...none, infrastructureReruns: 0, brokenOnBase: 0, flakyByCheck: [], flakyTests: [], reviewRounds: 0, reviewCostUsd: 0 };
    fake = installFake({ overrides: { 'stats.summary': ({ days }) => ({ ...makeStats(NOW, days ?? 7), pullRequests: zero }) } });
    render(<DashboardScreen />);
    await screen.findByText('82.6 %');
    expect(screen.queryByRole('region', { name: 'Pull requests' })).toBeNull();
  });

  it("shows seed 002's improvement suggestions, each finding with its action", async () => {
    render(<DashboardScreen />);
    const section = await screen.findByRole('region', { name: 'Improvement suggestions' });
    await waitFor(() => expect(within(section).getAllByRole('listitem')).toHaveLength(3));
    const first = within(section).getAllByRole('listitem')[0]!;
    expect(first.textContent).toBe(
      'Test failures were retried 4.2 times on average and fixed 30 % of the time; every fix came within 2 retriesTry: Lower max retries for test failure to 2',
    );
    expect(fake.calls.filter((c) => c.method === 'stats.improvements')).toHaveLength(1);
  });

  it('says each suggestion once, in the app’s words, and not as a link (issue 34 item 10)', async () => {
    const advice = { action: 'lower max retries for test_failure to 1', errorClass: 'test_failure' as const };
    fake = installFake({
      overrides: {
        'stats.improvements': () => ({
          items: [
            { finding: 'Test failures were fixed 10 % of the time', ...advice },
            { finding: 'test_failure retries cost $4.20', ...advice },
            {
              finding: 'Steps failing on compilation_error were never fixed',
              action: 'consider: add a typecheck gate',
              errorClass: 'compilation_error' as const,
            },
          ],
        }),
      },
    });
    render(<DashboardScreen />);
    const section = await screen.findByRole('region', { name: 'Improvement suggestions' });
    await waitFor(() => expect(within(section).getAllByRole('listitem')).toHaveLength(2));
    expect(section.textContent).not.toMatch(/test_failure|compilation_error|→|consider:/);
    expect(within(section).getByText('Lower max retries for test failure to 1')).toBeTruthy();
    expect(within(section).getByText('Add a typecheck gate')).toBeTruthy();
    expect(within(section).queryAllByRole('link')).toEqual([]);
  });

  it('renders the weekly report as a document, with its Markdown a click away, and saves it as a .md file', async () => {
    render(<DashboardScreen />);
    await screen.findByText('82.6 %');
    fireEvent.click(screen.getByRole('button', { name: /Weekly report/ }));
    const doc = await screen.findByRole('article', { name: 'report' });
    expect(within(doc).getByRole('heading', { level: 1 }).textContent).toBe('Ratchet — weekly report');
    expect(within(doc).getByRole('table')).toBeTruthy();
    expect(within(doc).getByRole('heading', { name: 'Improvement suggestions' })).toBeTruthy();
    // Saving: a download of the Markdown (Electron asks where with its Save dialog).
    const created: Blob[] = [];
    const clicked: string[] = [];
    URL.createObjectURL = ((b: Blob) => (created.push(b), 'blob:report')) as typeof URL.createObjectURL;
    URL.revokeObjectURL = () => {};
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save as Markdown…' }));
    click.mockRestore();
    expect(clicked).toEqual([expect.stringMatching(/^ratchet-report-7-days-\d{4}-\d\d-\d\d\.md$/)]);
    expect(await created[0]!.text()).toMatch(/^# Ratchet — weekly report/);
    fireEvent.click(screen.getByRole('button', { name: 'Markdown' }));
    const text = (await screen.findByLabelText('report Markdown')) as HTMLTextAreaElement;
    expect(text.value).toMatch(/^# Ratchet — weekly report/);
  });

  it('says so when the statistics cannot be loaded', async () => {
    installFake({
      overrides: {
        'stats.summary': () => {
          throw new Error('The store is busy; try again.');
        },
      },
    });
    render(<DashboardScreen />);
    expect(await screen.findByText('The store is busy; try again.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});

describe('the Team section', () => {
  const teamStats = (days: number) => ({
    days,
    runs: days === 7 ? 5 : 9,
    succeeded: 3,
    failed: 1,
    open: 1,
    attempts: 8,
    retries: 3,
    retriesThatPassed: 2,
    retryCostUsd: 0.6,
    costUsd: 1.8,
    reasons: [{ errorClass: 'test_failure' as const, attempts: 2 }],
    byWorker: [
      { worker: 'build-1-100-aaaa', runs: 4, succeeded: 3, costUsd: 1.5 },
      { worker: 'build-2-200-bbbb', runs: 1, succeeded: 0, costUsd: 0.3 },
    ],
    spentTodayUsd: 0.9,
    dailyBudgetUsd: 5,
  });

  it('is not shown at all when no team is set (not zeros)', async () => {
    render(<DashboardScreen />);
    await screen.findByText('success rate');
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'team.stats')).toBe(true));
    expect(screen.queryByRole('heading', { name: /^Team/ })).toBeNull();
  });

  it('shows the team’s runs, success rate, retries, reasons, each worker’s share and today’s spend against the team budget, for the period on screen', async () => {
    fake = installFake({ overrides: { 'team.stats': ({ days }) => teamStats(days ?? 7) } });
    render(<DashboardScreen />);
    const section = (await screen.findByRole('heading', { name: /^Team/ })).closest('section')!;
    const t = within(section);
    expect(t.getByText('team runs').nextSibling?.textContent).toBe('5');
    expect(t.getByText('3 succeeded · 1 failed · 1 open')).toBeTruthy();
    expect(t.getByText('75.0 %')).toBeTruthy();
    expect(t.getByText('2 passed · cost $0.60 · 8 attempts in all')).toBeTruthy();
    expect(t.getByText('$0.90')).toBeTruthy();
    expect(t.getByText('of the $5.00 team daily budget')).toBeTruthy();
    const workers = t.getByRole('table', { name: 'team runs by worker' });
    expect(within(workers).getByText('build-1-100-aaaa').closest('tr')!.textContent).toBe('build-1-100-aaaa480 %3$1.50');
    expect(within(t.getByRole('table', { name: 'team failed attempts by reason' })).getAllByRole('row')).toHaveLength(2);

    fireEvent.click(screen.getByRole('button', { name: '30 days' }));
    await waitFor(() => expect(screen.getByText('team runs').nextSibling?.textContent).toBe('9'));
    expect(fake.calls.filter((c) => c.method === 'team.stats').map((c) => (c.input as { days: number }).days)).toContain(30);
  });

  it('says "no runs on this machine" when only the team ran in the period', async () => {
    fake = installFake({
      overrides: { 'team.stats': ({ days }) => teamStats(days ?? 7), 'stats.summary': ({ days }) => ({ ...makeStats(NOW, days ?? 7), runs: 0 }) },
    });
    render(<DashboardScreen />);
    await screen.findByRole('heading', { name: /^Team/ });
    expect(await screen.findByText('No runs on this machine in the last 7 days')).toBeTruthy();
  });

  it('says the team database did not answer instead of counting nothing', async () => {
    fake = installFake({
      overrides: {
        'team.stats': () => {
          throw new Error('Could not use the team database at postgres://u:***@h/db: connection refused.');
        },
      },
    });
    render(<DashboardScreen />);
    const section = (await screen.findByRole('heading', { name: /^Team/ })).closest('section')!;
    expect(within(section).getByText(/did not answer, so team runs are not counted here: Could not use the team database/)).toBeTruthy();
    expect(within(section).queryByText('team runs')).toBeNull();
  });
});
