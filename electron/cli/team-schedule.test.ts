// Team schedules are DBOS scheduled workflows: `ratchet schedule add … --team <url>` makes one, every worker registers
// its workflow, and DBOS fires each tick once across all of them. Two `ratchet worker` processes (each its own home),
// an every-two-seconds schedule: N ticks start N team runs, one per tick. Needs PostgreSQL (RATCHET_TEST_PG_URL):
// skipped with the reason elsewhere.
import { join } from 'node:path';
import { DBOSClient } from '@dbos-inc/dbos-sdk';
import { describe, expect, it } from 'vitest';
import { startScriptedServer } from '../scripted/server';
import { say } from '../engine/testing/fixture-project';
import { tempDir } from '../engine/testing/temp-repo';
import { SANDBOX_AVAILABLE } from '../engine/testing/sandbox-mode';
import { NO_POSTGRES_REASON, startWorker, teamDatabase, teamRepo, type WorkerProcess } from '../engine/testing/team-fixtures';
import { until } from '../engine/testing/service-calls';
import { TEAM_APP, TeamDb } from '../engine/store/team-db';
import { TEAM_SCHEDULE_WORKFLOW } from '../engine/team/team-schedule';
import { ScheduleDoc } from '../../shared/contract/schedules';
import { cli } from './testing/run-cli';
import { cleanupsAfterEach, NOTHING_WORKFLOW } from './testing/schedule-fixture';

const NO_SANDBOX = SANDBOX_AVAILABLE ? [] : ['--no-sandbox'];

const cleanups = cleanupsAfterEach();

/** Polls an async check (until() takes a synchronous one). */
async function untilAsync<T>(check: () => Promise<T | null | false>, ms: number, what: () => string): Promise<T> {
  let last: T | null | false = null;
  let busy = false;
  await until(
    () => {
      if (!busy) {
        busy = true;
        void check()
          .then((v) => (last = v))
          .finally(() => (busy = false));
      }
      return last;
    },
    { ms, everyMs: 200, describe: what },
  );
  return last as T;
}

describe.skipIf(NO_POSTGRES_REASON)(`team schedules (${NO_POSTGRES_REASON ?? 'PostgreSQL'})`, () => {
  it('`ratchet schedule add --team` makes a DBOS scheduled workflow: with two workers, N ticks start N team runs, one per tick', async () => {
    const db = await teamDatabase({ migrated: true });
    cleanups.push(() => db.drop());
    const api = await startScriptedServer({ script: () => say('Nothing to do.') });
    cleanups.push(() => api.close());
    const repo = teamRepo(NOTHING_WORKFLOW);
    const env = { RATCHET_HOME: join(tempDir('ratchet-home-'), 'home'), ANTHROPIC_API_KEY: 'k' };
    expect((await cli(['trust', repo.repo, '--workflow', repo.workflowFile], env)).code).toBe(0);

    const workers: WorkerProcess[] = [];
    for (let i = 0; i < 2; i++) workers.push(startWorker(db.url, { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: api.url }, NO_SANDBOX));
    cleanups.push(() =>
      Promise.all(
        workers.map((w) => {
          if (w.child.exitCode === null) w.child.kill('SIGTERM');
          return w.exited;
        }),
      ),
    );
    await until(() => workers.every((w) => /taking runs from the team queue/.test(w.output())), {
      ms: 90_000,
      describe: () => workers.map((w) => w.output()).join('\n'),
    });

    const add = await cli(
      ['schedule', 'add', repo.repo, '--workflow', repo.workflowFile, '--cron', '*/2 * * * * *', '--task', 'Nightly', '--json', '--team', db.url],
      env,
    );
    expect(add.code, add.err).toBe(0);
    const s = ScheduleDoc.parse(JSON.parse(add.out));
    expect(s).toMatchObject({ cron: '*/2 * * * * *', task: 'Nightly', paused: false });
    const listed = await cli(['schedule', 'list', '--team', db.url], env);
    expect(listed.out).toContain(s.id);

    const client = await DBOSClient.create({ systemDatabaseUrl: db.url, applicationName: TEAM_APP });
    cleanups.push(() => client.destroy());
    const team = await TeamDb.open(db.url);
    cleanups.push(() => team.close());
    const N = 3;
    const ticks = () => client.listWorkflows({ workflowName: TEAM_SCHEDULE_WORKFLOW, status: 'SUCCESS', loadOutput: true });
    await untilAsync(
      async () => (await ticks()).length >= N,
      60_000,
      () => `${N} ticks fired; workers said:\n${workers.map((w) => w.output()).join('\n')}`,
    );
    const paused = await cli(['schedule', 'pause', s.id, '--team', db.url], env);
    expect(paused.code, paused.err).toBe(0);

    // The team's runs first, then the ticks: every run is the one run of one tick (a tick fired in between has no run read yet).
    const runs = (await team.listRuns(100)).filter((r) => r.title === 'Nightly').map((r) => r.id);
    const fired = await ticks();
    const runOf = new Map(fired.map((w) => [w.workflowID, w.output as string]));
    expect(runs.length).toBeGreaterThanOrEqual(N);
    for (const id of runs) expect([...runOf.values()].filter((r) => r === id)).toHaveLength(1);
    expect(new Set(runOf.values()).size).toBe(runOf.size);
    // One workflow per tick (its id is the schedule's name and the tick's time), and no tick left out.
    const times = [...runOf.keys()].map((id) => Date.parse(id.slice(`sched-${s.id}-`.length))).sort((a, b) => a - b);
    expect(new Set(times).size).toBe(times.length);
    expect((times.at(-1)! - times[0]!) / 2000 + 1).toBe(times.length);
    // Both workers took the schedule's runs from the same queue as any team run.
    const started = await untilAsync(
      async () => {
        const rows = (await team.listRuns(100)).filter((r) => runs.includes(r.id) && r.worker);
        return rows.length === runs.length ? rows : null;
      },
      60_000,
      () => 'each scheduled run taken by a worker',
    );
    expect(started).toHaveLength(runs.length);
  }, 240_000);
});
