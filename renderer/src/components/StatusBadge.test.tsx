// @vitest-environment jsdom
// Run badges: an interrupted run (its process stopped; the work is safe) and a failed one (gave up)
// are told apart at a glance — by colour and by icon, not only by the word.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import type { RunStatus } from '../../../shared/domain';
import { RunStatusBadge } from './StatusBadge';

afterEach(cleanup);

const look = (status: RunStatus) => {
  const { container, unmount } = render(<RunStatusBadge status={status} />);
  const badge = container.querySelector('.badge')!;
  const seen = { tone: [...badge.classList].find((c) => c.startsWith('tone-')), icon: badge.querySelector('svg')?.getAttribute('class') ?? null };
  unmount();
  return seen;
};

describe('RunStatusBadge', () => {
  it('gives interrupted and failed different colours and icons', () => {
    const failed = look('failed');
    const interrupted = look('interrupted');
    expect(failed.tone).not.toBe(interrupted.tone);
    expect(failed.icon).toBeTruthy();
    expect(interrupted.icon).toBeTruthy();
    expect(failed.icon).not.toBe(interrupted.icon);
    // Nor does an interrupted run look paused (which waits for the user with nothing lost either, but on purpose).
    expect(look('paused').tone).not.toBe(interrupted.tone);
  });
});
