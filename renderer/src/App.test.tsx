// @vitest-environment jsdom
// The app shell: the window title counts the runs that need the user, live as their status changes.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, waitFor } from '@testing-library/react';
import { needsYouCount } from '../../shared/run-groups';
import { installFake } from './test-helpers';
import { App } from './App';

afterEach(cleanup);

describe('App', () => {
  it('puts the count of runs that need the user in the window title, and follows it live', async () => {
    const fake = installFake();
    const summaries = [...fake.runs.values()].map((r) => r.summary);
    const expected = needsYouCount(summaries);
    expect(expected).toBeGreaterThan(0);
    // Failed runs are the user's to look at too.
    expect(expected).toBe(summaries.filter((s) => ['paused', 'waiting_approval', 'interrupted', 'failed'].includes(s.status)).length);
    render(<App />);
    await waitFor(() => expect(document.title).toBe(`(${expected}) Ratchet`));
    // One of them is resumed: the count drops at once.
    const waiting = summaries.find((s) => s.status === 'paused' || s.status === 'waiting_approval' || s.status === 'interrupted')!;
    fake.engineEvent(waiting.id, 'run.status', { status: 'running', reason: null, wakeAt: null });
    await waitFor(() => expect(document.title).toBe(expected - 1 > 0 ? `(${expected - 1}) Ratchet` : 'Ratchet'));
  });
});
