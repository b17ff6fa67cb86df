// @vitest-environment jsdom
// A running attempt's diff: the change so far, read live, or "no changes yet" — never "Loading the
// diff…" for the attempt's whole length; it follows the agent's work as it goes.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { installFake } from '../test-helpers';
import { AttemptDiff } from './AttemptDiff';

afterEach(cleanup);
// The diff view loads on first use (outside the entry chunk): loaded once here, as the app has it after its first diff.
beforeAll(() => import('./ReviewDiff'), 60_000);

const DIFF =
  'diff --git a/src/health.js b/src/health.js\nnew file mode 100644\n--- /dev/null\n+++ b/src/health.js\n@@ -0,0 +1 @@\n+export const health = 100;\n';

describe('AttemptDiff of a running attempt', () => {
  it('says there is no change yet, then shows the change as the agent works', async () => {
    let diff = '';
    const fake = installFake({ overrides: { 'runs.attemptDiff': ({ against }) => ({ diff, against, fromAttempt: null, live: true }) } });
    const { rerender } = render(<AttemptDiff runId="r" step={1} n={1} stored={null} running target={null} progress={0} />);
    expect(await screen.findByText(/No changes yet/)).toBeTruthy();
    expect(screen.queryByText('Loading the diff…')).toBeNull();
    // The agent's next tool call ends: the diff is read again.
    diff = DIFF;
    rerender(<AttemptDiff runId="r" step={1} n={1} stored={null} running target={null} progress={1} />);
    await waitFor(() => expect(screen.getByRole('region', { name: 'attempt diff' }).textContent).toContain('+export const health = 100;'), { timeout: 4000 });
    expect(screen.getByText(/so far/)).toBeTruthy();
    expect(fake.calls.filter((c) => c.method === 'runs.attemptDiff').length).toBeGreaterThanOrEqual(2);
  });
});

describe("AttemptDiff draws the review's diff view", () => {
  it('shows the attempt’s files with their counts and syntax colours, unified or split, and takes no comment', async () => {
    installFake({
      overrides: {
        'runs.attemptDiff': ({ against }) => ({
          diff: DIFF + 'diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1,2 +1,2 @@\n # x\n-old\n+new\n',
          against,
          fromAttempt: null,
          live: false,
        }),
      },
    });
    render(<AttemptDiff runId="r" step={1} n={1} stored={null} running={false} target={null} />);
    const view = await screen.findByRole('region', { name: 'attempt diff' });
    await waitFor(() => expect(view.querySelector('[aria-label="file src/health.js"]')?.textContent).toContain('added'));
    expect(view.querySelector('[aria-label="file README.md"]')?.textContent).toMatch(/\+1.*−1/);
    expect(view.querySelector('.review-code.diff-add .hljs-keyword')?.textContent).toBe('export');
    expect(screen.getByText(/2 files changed/)).toBeTruthy();
    // Read-only: no line offers a comment, no file a viewed mark.
    expect(screen.queryByRole('button', { name: /^comment on line/ })).toBeNull();
    expect(screen.queryByRole('checkbox')).toBeNull();
    fireEvent.click(screen.getByRole('radio', { name: 'Split' }));
    await waitFor(() => expect(view.querySelector('.review-row.split')).not.toBeNull());
  });

  it('keeps a running attempt’s 10,000-line live diff to the rows in view', async () => {
    const big = Array.from({ length: 10_000 }, (_, i) => `+const v${i} = ${i};`);
    installFake({
      overrides: {
        'runs.attemptDiff': ({ against }) => ({
          diff: ['diff --git a/big.js b/big.js', 'new file mode 100644', '--- /dev/null', '+++ b/big.js', '@@ -0,0 +1,10000 @@', ...big, ''].join('\n'),
          against,
          fromAttempt: null,
          live: true,
        }),
      },
    });
    render(<AttemptDiff runId="r" step={1} n={1} stored={null} running target={null} progress={0} />);
    const view = await screen.findByRole('region', { name: 'attempt diff' });
    // A file this large is folded as the review folds it, and opened on a click: still only the rows in view are drawn.
    fireEvent.click(await screen.findByRole('button', { name: 'Show the diff' }));
    await waitFor(() => expect(view.textContent).toContain('const v0 = 0;'));
    expect(view.querySelectorAll('.review-vrow').length).toBeLessThan(120);
  });
});
