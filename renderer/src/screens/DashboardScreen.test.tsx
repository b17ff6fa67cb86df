// @vitest-environment jsdom
// Tests for the dashboard: every number is also text, the period switch asks for 30 days, the report shows its Markdown.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { FakeBridge } from '../../dev/fake-bridge';
import { installFake } from '../test-helpers';
import { DashboardScreen } from './DashboardScreen';

let fake: FakeBridge;
afterEach(cleanup);
beforeEach(() => {
  fake = installFake();
});

describe('DashboardScreen', () => {
  it('shows the statistics as text next to the charts', async () => {
    render(<DashboardScreen />);
    expect(await screen.findByText('83 %')).toBeTruthy();
    expect(screen.getByText('19 of 23 runs · 3 failed')).toBeTruthy();
    expect(screen.getByText('1.38')).toBeTruthy();
    const breakdown = screen.getByRole('table', { name: 'Steps by number of retries' });
    expect([...breakdown.querySelectorAll('td')].map((td) => td.textContent)).toEqual(['41', '12', '5', '2', '3']);
    const reasons = screen.getByRole('table', { name: 'Retries by error class' });
    expect(within(reasons).getByRole('rowheader', { name: 'test failure' }).nextElementSibling!.textContent).toBe('14');
    const perDay = screen.getByRole('table', { name: 'Cost per day' });
    expect(perDay.querySelectorAll('tbody tr')).toHaveLength(7);
    expect(within(perDay).getAllByText('over').length).toBeGreaterThan(0);
    expect(screen.getByText(/daily budget \$20\.00, exceeded on 1 day/)).toBeTruthy();
  });

  it('loads 30 days when asked', async () => {
    render(<DashboardScreen />);
    await screen.findByText('83 %');
    fireEvent.click(screen.getByRole('button', { name: '30 days' }));
    await waitFor(() => expect(screen.getByText('76 of 92 runs · 12 failed')).toBeTruthy());
    expect(fake.calls.filter((c) => c.method === 'stats.summary').map((c) => (c.input as { days: number }).days)).toEqual([7, 30]);
  });

  it('shows the weekly report’s Markdown', async () => {
    render(<DashboardScreen />);
    await screen.findByText('83 %');
    fireEvent.click(screen.getByRole('button', { name: /Weekly report/ }));
    const text = (await screen.findByLabelText('report Markdown')) as HTMLTextAreaElement;
    expect(text.value).toMatch(/^# Ratchet — weekly report/);
  });

  it('says so when the statistics cannot be loaded', async () => {
    installFake({ overrides: { 'stats.summary': () => { throw new Error('The store is busy; try again.'); } } });
    render(<DashboardScreen />);
    expect(await screen.findByText('The store is busy; try again.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
