// @vitest-environment jsdom
// The PR panel: the toggles chosen before Open pull request go with it; then the required check shows pending (never
// green) until the engine's watch sees it pass; a toggle changed later is kept with the run.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { RUN_IDS } from '../../dev/fixtures-runs';
import { installFake } from '../test-helpers';
import { PrPanel } from './PrPanel';

afterEach(() => cleanup());

describe('PrPanel', () => {
  it('opens the pull request with the chosen toggles, shows the required check pending, then passed when the watch sees it', async () => {
    const fake = installFake();
    render(<PrPanel runId={RUN_IDS.health} branch="ratchet/add-health" />);
    const open = await screen.findByRole('button', { name: 'Open pull request' });
    await waitFor(() => expect((open as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Answer review comments' }));
    fireEvent.click(open);
    expect(await screen.findByRole('link', { name: '#42' })).toBeTruthy();
    expect(fake.calls.find((c) => c.method === 'pr.open')?.input).toMatchObject({ runId: RUN_IDS.health, options: { fix: ['ci', 'review'], merge: null } });
    const checks = screen.getAllByTestId('pr-check');
    expect(checks.map((c) => c.textContent)).toEqual(['pending test required', 'pending lint']);
    expect(screen.getByRole('status').textContent).toBe('Waiting for test.');
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Every required check passed on 9f3c2a1b.'), { timeout: 6000 });
    expect(within(screen.getAllByTestId('pr-check')[0]!).getByText('passed')).toBeTruthy();
    expect(screen.getByText('Approved by mara')).toBeTruthy();
    // What the watch last said (the loop's own sentence: a round, a re-run, what merging waits for, how it ended).
    expect(screen.getByTestId('pr-progress').textContent).toBe('#42 is green: every check that counts passed on 9f3c2a1b.');

    fireEvent.click(screen.getByRole('checkbox', { name: 'Merge when green' }));
    await waitFor(() => expect(fake.calls.find((c) => c.method === 'pr.setOptions')?.input).toMatchObject({ fix: ['ci', 'review'], merge: 'squash' }));
    fireEvent.change(screen.getByRole('combobox', { name: 'how to merge' }), { target: { value: 'rebase' } });
    await waitFor(() => expect(fake.calls.filter((c) => c.method === 'pr.setOptions').at(-1)?.input).toMatchObject({ merge: 'rebase' }));
  }, 15_000);

  it('a refusal (no token) is said in the panel, with where to add one', async () => {
    installFake({
      overrides: {
        'pr.open': () => {
          throw Object.assign(new Error('No GitHub token: add one in Settings › GitHub, then try again.'), { code: 'forge_no_token' });
        },
      },
    });
    render(<PrPanel runId={RUN_IDS.health} branch="ratchet/add-health" />);
    const open = await screen.findByRole('button', { name: 'Open pull request' });
    await waitFor(() => expect((open as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(open);
    expect((await screen.findByRole('alert')).textContent).toContain('Settings › GitHub');
  });
});
