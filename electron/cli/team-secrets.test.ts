// What a team worker keeps to itself: its own variables (a submitted workflow's `sandbox.env` gets only the names its
// operator allowed, never its API key), and the submitter's git credentials (a token in `origin`'s URL is never stored
// nor sent: workers clone with their own). Each proven by searching every table of the team database for the secret.
// Needs PostgreSQL (RATCHET_TEST_PG_URL; .ci/run starts one): skipped with the reason elsewhere.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedServer } from '../scripted/server';
import { sh, tempDir } from '../engine/testing/temp-repo';
import { NO_POSTGRES_REASON, readsGitFirst, startWorker, teamDatabase, teamRepo, type WorkerProcess } from '../engine/testing/team-fixtures';
import { SANDBOX_AVAILABLE } from '../engine/testing/sandbox-mode';
import { cli } from './testing/run-cli';

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const WORKER_KEY = 'sk-ant-worker-KEY-7d41c9';
const WORKER_AWS = 'aws-worker-SECRET-52be08';
const SUBMITTER_TOKEN = 'ghp_submitterTOKEN93f1a7';

const workflow = (gate: string, extra = '') => `gates:
  leak: ${JSON.stringify(gate)}
agent: { kind: anthropic, model: claude-sonnet-5-5, max_turns: 10 }
limits: { test_failure: 0 }
flaky_check: false
backoff: { base_s: 0, max_s: 0, jitter: 0 }
${extra}steps:
  - title: Step number 1
    gates: [leak]
`;

/** Every row of every table in the team database (Ratchet's and DBOS's schemas), as text. */
async function everyRow(url: string): Promise<string> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows: tables } = await c.query<{ s: string; t: string }>(
      "SELECT table_schema AS s, table_name AS t FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_type = 'BASE TABLE'",
    );
    expect(tables.map((x) => `${x.s}.${x.t}`)).toEqual(expect.arrayContaining(['ratchet.runs', 'dbos.workflow_status', 'dbos.operation_outputs']));
    let all = '';
    for (const { s, t } of tables) {
      const { rows } = await c.query<{ row: string }>(`SELECT x::text AS row FROM "${s}"."${t}" x`);
      all += rows.map((r) => r.row).join('\n');
    }
    return all;
  } finally {
    await c.end();
  }
}

async function setUp(flow: string) {
  const db = await teamDatabase({ migrated: true });
  const server = await startScriptedServer({ script: readsGitFirst });
  const repo = teamRepo(flow);
  const workers: WorkerProcess[] = [];
  cleanups.push(async () => {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
    await Promise.all(workers.map((w) => w.exited));
    await server.close();
    await db.drop();
  });
  const worker = (args: string[] = [], env: NodeJS.ProcessEnv = {}) => {
    const w = startWorker(db.url, { ANTHROPIC_API_KEY: WORKER_KEY, AWS_SECRET_ACCESS_KEY: WORKER_AWS, ANTHROPIC_BASE_URL: server.url, ...env }, [
      ...(SANDBOX_AVAILABLE ? [] : ['--no-sandbox']),
      ...args,
    ]);
    workers.push(w);
    return w;
  };
  const local = { RATCHET_HOME: join(tempDir('ratchet-submitter-'), 'home'), ANTHROPIC_API_KEY: 'submitter-key', ANTHROPIC_BASE_URL: server.url };
  const until = async (id: string, done: (d: { status: string }) => boolean) => {
    let out = '';
    for (let i = 0; i < 480; i++) {
      out = (await cli(['status', id, '--team', db.url, '--json'], local)).out;
      if (done(JSON.parse(out) as { status: string })) break;
      await sleep(125);
    }
    return { out, doc: JSON.parse(out) as { status: string; reason: string | null; branch: string } };
  };
  return { db, repo, worker, local, until };
}

