// Team mode through the CLI: Stop, Resume and Raise budget on a team run (mid-step, right after Stop, before any worker
// took it, paused for its task budget) — none of them writes the team's status. The set-up is in
// testing/team-run-fixture.ts; the other team-run tests are in team-run.test.ts and team-run-workers.test.ts.
// Needs PostgreSQL (RATCHET_TEST_PG_URL; .ci/run starts one): skipped with the reason elsewhere.
import { describe, expect, it } from 'vitest';
import { sh } from '../engine/testing/temp-repo';
import { NO_POSTGRES_REASON } from '../engine/testing/team-fixtures';
import { cli } from './testing/run-cli';
import { cleanups, setUp, WORKFLOW, teamRunFixture } from './testing/team-run-fixture';

teamRunFixture();

describe.skipIf(NO_POSTGRES_REASON)(`team runs (${NO_POSTGRES_REASON ?? 'PostgreSQL'})`, () => {
  it('Stop ends a team run mid-step (cancelled, the attempt kept); Resume puts it back on the queue and it goes on to succeed', async () => {
    const t = await setUp(WORKFLOW(3), 700);
    t.worker();
    const r = await cli(['run', t.repo.repo, '--workflow', t.repo.workflowFile, '--yes', '--detach', '--team', t.db.url], t.local);
    const id = r.out.trim();
    await t.until(id, (d) => d.status === 'running' && d.steps.some((x) => x.status === 'running'));
    const stopped = await cli(['stop', id, '--team', t.db.url], t.local);
    expect(stopped.code, stopped.err).toBe(0);
    const cancelled = await t.until(id, (d) => d.status === 'cancelled' && !d.steps.some((x) => x.status === 'running'));
    expect(cancelled.status).toBe('cancelled');
    const resumed = await cli(['resume', id, '--team', t.db.url], t.local);
    expect(resumed.code, resumed.err).toBe(0);
    const done = await t.until(id, (d) => d.status === 'succeeded');
    expect(done.status).toBe('succeeded');
    // Each step once (a stop mid-attempt keeps the attempt's unfinished work in a rescue commit between, as locally).
    const subjects = sh(t.repo.remote, 'log', '--format=%s', `main..${done.branch}`).split('\n');
    expect(
      subjects.filter((x) => !x.startsWith('rescue:')),
      subjects.join('\n'),
    ).toEqual(['step 3: Step number 3', 'step 2: Step number 2', 'step 1: Step number 1']);
    expect(done.steps.flatMap((x) => x.attempts.map((a) => a.outcome)).filter((o) => o === 'passed')).toHaveLength(3);
  }, 120_000);

  it('Resume right after Stop, with no wait for the worker to let go of the run: it goes on and succeeds, each step once', async () => {
    const t = await setUp(WORKFLOW(2), 700);
    t.worker();
    const r = await cli(['run', t.repo.repo, '--workflow', t.repo.workflowFile, '--yes', '--detach', '--team', t.db.url], t.local);
    const id = r.out.trim();
    await t.until(id, (d) => d.status === 'running' && d.steps.some((x) => x.status === 'running'));
    const stopped = await cli(['stop', id, '--team', t.db.url], t.local);
    expect(stopped.code, stopped.err).toBe(0);
    // At once: the worker may still be stopping the attempt and pushing its state.
    const resumed = await cli(['resume', id, '--team', t.db.url], t.local);
    expect(resumed.code, resumed.err).toBe(0);
    const done = await t.until(id, (d) => ['succeeded', 'failed'].includes(d.status));
    expect(done.status, JSON.stringify(done.steps.map((x) => x.attempts.map((a) => a.outcome)))).toBe('succeeded');
    const subjects = sh(t.repo.remote, 'log', '--format=%s', `main..${done.branch}`).split('\n');
    expect(
      subjects.filter((x) => !x.startsWith('rescue:')),
      subjects.join('\n'),
    ).toEqual(['step 2: Step number 2', 'step 1: Step number 1']);
  }, 120_000);

  it("Stop and Resume write no team status: the row keeps what the run's workflow projected, the list reads DBOS beside it", async () => {
    const t = await setUp(WORKFLOW(1));
    const id = (await cli(['run', t.repo.repo, '--workflow', t.repo.workflowFile, '--yes', '--detach', '--team', t.db.url], t.local)).out.trim();
    const pgc = new (await import('pg')).default.Client({ connectionString: t.db.url });
    await pgc.connect();
    cleanups.push(() => pgc.end());
    const row = async () =>
      (await pgc.query<{ status: string; reason_code: string | null }>('SELECT status, reason_code FROM ratchet.runs WHERE id = $1', [id])).rows[0];
    // No worker yet: Stop takes it out of the queue, Resume puts it back; neither writes the row's status.
    expect((await cli(['stop', id, '--team', t.db.url], t.local)).code).toBe(0);
    expect(await t.status(id)).toMatchObject({ status: 'cancelled', reasonCode: 'removed_from_queue' });
    expect(await row()).toEqual({ status: 'queued', reason_code: null });
    expect((await cli(['resume', id, '--team', t.db.url], t.local)).code).toBe(0);
    expect(await t.status(id)).toMatchObject({ status: 'queued', reasonCode: 'waiting_for_slot' });
    expect(await row()).toEqual({ status: 'queued', reason_code: null });
    // The workflow, on a worker, writes it.
    t.worker();
    expect((await t.until(id, (d) => d.status === 'succeeded')).status).toBe('succeeded');
    expect(await row()).toEqual({ status: 'succeeded', reason_code: null });
  }, 120_000);

  it('Raise budget: a team run paused for its task budget goes on with `ratchet resume --team --budget`', async () => {
    // Each API answer costs $0.20; the task may spend $0.30: the first step's second call stops it.
    const t = await setUp(`${WORKFLOW(2)}budget: { task_usd: 0.3 }\n`, 0, 100_000);
    t.worker();
    // Steered as soon as the team's row says paused (the app's screen shows it then), before DBOS has recorded the
    // workflow's end: the client waits for the workflow to let go of the run before it rewinds it.
    const r = await cli(['run', t.repo.repo, '--workflow', t.repo.workflowFile, '--yes', '--detach', '--team', t.db.url], t.local);
    const paused = await t.until(r.out.trim(), (d) => d.status === 'paused');
    expect(paused).toMatchObject({ status: 'paused', reasonCode: 'task_budget' });
    const low = await cli(['resume', paused.id, '--team', t.db.url, '--budget', '0.1'], t.local);
    expect(low.code).toBe(2);
    expect(low.err).toMatch(/already spent/);
    const raised = await cli(['resume', paused.id, '--team', t.db.url, '--budget', '5'], t.local);
    expect(raised.code, raised.err).toBe(0);
    const done = await t.until(paused.id, (d) => ['succeeded', 'failed'].includes(d.status));
    expect(done.status).toBe('succeeded');
    expect(done.costUsd).toBeGreaterThan(0.3);
  }, 120_000);
});
