// @vitest-environment jsdom
// Tests for the live countdown: it ticks every second and says so when the moment has passed.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { Countdown } from './Countdown';
import { RunStatusBadge } from './StatusBadge';

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-11-22T12:00:00.000Z'));
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('Countdown', () => {
  it('counts down each second to "any moment"', () => {
    render(<Countdown until="2026-11-22T12:01:35.000Z" />);
    expect(screen.getByText('in 1:35')).toBeTruthy();
    act(() => void vi.advanceTimersByTime(5000));
    expect(screen.getByText('in 1:30')).toBeTruthy();
    act(() => void vi.advanceTimersByTime(40_000));
    expect(screen.getByText('in 50 s')).toBeTruthy();
    act(() => void vi.advanceTimersByTime(60_000));
    expect(screen.getByText('any moment')).toBeTruthy();
  });

  it('shows in the badge of a waiting run', () => {
    render(<RunStatusBadge status="waiting" wakeAt="2026-11-22T12:00:58.000Z" />);
    expect(screen.getByText(/waiting/).textContent).toBe('waiting in 58 s');
  });
});
