// The CLI's progress lines for the pre-run check: "not ready" says why, never as tests already failing (issue 29, 6).
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../engine/store/store';
import { progressLine } from './progress';

const finished = (payload: Record<string, unknown>): EngineEvent => ({
  id: 1,
  runId: 'r1',
  type: 'baseline.finished',
  at: '2026-01-01T00:00:00.000Z',
  payload,
});

describe('the baseline line', () => {
  it('ready: the tests already failing counted', () => {
    expect(progressLine(finished({ ready: true, problem: null, failingTests: ['test: a'], durationMs: 2200 }), 1)).toBe(
      '  baseline on the base commit: ready, 1 already failing (2.2 s)',
    );
  });

  it('not ready: what cannot run, not "1 already failing"', () => {
    const line = progressLine(
      finished({
        ready: false,
        problem:
          'The project is not ready to test: on the base commit, before any change, gate `test` (`pnpm test`) fails with missing dependency: pnpm 9.15.8 is not installed where corepack keeps it',
        failingTests: ['test: fails (pnpm 9.15.8 is not installed)'],
        durationMs: 2200,
      }),
      1,
    );
    expect(line).toMatch(/^ {2}baseline on the base commit: not ready \(2\.2 s\): The project is not ready to test: .*gate `test`/);
    expect(line).not.toContain('already failing');
  });
});
