// Team mode's promise under a worker's death: three `ratchet worker` processes (each its own home) against one team
// database and a bare repository standing in for the remote; 12 runs queued with a global limit of 4. Never more than 4
// agents work at once (checked on every API call the scripted server answers, and on DBOS's queue every 100 ms); one
// worker is `kill -9`'d mid-step; a live worker takes its runs over (the dead worker's pending workflows re-enqueued) and
// every run succeeds with each of its steps committed once on the remote, in order.
//
// RATCHET_TEAM_KILL_ROUNDS: how many times the whole scenario runs (default 1; the soak is 20 in a row).
// Needs PostgreSQL (RATCHET_TEST_PG_URL; .ci/run starts one): skipped with the reason elsewhere.
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedRequest, ScriptResponse } from '../scripted/server';
import { startScriptedServer } from '../scripted/server';
import { say } from '../engine/testing/fixture-project';
import { sh } from '../engine/testing/temp-repo';
import { SANDBOX_AVAILABLE } from '../engine/testing/sandbox-mode';
import { NO_POSTGRES_REASON, readGitThenWork, startWorker, teamDatabase, teamRepo, tempFile, type WorkerProcess } from '../engine/testing/team-fixtures';
import { cli } from './testing/run-cli';

const ROUNDS = Math.max(1, Number(process.env.RATCHET_TEAM_KILL_ROUNDS ?? 1));
const RUNS = 12;
const LIMIT = 4;
const STEPS = 3;
/** How long the scripted model thinks before each answer: the window a kill lands in. */
const THINK_MS = 250;

const WORKFLOW = `gates:
  plain: "test -f steps/$(ls steps | wc -l).txt"
agent: { kind: anthropic, model: claude-sonnet-5-5, max_turns: 10 }
max_retries: 2
flaky_check: false
backoff: { base_s: 0, max_s: 0, jitter: 0 }
steps:
${Array.from({ length: STEPS }, (_, i) => `  - title: Write file ${i + 1}\n    prompt: Write steps/${i + 1}.txt.\n    gates: [plain]`).join('\n')}
`;

