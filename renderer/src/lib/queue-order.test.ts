// Tests for the queue order helpers: the priority that makes a run start next, and the place shown in the runs list.
import { describe, expect, it } from 'vitest';
import { priorityToRunNext, queuePlace } from './queue-order';

const q = (runId: string, priority: number, position: number) => ({
  runId,
  title: runId,
  priority,
  position,
  queuedAt: '2026-11-22T12:00:00.000Z',
  action: 'execute' as const,
});

describe('priorityToRunNext', () => {
  it('puts a run one above every other queued run', () => {
    expect(priorityToRunNext([q('a', 0, 1), q('b', 0, 2), q('c', 0, 3)], 'c')).toBe(1);
    expect(priorityToRunNext([q('a', 5, 1), q('b', -3, 2)], 'b')).toBe(6);
  });

  it('has nothing to do for the run already first, or one not queued', () => {
    expect(priorityToRunNext([q('a', 0, 1), q('b', 0, 2)], 'a')).toBeNull();
    expect(priorityToRunNext([q('a', 0, 1)], 'zzz')).toBeNull();
  });

  it('cannot go above the highest priority', () => {
    expect(priorityToRunNext([q('a', 100, 1), q('b', 100, 2)], 'b')).toBeNull();
    expect(priorityToRunNext([q('a', 99, 1), q('b', 0, 2)], 'b')).toBe(100);
  });
});

describe('queuePlace', () => {
  it('writes ordinals', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 111].map(queuePlace)).toEqual([
      '1st in the queue',
      '2nd in the queue',
      '3rd in the queue',
      '4th in the queue',
      '11th in the queue',
      '12th in the queue',
      '13th in the queue',
      '21st in the queue',
      '22nd in the queue',
      '111th in the queue',
    ]);
  });
});
