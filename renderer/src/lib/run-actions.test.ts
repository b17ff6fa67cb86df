// The run actions table: only actions that can work for the run's state, the right one primary.
import { describe, expect, it } from 'vitest';
import type { RunStatus, StatusDocument, StepDoc } from '../../../shared/domain';
import { RUN_STEERING } from '../../../shared/run-steering';
import { runActionsFor } from './run-actions';

const step = (index: number, status: StepDoc['status']): StepDoc => ({
  index,
  title: `s${index}`,
  status,
  commit: status === 'succeeded' ? `c${index}` : null,
  attempts: [],
});
const doc = (status: RunStatus, steps: StepDoc[]): StatusDocument => ({
  id: 'r',
  status,
  reason: null,
  repo: '/r',
  branch: 'b',
  worktree: '/w',
  baseCommit: 'c',
  costUsd: 0,
  steps,
  resumes: [],
});
const none = [step(1, 'pending'), step(2, 'pending')];
const some = [step(1, 'succeeded'), step(2, 'failed')];
/** Step 1 was attempted, nothing committed. */
const tried = [{ ...step(1, 'pending'), attempts: [{ n: 1 } as StepDoc['attempts'][number]] }, step(2, 'pending')];

describe('runActionsFor', () => {
  it.each([
    ['failed', none, 'startAgain', ['startAgain', 'resume', 'revise']],
    ['failed', some, 'retry', ['retry', 'resume', 'startAgain', 'revise']],
    ['cancelled', tried, 'startAgain', ['startAgain', 'resume', 'revise']],
    // Stopped before step 1 began: nothing to resume (issue 34 item 10).
    ['cancelled', none, 'startAgain', ['startAgain', 'revise']],
    ['cancelled', some, 'resume', ['resume', 'startAgain', 'revise']],
    ['interrupted', none, 'resume', ['resume', 'startAgain', 'revise']],
    ['paused', none, 'resume', ['resume', 'startAgain', 'revise']],
    ['waiting', some, 'retryNow', ['retryNow', 'revise', 'stop']],
    ['waiting_approval', none, 'approve', ['approve', 'stop']],
    ['running', some, null, ['revise', 'stop']],
    ['queued', none, null, []],
    ['succeeded', [step(1, 'succeeded')], null, []],
  ] as const)('%s (%#): primary %s', (status, steps, primary, actions) => {
    expect(runActionsFor(doc(status, [...steps]))).toEqual({ primary, actions });
  });

  it('never offers Retry on a run with no committed step (the engine would refuse: "No completed steps found")', () => {
    for (const status of ['failed', 'cancelled', 'paused', 'interrupted'] as const) {
      expect(runActionsFor(doc(status, none)).actions).not.toContain('retry');
    }
  });

  it('offers Run anyway, first, on a run the pre-run check stopped for its environment (the CLI’s --run-anyway), and not on any other failed run', () => {
    const baseline = { ready: false, problem: 'pnpm 9.15.8 is not installed', commit: 'c', setup: null, gates: [], failingTests: [], durationMs: 1, at: '' };
    const env = { copied: [], reused: [], setup: null, fixes: [] };
    const stopped: StatusDocument = { ...doc('failed', none), reasonCode: 'environment_failed', environment: { ...env, baseline } };
    expect(runActionsFor(stopped)).toEqual({ primary: 'runAnyway', actions: ['runAnyway', 'startAgain', 'revise'] });
    // Setup that failed (the baseline ready, or never run) is not something to run anyway.
    expect(runActionsFor({ ...stopped, environment: { ...env, baseline: { ...baseline, ready: true } } }).actions).not.toContain('runAnyway');
    expect(runActionsFor({ ...stopped, environment: undefined }).actions).not.toContain('runAnyway');
    expect(runActionsFor(doc('failed', some)).actions).not.toContain('runAnyway');
  });

  it('leaves the primary role to Raise budget on a run paused for its budget', () => {
    expect(runActionsFor(doc('paused', some), { budgetPause: true })).toEqual({ primary: null, actions: ['resume', 'startAgain', 'revise'] });
  });

  it('offers Stop, Resume and Retry only where the steering table the engine and the team client obey allows them', () => {
    const steers = { stop: 'stop', resume: 'resume', retry: 'retry', retryNow: 'resume', approve: 'resume', runAnyway: 'resume' } as const;
    for (const status of Object.keys(RUN_STEERING) as RunStatus[]) {
      for (const steps of [none, some]) {
        for (const a of runActionsFor(doc(status, steps)).actions) {
          if (a in steers) expect([status, a, RUN_STEERING[status][steers[a as keyof typeof steers]]]).toEqual([status, a, 'yes']);
        }
      }
    }
  });
});
