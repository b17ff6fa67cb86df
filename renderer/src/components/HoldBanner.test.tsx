// @vitest-environment jsdom
// The shared 429 hold is shown above every screen while in force, names the run that was limited, and follows status changes live.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import type { RunQueueDoc } from '../../../shared/contract';
import { installFake } from '../test-helpers';
import { App } from '../App';
import { useQueue } from '../stores/queue';

afterEach(cleanup);

describe('HoldBanner', () => {
  it('says every run using the key waits, until when, and which run was limited; it goes when the hold is lifted', async () => {
    let queue: RunQueueDoc = { concurrency: 2, active: [], queued: [], holds: [] };
    const fake = installFake({ overrides: { 'runs.queue': () => queue } });
    const run = [...fake.runs.values()][0]!.summary;
    render(<App />);
    await waitFor(() => expect(screen.queryByRole('status', { name: 'rate limit hold' })).toBeNull());
    const until = new Date(Date.now() + 60_000).toISOString();
    queue = { ...queue, holds: [{ until, runId: run.id, reason: 'rate limited (429) with retry-after 60 s' }] };
    // A run going to `waiting` is what a hold does: the banner appears without a reload.
    fake.engineEvent(run.id, 'run.status', { status: 'waiting', reason: 'rate limited', wakeAt: until });
    const banner = await screen.findByRole('status', { name: 'rate limit hold' });
    expect(banner.textContent).toMatch(/The API key is rate-limited\. Every run using it waits until/);
    expect(banner.textContent).toContain('rate limited (429) with retry-after 60 s');
    expect(banner.querySelector(`a[href="#/runs/${encodeURIComponent(run.id)}"]`)).not.toBeNull();
    queue = { ...queue, holds: [] };
    fake.engineEvent(run.id, 'run.status', { status: 'running', reason: null, wakeAt: null });
    await waitFor(() => expect(screen.queryByRole('status', { name: 'rate limit hold' })).toBeNull());
  });

  it('shows nothing for a hold already over', async () => {
    installFake({
      overrides: {
        'runs.queue': () => ({
          concurrency: 2,
          active: [],
          queued: [],
          holds: [{ until: new Date(Date.now() - 1000).toISOString(), runId: null, reason: 'x' }],
        }),
      },
    });
    render(<App />);
    // The banner has the queue with the (past) hold, and still shows nothing.
    await waitFor(() => expect(useQueue.getState().doc?.holds).toHaveLength(1));
    expect(screen.queryByRole('status', { name: 'rate limit hold' })).toBeNull();
  });
});
