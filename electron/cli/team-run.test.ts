// Team mode through the CLI: `ratchet run --team` submits a run that a `ratchet worker` process (its own home) runs step
// by step from the team's queue, pushing each step to the remote; status, list and retry act on it there; a worker
// refuses a workflow its submitter did not trust. Stop and Resume are in team-run-steer.test.ts, budgets, rate limits and
// a worker's hand-over in team-run-workers.test.ts (split so the three files run side by side; the set-up is in
// testing/team-run-fixture.ts). The agent reads git history and status in its sandboxed shell before it works.
// Needs PostgreSQL (RATCHET_TEST_PG_URL; .ci/run starts one): skipped with the reason elsewhere.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sh } from '../engine/testing/temp-repo';
import { NO_POSTGRES_REASON } from '../engine/testing/team-fixtures';
import { cli } from './testing/run-cli';
import { createEngine } from '../engine/engine';
import { openTeam } from '../engine/team/team-client';
import { setUp, WORKFLOW, teamRunFixture, type TeamDoc } from './testing/team-run-fixture';

teamRunFixture();

describe.skipIf(NO_POSTGRES_REASON)(`team runs (${NO_POSTGRES_REASON ?? 'PostgreSQL'})`, () => {
  it('runs a submitted run on a worker, each step pushed to the remote once; --json prints the status document, exit 0', async () => {
    const t = await setUp(WORKFLOW(3));
    t.worker(['--concurrency', '2']);
    const r = await cli(['run', t.repo.repo, '--workflow', t.repo.workflowFile, '--yes', '--json', '--team', t.db.url], t.local);
    expect(r.err).toContain('Submitted to the team');
    // The engine's own progress lines, carried from the worker by the workflow's DBOS stream.
    expect(r.err).toContain('▶ step 1/3: Step number 1');
    expect(r.err).toContain('▶ step 3/3: Step number 3');
    expect(r.code, r.err).toBe(0);
    const doc = JSON.parse(r.out) as { id: string; status: string; branch: string; steps: Array<{ status: string; commit: string }>; team: { worker: string } };
    expect(doc.status).toBe('succeeded');
    expect(doc.team.worker).toMatch(/-\d+-/);
    expect(doc.steps.map((s) => s.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    // The remote has the branch: one commit per step, in order, on the base.
    const log = sh(t.repo.remote, 'log', '--format=%s', doc.branch).split('\n');
    expect(log.slice(0, 3)).toEqual(['step 3: Step number 3', 'step 2: Step number 2', 'step 1: Step number 1']);
    expect(doc.steps.map((s) => s.commit)).toEqual(sh(t.repo.remote, 'log', '--format=%H', '-3', doc.branch).split('\n').reverse());
    const list = await cli(['list', '--team', t.db.url, '--json'], t.local);
    expect(JSON.parse(list.out)).toEqual([expect.objectContaining({ id: doc.id, status: 'succeeded', stepsDone: 3, stepsTotal: 3 })]);
    const stats = await cli(['stats', '--team', t.db.url, '--json'], t.local);
    expect(JSON.parse(stats.out)).toMatchObject({ runs: 1, succeeded: 1, attempts: 3, retries: 0, byWorker: [{ worker: doc.team.worker, runs: 1 }] });
  }, 120_000);

  it('--detach prints the run id at once; status --team follows it to its end', async () => {
    const t = await setUp(WORKFLOW(2));
    const r = await cli(['run', t.repo.repo, '--workflow', t.repo.workflowFile, '--yes', '--detach', '--team', t.db.url], t.local);
    expect(r.code, r.err).toBe(0);
    const id = r.out.trim();
    expect(id).toMatch(/^[0-9a-z]{17}$/);
    const queued = await cli(['status', id, '--team', t.db.url, '--json'], t.local);
    expect(JSON.parse(queued.out)).toMatchObject({ id, status: 'queued' });
    t.worker();
    let status = '';
    for (let i = 0; i < 240 && status !== 'succeeded'; i++) {
      await new Promise((res) => setTimeout(res, 250));
      status = (JSON.parse((await cli(['status', id, '--team', t.db.url, '--json'], t.local)).out) as { status: string }).status;
    }
    expect(status).toBe('succeeded');
  }, 120_000);

  it('Retry of a failed team run: the failed step runs again on the queue, the steps before it stay committed once', async () => {
    const flag = join(mkdtempSync(join(tmpdir(), 'ratchet-flag-')), 'fail');
    writeFileSync(flag, 'x');
    const t = await setUp(WORKFLOW(3, flag));
    t.worker();
    const r = await cli(['run', t.repo.repo, '--workflow', t.repo.workflowFile, '--yes', '--json', '--team', t.db.url], t.local);
    expect(r.code, r.err).toBe(1);
    const failed = JSON.parse(r.out) as TeamDoc;
    expect(failed.status).toBe('failed');
    expect(failed.steps.map((x) => x.status)).toEqual(['succeeded', 'failed', 'pending']);
    const first = failed.steps[0]?.commit;
    rmSync(flag);
    const retried = await cli(['retry', failed.id, '--team', t.db.url, '--json'], t.local);
    expect(retried.code, retried.err).toBe(0);
    expect((JSON.parse(retried.out) as TeamDoc).status).toBe('queued');
    const done = await t.until(failed.id, (d) => ['succeeded', 'failed', 'cancelled'].includes(d.status));
    expect(done.status).toBe('succeeded');
    expect(done.steps[0]?.commit).toBe(first);
    // Each step once (the failed attempt's work is kept in a rescue commit between, as on a local run).
    expect(
      sh(t.repo.remote, 'log', '--format=%s', `main..${done.branch}`)
        .split('\n')
        .filter((x) => x.startsWith('step ')),
    ).toEqual(['step 3: Step number 3', 'step 2: Step number 2', 'step 1: Step number 1']);
    // The failed attempt is kept beside the one that passed.
    expect(done.steps[1]?.attempts.map((a) => a.outcome)).toEqual(['failed', 'passed']);
  }, 120_000);

  it('a worker refuses a run whose repository workflow file is not the version its submitter trusted', async () => {
    const t = await setUp(WORKFLOW(1));
    // The repository's own workflow file, trusted on this machine as it is now, then changed on the remote only.
    writeFileSync(join(t.repo.repo, 'ratchet.yml'), WORKFLOW(1));
    sh(t.repo.repo, 'add', 'ratchet.yml');
    sh(t.repo.repo, 'commit', '-qm', 'workflow');
    sh(t.repo.repo, 'push', '-q', 'origin', 'main');
    // Trusted on this machine as it is now; whoever can write the team database could change the hash the run carries:
    // the worker checks it against the file at the run's commit.
    const engine = createEngine({ home: t.local.RATCHET_HOME, env: { ...process.env, ...t.local }, sandbox: 'off' });
    const prepared = await engine.prepareRun({ repo: t.repo.repo, trust: true });
    engine.close();
    expect(prepared.trustedWorkflow?.sha256).toMatch(/^[0-9a-f]{64}$/);
    const team = await openTeam(t.db.url);
    const id = await team.submit({ ...prepared, trustedWorkflow: { file: prepared.trustedWorkflow!.file, sha256: '0'.repeat(64) } });
    await team.close();
    t.worker();
    const d = await t.until(id, (x) => x.status === 'failed');
    expect(d.status).toBe('failed');
    const item = JSON.parse((await cli(['status', id, '--team', t.db.url, '--json'], t.local)).out) as { reason: string };
    expect(item.reason).toMatch(/not the version .* trusted/);
  }, 120_000);
});
