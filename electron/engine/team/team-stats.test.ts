import { describe, expect, it } from 'vitest';
import type { StatusDocument } from '../../../shared/domain';
import { teamStats } from './team-stats';

const attempt = (n: number, outcome: string, errorClass: string | null, costUsd: number) => ({
  n,
  outcome,
  errorClass,
  model: 'm',
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd,
  decision: null,
  fingerprint: null,
  round: 0,
});
const doc = (attempts: ReturnType<typeof attempt>[][]) =>
  ({ steps: attempts.map((a, i) => ({ index: i + 1, title: `s${i + 1}`, status: 'succeeded', commit: null, attempts: a })) }) as unknown as StatusDocument;

describe('teamStats', () => {
  it("counts the last N days' runs, what retries cost and bought, the reasons and each worker's share", () => {
    const now = new Date('2026-11-27T12:00:00Z');
    const s = teamStats(
      [
        {
          status: 'succeeded',
          worker: 'w1',
          createdAt: '2026-11-27T10:00:00Z',
          costUsd: 1.5,
          doc: doc([[attempt(1, 'failed', 'test_failure', 0.5), attempt(2, 'passed', null, 0.25)], [attempt(1, 'passed', null, 0.75)]]),
        },
        {
          status: 'failed',
          worker: 'w2',
          createdAt: '2026-11-26T10:00:00Z',
          costUsd: 1,
          doc: doc([[attempt(1, 'failed', 'compilation_error', 0.5), attempt(2, 'failed', 'test_failure', 0.5)]]),
        },
        { status: 'running', worker: 'w1', createdAt: '2026-11-27T11:00:00Z', costUsd: null, doc: null },
        // Older than the window: not counted.
        { status: 'succeeded', worker: 'w3', createdAt: '2026-11-01T10:00:00Z', costUsd: 9, doc: doc([[attempt(1, 'passed', null, 9)]]) },
      ],
      7,
      now,
    );
    expect(s).toMatchObject({ runs: 3, succeeded: 1, failed: 1, open: 1, attempts: 5, retries: 2, retriesThatPassed: 1, retryCostUsd: 0.75, costUsd: 2.5 });
    expect(s.reasons).toEqual([
      { errorClass: 'test_failure', attempts: 2 },
      { errorClass: 'compilation_error', attempts: 1 },
    ]);
    expect(s.byWorker).toEqual([
      { worker: 'w1', runs: 2, succeeded: 1, costUsd: 1.5 },
      { worker: 'w2', runs: 1, succeeded: 0, costUsd: 1 },
    ]);
  });
});
