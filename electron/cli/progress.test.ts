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

const status = (payload: Record<string, unknown>): EngineEvent => ({ id: 2, runId: 'r1', type: 'run.status', at: '2026-01-01T00:00:00.000Z', payload });
const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d/;

describe('the run waiting', () => {
  const now = Date.parse('2026-01-01T12:00:00.000Z');
  const wakeAt = new Date(now + 95_000).toISOString();

  it('a wait the run sits through in this process (a backoff, the API key on hold) is one of the step’s lines, not "run waiting:" as if the run had ended there', () => {
    for (const reasonCode of ['retry_backoff', 'api_rate_limited']) {
      const line = progressLine(
        status({ status: 'waiting', reason: `The API key is rate-limited until ${wakeAt} (429 on this run)`, reasonCode, wakeAt }),
        3,
        now,
      )!;
      expect(line).toMatch(/^ {2}… waiting until .+ \(in 1 min 35 s\): /);
      expect(line).not.toContain('run waiting');
      expect(line).not.toMatch(ISO);
    }
  });

  it('a run that ends waiting (parked until its retry) says so, with the time in words rather than an ISO stamp', () => {
    const line = progressLine(status({ status: 'waiting', reason: `step 2: retry later (until ${wakeAt})`, reasonCode: 'retry_parked', wakeAt }), 3, now)!;
    expect(line).toMatch(/^run waiting: step 2: retry later \(until \d.+ \(in 1 min 35 s\)\)$/);
    expect(line).not.toMatch(ISO);
  });
});
