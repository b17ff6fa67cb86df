// @vitest-environment jsdom
// Tests for screens loaded on demand: a loading state while the chunk arrives, and "Try again" after a failed load.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { lazyScreen } from './LazyScreen';

afterEach(cleanup);

describe('lazyScreen', () => {
  it('shows its loading state, then the screen; a failed load offers Try again, which imports afresh', async () => {
    let calls = 0;
    // Each load arrives when the test releases it, so the loading state is seen while the chunk is still on its way.
    let release = () => {};
    const Screen = lazyScreen(async () => {
      calls++;
      await new Promise<void>((r) => (release = r));
      if (calls === 1) throw new Error('Failed to fetch dynamically imported module.');
      return ({ who }: { who: string }) => <h1>Hello {who}</h1>;
    }, 'Loading the dashboard…');
    render(<Screen who="there" />);
    expect(screen.getByRole('status').textContent).toContain('Loading the dashboard…');
    await waitFor(() => expect(calls).toBe(1));
    release();
    await screen.findByText('This screen could not be loaded');
    expect(screen.getByRole('alert').textContent).toContain('Failed to fetch dynamically imported module.');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(calls).toBe(2));
    expect(screen.getByRole('status').textContent).toContain('Loading the dashboard…');
    release();
    expect(await screen.findByRole('heading', { name: 'Hello there' })).toBeTruthy();
    expect(calls).toBe(2);
  });
});
