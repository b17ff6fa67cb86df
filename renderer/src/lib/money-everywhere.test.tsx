// @vitest-environment jsdom
// One money format everywhere — the runs list, the step timeline, the attempt and the dashboard say
// what the run header and the weekly report say ($0.0120, $0.5076), never a rounded $0.01 or $0.51.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { makeRuns, RUN_IDS } from '../../dev/fixtures-runs';
import { makeStats } from '../../dev/fixtures-misc';
import { installFake, NOW } from '../test-helpers';
import { useRuns } from '../stores/runs';
import { HomeScreen } from '../screens/HomeScreen';
import { DashboardScreen } from '../screens/DashboardScreen';
import { StepTimeline } from '../components/StepTimeline';
import { money } from './format';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  vi.useRealTimers();
  cleanup();
});

describe('one money format everywhere (issue 20 item 17)', () => {
  it('the runs list shows a run that spent $0.012 as $0.0120, as its header does', async () => {
    const fake = installFake();
    const run = [...fake.runs.values()][0]!;
    run.summary.costUsd = 0.012;
    render(<HomeScreen />);
    await useRuns.getState().load();
    const row = (await screen.findAllByRole('row')).find((r) => r.textContent?.includes(run.summary.title))!;
    expect(within(row).getByText('$0.0120')).toBeTruthy();
    expect(row.textContent).not.toContain('$0.01 ');
  });

  it('the step timeline shows a step that cost $0.012 as $0.0120', () => {
    const doc = makeRuns(NOW).find((r) => r.doc.id === RUN_IDS.health)!.doc;
    const steps = doc.steps.map((s, i) => (i === 0 ? { ...s, attempts: s.attempts.map((a) => ({ ...a, costUsd: 0.012 })) } : s));
    render(<StepTimeline steps={steps} selected={1} onSelect={() => undefined} timing={{}} now={NOW} />);
    expect(within(screen.getAllByRole('listitem')[0]!).getByText('$0.0120')).toBeTruthy();
  });

  it('the dashboard total says $0.5076, as the weekly report does', async () => {
    installFake({ overrides: { 'stats.summary': ({ days }) => ({ ...makeStats(NOW, days ?? 7), totalCostUsd: 0.5076, retryCostUsd: 0.0032 }) } });
    render(<DashboardScreen />);
    expect(await screen.findByText(money(0.5076))).toBeTruthy();
    expect(money(0.5076)).toBe('$0.5076');
    expect(screen.getAllByText(/\$0\.0032 on retries/).length).toBeGreaterThan(0);
  });
});
