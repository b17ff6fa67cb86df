// Team mode through the CLI: `ratchet run --team` submits a run that a `ratchet worker` process (its own home) runs step
// by step from the team's queue, pushing each step to the remote; status, list, stop, resume and retry act on it there.
// The agent reads git history and status in its sandboxed shell before it works (readsGitFirst), as every real one does.
// Needs PostgreSQL (RATCHET_TEST_PG_URL; .ci/run starts one): skipped with the reason elsewhere.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedServer, type RecordedRequest, type ScriptedServer, type ScriptResponse } from '../scripted/server';
import { sh } from '../engine/testing/temp-repo';
import { NO_POSTGRES_REASON, readsGitFirst, startWorker, teamDatabase, teamRepo, tempFile, type WorkerProcess } from '../engine/testing/team-fixtures';
import { SANDBOX_AVAILABLE } from '../engine/testing/sandbox-mode';
import { cli } from './testing/run-cli';
import { createEngine } from '../engine/engine';
import { openTeam } from '../engine/team/team-client';

const WORKFLOW = (steps: number, flag?: string) => `gates:
  plain: "true"
  guarded: ${JSON.stringify(flag ? `if [ -f ${flag} ]; then echo "not ok 1 - blocked by flag"; exit 1; fi; echo ok` : 'true')}
agent: { kind: anthropic, model: claude-sonnet-5-5, max_turns: 10 }
limits: { test_failure: 0 }
flaky_check: false
backoff: { base_s: 0, max_s: 0, jitter: 0 }
steps:
${Array.from({ length: steps }, (_, i) => `  - title: Step number ${i + 1}\n    gates: [${i + 1 === 2 ? 'guarded' : 'plain'}]`).join('\n')}
`;

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setUp(workflow: string, thinkMs = 0, inputTokens = 0, first?: (req: RecordedRequest) => ScriptResponse | null) {
  const db = await teamDatabase({ migrated: true });
  const server: ScriptedServer = await startScriptedServer({
    script: async (req) => {
      if (thinkMs) await sleep(thinkMs);
      const answer = first?.(req) ?? (await readsGitFirst(req));
      return inputTokens ? { ...answer, usage: { input_tokens: inputTokens, output_tokens: 10 } } : answer;
    },
  });
  const repo = teamRepo(workflow);
  const env = { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url, RATCHET_WORKER_GONE_MS: '3000' };
  const workers: WorkerProcess[] = [];
  cleanups.push(async () => {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
    await Promise.all(workers.map((w) => w.exited));
    await server.close();
    await db.drop();
  });
  const worker = (args: string[] = []) => {
    const w = startWorker(db.url, env, [...(SANDBOX_AVAILABLE ? [] : ['--no-sandbox']), ...args]);
    workers.push(w);
    return w;
  };
  const local = { RATCHET_HOME: tempFile('x', '').replace(/x$/, 'home'), ...env };
  const status = async (id: string) => JSON.parse((await cli(['status', id, '--team', db.url, '--json'], local)).out) as TeamDoc;
  /** Polls the run's team status until `done` holds (or a minute passes). */
  const until = async (id: string, done: (d: TeamDoc) => boolean): Promise<TeamDoc> => {
    let d = await status(id);
    for (let i = 0; i < 480 && !done(d); i++) {
      await sleep(125);
      d = await status(id);
    }
    return d;
  };
  return { db, server, repo, env, worker, local, status, until };
}

interface TeamDoc {
  id: string;
  costUsd: number | null;
  status: string;
  reasonCode: string | null;
  branch: string;
  steps: Array<{ status: string; commit: string | null; attempts: Array<{ outcome: string }> }>;
  team: { worker: string | null };
}

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
