// @vitest-environment jsdom
// A running attempt's diff: the change so far, read live, or "no changes yet" — never "Loading the
// diff…" for the attempt's whole length; it follows the agent's work as it goes.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { installFake } from '../test-helpers';
import { AttemptDiff } from './AttemptDiff';

afterEach(cleanup);

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
    await waitFor(() => expect(screen.getByRole('log', { name: 'diff' }).textContent).toContain('+export const health = 100;'), { timeout: 4000 });
    expect(screen.getByText(/so far/)).toBeTruthy();
    expect(fake.calls.filter((c) => c.method === 'runs.attemptDiff').length).toBeGreaterThanOrEqual(2);
  });
});
