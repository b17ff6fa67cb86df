// Run groups: every status has one, the list's sections keep its order, the title count round-trips.
import { describe, expect, it } from 'vitest';
import { RUN_STATUSES } from './domain';
import { countFromTitle, groupRuns, needsYouCount, runGroup, titleWithCount } from './run-groups';

describe('run groups', () => {
  it('puts every status in a group, the runs that wait for the user first', () => {
    for (const s of RUN_STATUSES) expect(runGroup(s)).toBeTruthy();
    const runs = [
      { id: 'a', status: 'succeeded' as const },
      { id: 'b', status: 'paused' as const },
      { id: 'c', status: 'queued' as const },
      { id: 'd', status: 'running' as const },
      { id: 'e', status: 'waiting_approval' as const },
    ];
    expect(groupRuns(runs).map((g) => [g.group, g.runs.map((r) => r.id)])).toEqual([
      ['needs_you', ['b', 'e']],
      ['active', ['d']],
      ['queued', ['c']],
      ['done', ['a']],
    ]);
    expect(needsYouCount(runs)).toBe(2);
  });

  it('writes and reads the count in the window title', () => {
    expect(titleWithCount('Ratchet', 0)).toBe('Ratchet');
    expect(titleWithCount('Ratchet', 3)).toBe('(3) Ratchet');
    expect(countFromTitle('(3) Ratchet')).toBe(3);
    expect(countFromTitle('Ratchet')).toBe(0);
  });

  it('counts a failed run as needing you until a newer run of the same task replaces it (issue 20 item 21)', () => {
    const runs = [
      { id: 'new', status: 'running' as const, repo: '/r', title: 'Add health', createdAt: '2026-11-22T11:00:00Z' },
      { id: 'f1', status: 'failed' as const, repo: '/r', title: 'Add health', createdAt: '2026-11-22T10:00:00Z' },
      { id: 'f2', status: 'failed' as const, repo: '/r', title: 'Fix the parser', createdAt: '2026-11-22T09:00:00Z' },
      { id: 'f3', status: 'failed' as const, repo: '/other', title: 'Add health', createdAt: '2026-11-22T08:00:00Z' },
      { id: 'c', status: 'cancelled' as const, repo: '/r', title: 'Stopped', createdAt: '2026-11-22T07:00:00Z' },
    ];
    const groups = Object.fromEntries(groupRuns(runs).map((g) => [g.group, g.runs.map((r) => r.id)]));
    // f1 was started again (run "new"): that one is where the task stands now.
    expect(groups.needs_you).toEqual(['f2', 'f3']);
    expect(groups.done).toEqual(['f1', 'c']);
    expect(needsYouCount(runs)).toBe(2);
    expect(runGroup('failed')).toBe('needs_you');
  });
});
