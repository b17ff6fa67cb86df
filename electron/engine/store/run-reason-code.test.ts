// A run's reason code is kept with its status: written by the one status write, read back in the run's row, its status
// document, its list item and its run.status event; migration 17 adds it to a store written before it.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { budgetCapReason, checkBudget } from '../policy/budget';
import { applyRunCommands } from '../run/apply-run-commands';
import { runLife } from '../run/run-machine';
import { listItem } from '../lifecycle/run-list';
import { statusDocument } from '../run/status-document';
import { tempDir } from '../testing/temp-repo';
import { migrate } from './migration';
import { MIGRATIONS } from './migrations';
import { openDatabase } from './open-store';
import { Store } from './store';
import { seedRun } from './testing/seed-run';

const NOW = new Date('2026-01-01T00:00:00Z');

describe('a run’s reason code in the store', () => {
  it('round-trips with the status: row, status document, list item, summary and event; a status without one clears it', () => {
    const store = new Store(openDatabase(tempDir()).db);
    const runId = seedRun(store);
    applyRunCommands(store, runId, runLife(runId, { type: 'planDrafted' }, NOW));
    const run = store.getRun(runId)!;
    expect(run.reason_code).toBe('plan_awaiting_approval');
    expect(statusDocument(store, run).reasonCode).toBe('plan_awaiting_approval');
    expect(listItem(run).reasonCode).toBe('plan_awaiting_approval');
    expect(store.listRunSummaries({ limit: 5 })[0]?.reason_code).toBe('plan_awaiting_approval');
    expect(store.eventsSince(runId).at(-1)).toMatchObject({
      type: 'run.status',
      payload: { status: 'waiting_approval', reasonCode: 'plan_awaiting_approval' },
    });

    applyRunCommands(store, runId, runLife(runId, { type: 'planApproved' }, NOW));
    store.setRunStatus(runId, 'running', null);
    expect(store.getRun(runId)?.reason_code).toBeNull();
    expect(store.eventsSince(runId).at(-1)).toMatchObject({ type: 'run.status', payload: { status: 'running', reasonCode: null } });
  });

  it('migration 17 adds the column to a store at schema 16, back-fills the codes its old rows’ reasons and statuses say exactly, and runs once', () => {
    const db = new Database(join(tempDir(), 'v16.db'));
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version <= 16),
    );
    expect(db.pragma('user_version', { simple: true })).toBe(16);
    // Rows as the Ratchet of schema 16 wrote them: a status and its reason, nothing more.
    const old = new Store(db, () => NOW);
    const facts = { taskUsd: 1, dailyUsd: 10, alertAt: 0.8, taskSpent: 1.02, daySpent: 3, alerted: { task: false, daily: false }, runId: 'r' };
    const task = checkBudget(facts);
    const daily = checkBudget({ ...facts, taskUsd: null, daySpent: 12 });
    const rows: Array<[string, string | null, string | null]> = [
      ['paused', task.ok ? '' : task.reason, 'task_budget'],
      ['paused', budgetCapReason('task', facts, 'stopped before a call'), 'task_budget'],
      ['waiting', daily.ok ? '' : daily.reason, 'daily_budget'],
      ['waiting_approval', 'The agent drafted this plan; nothing runs until you approve it.', 'plan_awaiting_approval'],
      // A budget's words in a run that is not stopped by it, and other reasons: no code (the app reads their text).
      ['failed', 'step 1 failed: task budget of $1.00 reached', null],
      ['paused', 'Plan approved; resume to start it.', null],
      ['succeeded', null, null],
    ];
    const ids = rows.map(([status, reason]) => {
      const id = seedRun(old);
      db.prepare('UPDATE runs SET status = ?, reason = ? WHERE id = ?').run(status, reason, id);
      return id;
    });
    // Later migrations apply too; 17 is the one this test is about.
    expect(migrate(db, MIGRATIONS)).toContain(17);
    const store = new Store(db, () => NOW);
    expect(ids.map((id) => store.getRun(id)?.reason_code ?? null)).toEqual(rows.map((r) => r[2]));
    expect(migrate(db, MIGRATIONS)).toEqual([]);
    // Merged after a higher-numbered migration, it still applies once (its present() sees the column).
    expect(MIGRATIONS.find((m) => m.version === 17)?.present?.(db)).toBe(true);
    db.close();
  });
});
