// @vitest-environment jsdom
// A queued run's screen says where it stands in the queue and lets the user run it next, start it later, or cancel it.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { installFake } from '../test-helpers';
import { RunScreen } from '../screens/RunScreen';

afterEach(cleanup);

function queueTwo() {
  const fake = installFake();
  const [a, b] = [...fake.runs.values()];
  for (const r of [a!, b!]) {
    r.summary = { ...r.summary, status: 'queued' };
    r.doc = { ...r.doc, status: 'queued' };
  }
  return { fake, a: a!, b: b! };
}

describe('QueueControls', () => {
  it('shows the place in the queue, runs it next, and lets it start later', async () => {
    const { a, b } = queueTwo();
    render(<RunScreen runId={b.doc.id} step={null} />);
    const group = await screen.findByRole('group', { name: 'queue' });
    const ahead = a.summary.createdAt <= b.summary.createdAt;
    expect(group.textContent).toContain(ahead ? 'Queued: 1 run ahead' : 'Queued: next to start');
    expect(group.textContent).toMatch(/of 2 slots in use/);
    if (ahead) {
      fireEvent.click(screen.getByRole('button', { name: 'Run next' }));
      await waitFor(() => expect(screen.getByRole('group', { name: 'queue' }).textContent).toContain('Queued: next to start'));
      expect(screen.getByRole('group', { name: 'queue' }).textContent).toContain('Priority 1');
    }
    // First in the queue: no Run next; Start later lowers its priority.
    expect(screen.queryByRole('button', { name: 'Run next' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Start later' }));
    await waitFor(() => expect(screen.getByRole('group', { name: 'queue' }).textContent).toContain('Queued: 1 run ahead'));
  });

  it('takes the run out of the queue', async () => {
    const { fake, b } = queueTwo();
    render(<RunScreen runId={b.doc.id} step={null} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(fake.runs.get(b.doc.id)!.summary.status).toBe('cancelled'));
    await waitFor(() => expect(screen.queryByRole('group', { name: 'queue' })).toBeNull());
  });
});
