// @vitest-environment jsdom
// After a succeeded run: copy the branch, open the worktree (or the cd command in a browser), a previewed merge, push and the pull-request link.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { APP_INFO } from '../../dev/fixtures-misc';
import { makeRuns, RUN_IDS } from '../../dev/fixtures-runs';
import { installFake } from '../test-helpers';
import { RunScreen } from '../screens/RunScreen';
import { useUi } from '../stores/ui';
import { SuccessActions } from './SuccessActions';

afterEach(() => cleanup());

describe('SuccessActions', () => {
  it('is shown by the run screen for a succeeded run only', async () => {
    installFake();
    render(<RunScreen runId={RUN_IDS.health} step={null} />);
    expect(await screen.findByRole('region', { name: 'next steps' })).toBeTruthy();
    cleanup();
    installFake();
    render(<RunScreen runId={RUN_IDS.failed} step={null} />);
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('region', { name: 'next steps' })).toBeNull();
  });

  it('copies the branch, previews the merge, fast-forwards with the previewed base tip, and pushes with a pull-request link', async () => {
    const fake = installFake();
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    render(<SuccessActions runId={RUN_IDS.health} branch="ratchet/add-health" worktree="/w/add-health" />);
    fireEvent.click(screen.getByRole('button', { name: 'copy the branch name' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('ratchet/add-health'));
    fireEvent.click(await screen.findByRole('button', { name: 'Preview merge' }));
    const preview = screen.getByLabelText('merge preview');
    expect(within(preview).getByText(/step 3: Emit a died signal/)).toBeTruthy();
    expect(preview.textContent).toContain('2 files changed');
    fireEvent.click(screen.getByRole('button', { name: 'Fast-forward main' }));
    // It moves the user's own branch: it asks first, saying what moves.
    const confirm = await screen.findByRole('group', { name: 'confirm the merge' });
    expect(fake.calls.some((c) => c.method === 'runs.merge')).toBe(false);
    expect(confirm.textContent).toMatch(/Move main/);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('group', { name: 'confirm the merge' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Fast-forward main' }));
    fireEvent.click(within(screen.getByRole('group', { name: 'confirm the merge' })).getByRole('button', { name: 'Fast-forward main' }));
    expect(await screen.findByText(/main is now at/)).toBeTruthy();
    expect(fake.calls.find((c) => c.method === 'runs.merge')?.input).toMatchObject({
      runId: RUN_IDS.health,
      mode: 'ff-only',
      expectBaseTip: expect.stringMatching(/^3c9e0b1f/),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Push to origin' }));
    const link = await screen.findByRole('link', { name: 'Open a pull request' });
    expect(link.getAttribute('href')).toContain('/compare/main...');
  });

  it('refuses to merge with the reason when the preview is blocked', async () => {
    installFake({
      overrides: {
        'runs.mergePreview': () => ({
          base: 'main',
          branch: 'b',
          baseTip: 'a'.repeat(40),
          branchTip: 'b'.repeat(40),
          commits: [{ sha: 'c'.repeat(40), subject: 'step 1: x' }],
          diffstat: '',
          canFastForward: true,
          conflicts: [],
          checkout: { path: '/repo', dirty: true },
          upToDate: false,
          blocked: 'main is checked out in /repo with uncommitted changes; commit or stash them there first, so the merge cannot touch your work.',
          remote: null,
        }),
      },
    });
    render(<SuccessActions runId={RUN_IDS.health} branch="b" worktree="/w" />);
    expect((await screen.findByRole('alert')).textContent).toContain('uncommitted changes');
    expect((screen.getByRole('button', { name: 'Fast-forward main' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Merge commit' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(/has no remote/)).toBeTruthy();
  });

  it('offers the cd command in the browser host, and terminal/editor buttons in the app', async () => {
    const fake = installFake();
    useUi.setState({ appInfo: { ...APP_INFO, host: 'headless' } });
    render(<SuccessActions runId={RUN_IDS.health} branch="b" worktree="/w/x" />);
    expect(screen.getByText('cd /w/x')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Open in terminal' })).toBeNull();
    cleanup();
    useUi.setState({ appInfo: APP_INFO });
    render(<SuccessActions runId={RUN_IDS.health} branch="b" worktree="/w/x" />);
    fireEvent.click(screen.getByRole('button', { name: 'Open in terminal' }));
    await waitFor(() => expect(fake.calls.find((c) => c.method === 'runs.openWorktree')?.input).toEqual({ runId: RUN_IDS.health, with: 'terminal' }));
  });

  it('for a run started without checks: says "unchecked" by the status, reviewing comes first, and no merge button is the primary action (issue 29 item 1)', async () => {
    const health = makeRuns(Date.now()).find((r) => r.doc.id === RUN_IDS.health)!.doc;
    installFake({ overrides: { 'runs.get': () => ({ ...health, checked: false }) } });
    render(<RunScreen runId={RUN_IDS.health} step={null} />);
    const region = await screen.findByRole('region', { name: 'next steps' });
    expect(document.querySelector('[data-unchecked]')?.textContent).toBe('unchecked');
    expect(within(region).getByRole('note').textContent).toMatch(/Unchecked: .*no gate tested its work.*before\s+you merge/);
    const ff = await within(region).findByRole('button', { name: 'Fast-forward main' });
    expect(ff.className).not.toContain('primary');
    fireEvent.click(ff);
    expect((await screen.findByRole('group', { name: 'confirm the merge' })).textContent).toContain('No gate checked these commits.');
  });

  it('a checked run shows no "unchecked" and keeps Fast-forward as the primary action', async () => {
    installFake();
    render(<RunScreen runId={RUN_IDS.health} step={null} />);
    const region = await screen.findByRole('region', { name: 'next steps' });
    expect(document.querySelector('[data-unchecked]')).toBeNull();
    expect((await within(region).findByRole('button', { name: 'Fast-forward main' })).className).toContain('primary');
  });
});
