// The run's status changes only as the transition table allows, and only through the store's one write.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUN_STATUSES } from '../../../shared/domain';
import { tempDir } from '../testing/temp-repo';
import { openDatabase } from './open-store';
import { Store } from './store';
import { seedRun } from './testing/seed-run';
import { canChangeRunStatus, IllegalRunTransition, RUN_TRANSITIONS } from './run-transitions';

const ELECTRON = join(__dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(p);
    return p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : [];
  });
}

describe('the run transition table', () => {
  it('names every status, and a succeeded run runs again only for a review round (never waits, pauses or fails without running)', () => {
    expect(Object.keys(RUN_TRANSITIONS).sort()).toEqual([...RUN_STATUSES].sort());
    expect([...RUN_TRANSITIONS.succeeded].sort()).toEqual(['queued', 'running']);
    expect(canChangeRunStatus('succeeded', 'paused')).toBe(false);
    expect(canChangeRunStatus('paused', 'paused')).toBe(true);
    expect(canChangeRunStatus('running', 'waiting')).toBe(true);
    expect(canChangeRunStatus('waiting_approval', 'running')).toBe(false);
  });

  it('the store refuses an illegal change loudly and writes nothing, not even an event', () => {
    const store = new Store(openDatabase(tempDir()).db, () => new Date('2026-01-01T00:00:00Z'));
    const runId = seedRun(store);
    store.setRunStatus(runId, 'running', null);
    store.setRunStatus(runId, 'succeeded', null, { finished: true });
    const events: string[] = [];
    store.onEvent((e) => events.push(e.type));
    expect(() => store.setRunStatus(runId, 'waiting', null)).toThrow(IllegalRunTransition);
    expect(() => store.setRunStatus(runId, 'paused', 'x')).toThrow(/may not go from succeeded to paused/);
    expect(store.getRun(runId)?.status).toBe('succeeded');
    expect(events).toEqual([]);
    // Putting a run back as it was kept (recover) is not one of its changes.
    store.restoreRunStatus(runId, 'paused', 'as kept in git');
    expect(store.getRun(runId)).toMatchObject({ status: 'paused', reason: 'as kept in git' });
  });

  it('no product module writes a run status except the store’s one write', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(ELECTRON)) {
      const rel = relative(ELECTRON, file).replace(/\\/g, '/');
      const text = readFileSync(file, 'utf8');
      // SQL that sets the runs table's status: only the store's writeRunStatus (and migrations, which shape old rows).
      const sql = /UPDATE\s+runs\s+SET\s(?:(?!\bWHERE\b)[^`'"])*\bstatus\s*=/i.test(text);
      if (sql && rel !== 'engine/store/store-base.ts' && !rel.startsWith('engine/store/migrations/') && !rel.includes('/testing/'))
        offenders.push(`${rel}: UPDATE runs SET status`);
      // Restoring a status past the table is for rebuilding a run as git kept it, and for test fixtures.
      if (/\.restoreRunStatus\(/.test(text) && rel !== 'engine/lifecycle/run-git-recover.ts' && !rel.includes('/testing/'))
        offenders.push(`${rel}: restoreRunStatus`);
    }
    expect(offenders).toEqual([]);
    const base = readFileSync(join(ELECTRON, 'engine/store/store-base.ts'), 'utf8');
    expect(base.match(/UPDATE runs SET status/g)).toHaveLength(1);
  });

  it('only the run machine’s applier asks the store for a status change: every other module feeds the machine an event', () => {
    const callers: string[] = [];
    for (const file of sourceFiles(ELECTRON)) {
      const rel = relative(ELECTRON, file).replace(/\\/g, '/');
      // Test fixtures build histories by hand; the store's own definition is not a call.
      if (rel.includes('/testing/')) continue;
      if (/\.setRunStatus\s*\(/.test(readFileSync(file, 'utf8'))) callers.push(rel);
    }
    expect(callers).toEqual(['engine/run/apply-run-commands.ts']);
  });
});