describe.skipIf(NO_POSTGRES_REASON)(`a team worker's secrets (${NO_POSTGRES_REASON ?? 'PostgreSQL'})`, () => {
  it("a submitted workflow naming the worker's API key and a cloud key in sandbox.env is refused, saying which and the flag; neither value reaches the team database or the run's outputs", async () => {
    const t = await setUp(
      workflow('echo "key=$ANTHROPIC_API_KEY aws=$AWS_SECRET_ACCESS_KEY"; exit 1', 'sandbox: { env: [ANTHROPIC_API_KEY, AWS_SECRET_ACCESS_KEY] }\n'),
    );
    const w = t.worker();
    const run = await cli(['run', t.repo.repo, '--workflow', t.repo.workflowFile, '--yes', '--json', '--team', t.db.url], t.local);
    const doc = JSON.parse(run.out) as { id: string; status: string; reason: string };
    const list = await cli(['list', '--team', t.db.url, '--json'], t.local);
    const rows = await everyRow(t.db.url);
    for (const secret of [WORKER_KEY, WORKER_AWS]) {
      expect(rows).not.toContain(secret);
      expect(run.out + run.err + list.out).not.toContain(secret);
      expect(w.output()).not.toContain(secret);
    }
    expect(doc.status, run.err).toBe('failed');
    expect(doc.reason).toMatch(/refused/);
    expect(doc.reason).toMatch(/--allow-env AWS_SECRET_ACCESS_KEY/);
    expect(doc.reason).toMatch(/ANTHROPIC_API_KEY \(a worker never passes its API key/);
  }, 120_000);

  it('a name, host or command agent the worker was allowed runs; one it was not is refused with the flag that allows it', async () => {
    const t = await setUp(workflow('test -n "$AWS_SECRET_ACCESS_KEY"', 'sandbox: { env: [AWS_SECRET_ACCESS_KEY], network: [example.org] }\n'));
    const refusing = t.worker(['--allow-env', 'AWS_SECRET_ACCESS_KEY']);
    const a = await cli(['run', t.repo.repo, '--workflow', t.repo.workflowFile, '--yes', '--json', '--team', t.db.url], t.local);
    const refused = JSON.parse(a.out) as { status: string; reason: string };
    expect(refused.status).toBe('failed');
    expect(refused.reason).toMatch(/network example\.org .*--allow-network example\.org/);
    expect(refused.reason).not.toMatch(/sandbox\.env/);
    refusing.child.kill('SIGTERM');
    await refusing.exited;
    t.worker(['--allow-env', 'AWS_SECRET_ACCESS_KEY', '--allow-network', 'example.org']);
    const b = await cli(['run', t.repo.repo, '--workflow', t.repo.workflowFile, '--yes', '--json', '--team', t.db.url], t.local);
    expect((JSON.parse(b.out) as { status: string }).status, b.err).toBe('succeeded');
  }, 120_000);

  it("a token in origin's URL is stored nowhere in the team database nor its documents; the worker clones with its own git configuration", async () => {
    const t = await setUp(workflow('true'));
    // The remote the workers know by its public URL; this worker's own git configuration says where that is.
    const publicUrl = 'https://git.example.invalid/team/calc.git';
    const xdg = tempDir('ratchet-worker-xdg-');
    mkdirSync(join(xdg, 'git'));
    writeFileSync(join(xdg, 'git', 'config'), `[url "${t.repo.remote}"]\n\tinsteadOf = ${publicUrl}\n`);
    sh(t.repo.repo, 'remote', 'set-url', 'origin', publicUrl.replace('https://', `https://ci-bot:${SUBMITTER_TOKEN}@`));
    t.worker([], { XDG_CONFIG_HOME: xdg });
    const run = await cli(['run', t.repo.repo, '--workflow', t.repo.workflowFile, '--yes', '--json', '--team', t.db.url], t.local);
    const doc = JSON.parse(run.out) as { status: string; team: { remote: string } };
    expect(doc.team.remote).toBe(publicUrl);
    expect(doc.status, run.out).toBe('succeeded');
    const list = await cli(['list', '--team', t.db.url, '--json'], t.local);
    const rows = await everyRow(t.db.url);
    expect(rows).toContain(publicUrl);
    for (const text of [rows, run.out, run.err, list.out]) {
      expect(text).not.toContain(SUBMITTER_TOKEN);
      expect(text).not.toContain('ci-bot');
    }
  }, 120_000);
});