function endsWithToolResult(req: RecordedRequest): boolean {
  const last = (req.body?.messages as Array<{ role?: string; content?: unknown }> | undefined)?.at(-1);
  return last?.role === 'user' && Array.isArray(last.content) && (last.content as Array<{ type?: string }>).some((b) => b.type === 'tool_result');
}

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function round(n: number): Promise<void> {
  const db = await teamDatabase();
  // The scripted model: counts the agents working at once (an answer being thought about), and the most it ever saw.
  let working = 0;
  let most = 0;
  const server = await startScriptedServer({
    script: async (req): Promise<ScriptResponse> => {
      working++;
      most = Math.max(most, working);
      try {
        await sleep(THINK_MS);
        if (endsWithToolResult(req)) return say('done');
        const k = /## Step (\d+) of \d+/.exec(req.lastUserText)?.[1] ?? 'x';
        return { content: [readGitThenWork(k)] };
      } finally {
        working--;
      }
    },
  });
  const repo = teamRepo(WORKFLOW);
  const env = { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url, RATCHET_WORKER_GONE_MS: '3000' };
  const workers: WorkerProcess[] = [];
  // A pool: the queue's watcher and the test's own queries run at the same time (one client would interleave them).
  const watch = new pg.Pool({ connectionString: db.url, max: 2 });
  let watchClosed = false;
  cleanups.push(() => (watchClosed = true));
  cleanups.push(async () => {
    for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
    await Promise.all(workers.map((w) => w.exited));
    await watch.end().catch(() => undefined);
    await server.close();
    await db.drop();
  });
  const args = [...(SANDBOX_AVAILABLE ? [] : ['--no-sandbox']), '--concurrency', '2', '--global-limit', String(LIMIT), '--repo-limit', String(LIMIT)];
  for (let i = 0; i < 3; i++) workers.push(startWorker(db.url, env, args));
  const ids = await Promise.all(
    workers.map(async (w) => {
      for (let i = 0; i < 600; i++) {
        const m = /ratchet worker (\S+): taking runs/.exec(w.output());
        if (m) return m[1] as string;
        if (w.child.exitCode !== null) throw new Error(`a worker ended at start:\n${w.output()}`);
        await sleep(50);
      }
      throw new Error(`a worker did not start:\n${w.output()}`);
    }),
  );

  const local = { RATCHET_HOME: tempFile('x', '').replace(/x$/, 'home'), ...env };
  const runIds: string[] = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await cli(['run', repo.repo, '--workflow', repo.workflowFile, '--task', `Task ${i + 1}`, '--yes', '--detach', '--team', db.url], local);
    expect(r.code, r.err).toBe(0);
    runIds.push(r.out.trim());
  }

  // DBOS's side of the limit, watched all along: never more than LIMIT runs of the queue pending at once.
  let mostPending = 0;
  let watching = true;
  const watcher = (async () => {
    // Ends with the round (or when the client is closed by a failed round's cleanup).
    while (watching && !watchClosed) {
      const { rows } = await watch.query<{ n: string }>(
        "SELECT count(*) AS n FROM dbos.workflow_status WHERE queue_name = 'ratchet-runs' AND status = 'PENDING'",
      );
      mostPending = Math.max(mostPending, Number(rows[0]?.n ?? 0));
      await sleep(100);
    }
  })().catch(() => undefined);

  // Kill, with SIGKILL, the first worker found in the middle of one of its runs (a step done, another under way).
  let victimId = '';
  let victimRuns: string[] = [];
  for (let i = 0; i < 1200 && !victimRuns.length; i++) {
    const { rows } = await watch.query<{ id: string; worker: string }>(
      "SELECT id, worker FROM ratchet.runs WHERE worker IS NOT NULL AND status = 'running' AND steps_done >= 1 AND steps_done < $1",
      [STEPS],
    );
    victimId = rows[0]?.worker ?? '';
    victimRuns = rows.filter((r) => r.worker === victimId).map((r) => r.id);
    if (!victimRuns.length) await sleep(25);
  }
  expect(victimRuns.length, `no worker was ever in the middle of a run:\n${workers.map((w) => w.output()).join('\n')}`).toBeGreaterThan(0);
  const victim = workers[ids.indexOf(victimId)] as WorkerProcess;
  await sleep(Math.floor(Math.random() * THINK_MS));
  victim.child.kill('SIGKILL');
  await victim.exited;

  // Every run ends, succeeded.
  const deadline = Date.now() + 150_000;
  type Row = { id: string; status: string; worker: string | null; branch: string | null; reason: string | null };
  let statuses: Row[] = [];
  while (Date.now() < deadline) {
    const { rows } = await watch.query<Row>('SELECT id, status, worker, branch, reason FROM ratchet.runs');
    statuses = rows;
    if (rows.length === RUNS && rows.every((r) => ['succeeded', 'failed', 'cancelled'].includes(r.status))) break;
    await sleep(250);
  }
  watching = false;
  await watcher;
  const outputs = workers.map((w, i) => `--- worker ${ids[i]}:\n${w.output()}`).join('\n');
  expect(
    statuses.map((s) => s.status),
    `round ${n}: ${JSON.stringify(statuses)}\n${outputs}`,
  ).toEqual(Array(RUNS).fill('succeeded'));
  expect(most, 'agents working at once').toBeLessThanOrEqual(LIMIT);
  expect(mostPending, 'runs pending on the queue at once').toBeLessThanOrEqual(LIMIT);
  // The runs the dead worker held went on elsewhere, put back on the queue by a live worker that noticed it was gone.
  for (const id of victimRuns) expect(statuses.find((s) => s.id === id)?.worker).not.toBe(victimId);
  expect(outputs).toMatch(new RegExp(`took over \\d+ run\\(s\\) of ${victimId}`));

  // Each run's branch on the remote: every step committed once, in order, on the base.
  for (const s of statuses) {
    const subjects = sh(repo.remote, 'log', '--format=%s', `main..${s.branch}`).split('\n');
    expect(subjects, `run ${s.id} (${s.reason ?? ''})\n${outputs}`).toEqual(
      Array.from({ length: STEPS }, (_, i) => `step ${STEPS - i}: Write file ${STEPS - i}`),
    );
  }
  // A run taken over mid-step keeps the attempt the dead worker was making, as interrupted.
  const taken = await cli(['status', victimRuns[0] as string, '--team', db.url, '--json'], local);
  const doc = JSON.parse(taken.out) as { steps: Array<{ attempts: Array<{ outcome: string }> }> };
  const outcomes = doc.steps.flatMap((st) => st.attempts.map((a) => a.outcome));
  // Every step's passing attempt is in its history (made by whichever worker landed the step).
  for (const st of doc.steps)
    expect(
      st.attempts.map((a) => a.outcome),
      JSON.stringify(doc.steps),
    ).toContain('passed');
  expect(
    outcomes.every((o) => o === 'passed' || o === 'interrupted'),
    JSON.stringify(outcomes),
  ).toBe(true);
}

describe.skipIf(NO_POSTGRES_REASON)(`team workers, one killed (${NO_POSTGRES_REASON ?? 'PostgreSQL'})`, () => {
  it(
    `${RUNS} runs on 3 workers with a global limit of ${LIMIT}: one worker kill -9'd mid-step, every run succeeds, each step committed once (${ROUNDS} round(s))`,
    async () => {
      for (let n = 1; n <= ROUNDS; n++) {
        await round(n);
        for (const c of cleanups.splice(0).reverse()) await c();
      }
    },
    240_000 * ROUNDS,
  );
});
