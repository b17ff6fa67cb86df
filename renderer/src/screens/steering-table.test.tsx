// @vitest-environment jsdom
// One steering table, three users: the app offers Stop, Resume, Retry and "Raise budget and continue" on a local run
// (run-actions.ts, RaiseBudget.tsx) and a team run (TeamRunScreen.tsx) only where shared/run-steering.ts allows them,
// the table the local engine and the team client refuse by. Each verdict is taken out of the table in turn: an app that
// decided from status strings of its own would still offer the action, and this test fails.
import { describe, expect, it } from 'vitest';
import type { RunReasonCode, RunStatus, StatusDocument } from '../../../shared/domain';
import { RUN_STEERING, type SteerAction, type Steer } from '../../../shared/run-steering';
import type { TeamRunItem } from '../../../shared/team';
import { runActionsFor, type RunAction } from '../lib/run-actions';
import { pausedForBudget } from './RaiseBudget';
import { teamActions, teamBudgetPause } from './TeamRunScreen';

const doc = (status: RunStatus, reasonCode: RunReasonCode | null = null): StatusDocument => ({
  id: 'r',
  status,
  reason: null,
  reasonCode,
  repo: '/r',
  branch: 'b',
  worktree: '/w',
  baseCommit: 'c',
  costUsd: 0,
  steps: [{ index: 1, title: 's1', status: 'succeeded', commit: 'c1', attempts: [] }],
  resumes: [],
});
const item = (status: RunStatus, reasonCode: RunReasonCode | null = null) => ({ status, reasonCode }) as TeamRunItem;

/** What the app offers for a run in `status` that the action needs: every control that would carry it out. */
function offered(status: RunStatus, action: SteerAction): boolean[] {
  const local: Record<SteerAction, RunAction[]> = { stop: ['stop'], resume: ['resume', 'retryNow', 'approve'], retry: ['retry'], raiseBudget: [] };
  const codes: RunReasonCode[] = ['task_budget', 'daily_budget'];
  const localActions = runActionsFor(doc(status)).actions;
  return [
    ...local[action].map((a) => localActions.includes(a)),
    ...(action === 'raiseBudget' || action === 'resume' ? codes.map((c) => pausedForBudget(doc(status, c))) : []),
    ...(action === 'raiseBudget' || action === 'resume' ? codes.map((c) => teamBudgetPause(item(status, c))) : []),
    ...(action === 'raiseBudget' ? [] : [teamActions(item(status)).includes(action as 'stop' | 'resume' | 'retry')]),
  ];
}

describe('the app steers by the steering table', () => {
  it('offers each action somewhere, and nothing once the table takes the verdict away', () => {
    let checked = 0;
    for (const status of Object.keys(RUN_STEERING) as RunStatus[]) {
      const row = RUN_STEERING[status] as Record<SteerAction, Steer>;
      for (const action of Object.keys(row) as SteerAction[]) {
        if (row[action] !== 'yes') {
          expect(offered(status, action), `${action} offered on a ${status} run the table refuses`).not.toContain(true);
          continue;
        }
        if (!offered(status, action).includes(true)) continue;
        checked += 1;
        const kept = row[action];
        try {
          row[action] = 'over';
          expect(offered(status, action), `${action} still offered on a ${status} run once the table refuses it`).not.toContain(true);
        } finally {
          row[action] = kept;
        }
      }
    }
    // Stop, Resume, Retry and Raise budget each reach the test through some status (not a vacuous pass).
    expect(checked).toBeGreaterThanOrEqual(8);
  });
});
