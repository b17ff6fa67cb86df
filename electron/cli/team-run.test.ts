// Team mode through the CLI: `ratchet run --team` submits a run that a `ratchet worker` process (its own home) runs step
// by step from the team's queue, pushing each step to the remote; status, list, stop, resume and retry act on it there.
// Needs PostgreSQL (RATCHET_TEST_PG_URL; .ci/run starts one): skipped with the reason elsewhere.
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../scripted/server';
import { byStep } from '../engine/testing/recovery-fixtures';
import { sh } from '../engine/testing/temp-repo';
import { NO_POSTGRES_REASON, startWorker, teamDatabase, teamRepo, tempFile, type WorkerProcess } from '../engine/testing/team-fixtures';
import { SANDBOX_AVAILABLE } from '../engine/testing/sandbox-mode';
import { cli } from './testing/run-cli';

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

async function setUp(workflow: string) {
  const db = await teamDatabase();
  const server: ScriptedServer = await startScriptedServer({ script: byStep });
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
  return { db, server, repo, env, worker, local };
}

describe.skipIf(NO_POSTGRES_REASON)(`team runs (${NO_POSTGRES_REASON ?? 'PostgreSQL'})`, () => {
  it('runs a submitted run on a worker, each step pushed to the remote once; --json prints the status document, exit 0', async () => {
    const t = await setUp(WORKFLOW(3));
    t.worker(['--concurrency', '2']);
    const r = await cli(['run', t.repo.repo, '--workflow', t.repo.workflowFile, '--yes', '--json', '--team', t.db.url], t.local);
    expect(r.err).toContain('Submitted to the team');
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
});
