// Team mode through the CLI, what workers share: the team's daily budget across workers, a 429's hold on the API key,
// and a worker stopped with SIGTERM handing its run to another. The set-up is in testing/team-run-fixture.ts; the other
// team-run tests are in team-run.test.ts and team-run-steer.test.ts.
// Needs PostgreSQL (RATCHET_TEST_PG_URL; .ci/run starts one): skipped with the reason elsewhere.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { sh } from '../engine/testing/temp-repo';
import { NO_POSTGRES_REASON } from '../engine/testing/team-fixtures';
import { cli } from './testing/run-cli';
import { setUp, WORKFLOW, teamRunFixture } from './testing/team-run-fixture';

teamRunFixture();

describe.skipIf(NO_POSTGRES_REASON)(`team runs (${NO_POSTGRES_REASON ?? 'PostgreSQL'})`, () => {
  it("the team's daily budget counts every worker's spend: a run on a worker that spent nothing waits once the team spent it", async () => {
    // Each API answer costs $0.20 (100k input tokens at $2/M); the team may spend $0.30 a day.
    const t = await setUp(WORKFLOW(1), 0, 100_000);
    const first = t.worker(['--daily-budget', '0.3']);
    const a = await cli(['run', t.repo.repo, '--workflow', t.repo.workflowFile, '--yes', '--json', '--team', t.db.url], t.local);
    const spent = (JSON.parse(a.out) as { costUsd: number }).costUsd;
    expect(spent).toBeGreaterThanOrEqual(0.3);
    first.child.kill('SIGTERM');
    await first.exited;
    t.worker();
    const b = await cli(['run', t.repo.repo, '--workflow', t.repo.workflowFile, '--yes', '--detach', '--team', t.db.url], t.local);
    const d = await t.until(b.out.trim(), (x) => x.reasonCode === 'daily_budget');
    expect(d.reasonCode).toBe('daily_budget');
    expect(d.costUsd ?? 0).toBe(0);
    const list = await cli(['list', '--team', t.db.url], t.local);
    expect(list.out).toMatch(/spent today \$0\.[3-9]\d* of \$0\.30/);
  }, 120_000);

  it("a 429 on one worker holds the other workers' runs on the same API key until its retry-after", async () => {
    // The first three calls (the SDK's own two retries included) are rate-limited with retry-after 4 s.
    let calls = 0;
    let bFirstCall = 0;
    const t = await setUp(WORKFLOW(1), 0, 0, (req) => {
      if (bFirstCall === 0 && JSON.stringify(req.body).includes('# Task: b')) bFirstCall = Date.now();
      return ++calls <= 3 ? { error: { status: 429, retryAfter: 4 } } : null;
    });
    t.worker(['--concurrency', '1']);
    t.worker(['--concurrency', '1']);
    const a = (await cli(['run', t.repo.repo, '--workflow', t.repo.workflowFile, '--task', 'a', '--yes', '--detach', '--team', t.db.url], t.local)).out.trim();
    await t.until(a, (d) => d.status === 'waiting');
    // The worker that got the 429 shares its hold through the team database.
    const pgc = new (await import('pg')).default.Client({ connectionString: t.db.url });
    await pgc.connect();
    let until = 0;
    for (let i = 0; i < 100 && !until; i++) {
      const { rows } = await pgc.query<{ until: Date }>('SELECT until FROM ratchet.api_holds');
      until = rows[0]?.until.getTime() ?? 0;
      if (!until) await sleep(100);
    }
    await pgc.end();
    expect(until).toBeGreaterThan(Date.now());
    const b = (await cli(['run', t.repo.repo, '--workflow', t.repo.workflowFile, '--task', 'b', '--yes', '--detach', '--team', t.db.url], t.local)).out.trim();
    const bd = await t.until(b, (d) => d.status === 'succeeded');
    expect(bd.status).toBe('succeeded');
    // b ran on the other worker (a held the first one's only slot), and its first call waited for the hold.
    expect(bd.team.worker).not.toBe((await t.status(a)).team.worker);
    expect(bFirstCall).toBeGreaterThanOrEqual(until - 50);
  }, 120_000);

  it('a worker stopped with SIGTERM mid-step hands its run to another worker at once; the run goes on from where it stopped', async () => {
    const t = await setUp(WORKFLOW(3), 600);
    const first = t.worker();
    const r = await cli(['run', t.repo.repo, '--workflow', t.repo.workflowFile, '--yes', '--detach', '--team', t.db.url], t.local);
    const id = r.out.trim();
    const before = await t.until(id, (d) => d.status === 'running' && d.steps.some((x) => x.status === 'succeeded'));
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.output(), first.output()).toMatch(/stopping; its 1 run\(s\) go to another worker/);
    const second = t.worker();
    const done = await t.until(id, (d) => d.status === 'succeeded');
    expect(done.status).toBe('succeeded');
    expect(done.team.worker).not.toBe(before.team.worker);
    expect(second.output()).toMatch(/took over 1 run\(s\)/);
    expect(sh(t.repo.remote, 'log', '--format=%s', `main..${done.branch}`).split('\n')).toEqual([
      'step 3: Step number 3',
      'step 2: Step number 2',
      'step 1: Step number 1',
    ]);
  }, 120_000);
});
