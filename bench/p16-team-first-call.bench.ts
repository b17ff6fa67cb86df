// Benchmark P16: how soon a team run's agent starts. The time from submitting a run to the team's queue until an idle
// worker's agent makes its first API call, against a local run's time from its start until its agent's first call.
// Goal: team ÷ local ≤ 2, the median of per-round ratios over alternating rounds.
//
// Fairness: no process starts on either side. The team side is what the app does (its team client open, the worker
// already running and idle, as a team's workers are); the local side is what the app does for a local run (its engine
// open). Both start from the same prepared run (the workflow read and checked, the same on both sides, left out of
// both), so the team's time is submit → queue → worker (clone cache fetch, the run made there, its branch pushed) →
// agent, and the local one is the run made (worktree) → agent. A CLI process would add the same Node start to both.
// Each side has a warm-up round first, not counted: the worker's first run clones the repository into its cache, the
// local engine's first run warms what a long-lived app has warm; later runs find the clone and fetch.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { dirname, join } from 'node:path';
import { createEngine } from '../electron/engine/engine';
import { openTeam } from '../electron/engine/team/team-client';
import { byStep } from '../electron/engine/testing/recovery-fixtures';
import { TEST_SANDBOX_MODE } from '../electron/engine/testing/sandbox-mode';
import { NO_POSTGRES_REASON, teamDatabase, teamRepo } from '../electron/engine/testing/team-fixtures';
import { tempDir } from '../electron/engine/testing/temp-repo';
import { goalLine } from './measure';
import { benchWorkflow, machineLine, median, removeTemp, readyWorkers, secs, stopWorkers, timedServer, timelines } from './team';

const ROUNDS = Number(process.env.BENCH_P16_ROUNDS ?? 7);
const GOAL = 2;

const WORKFLOW = benchWorkflow(1);

if (NO_POSTGRES_REASON) {
  console.log(`P16 team enqueue to first agent call: skipped (${NO_POSTGRES_REASON})`);
  process.exit(0);
}

const cleanups: Array<() => Promise<unknown> | unknown> = [];
let ok: boolean;
try {
  const db = await teamDatabase();
  cleanups.push(() => db.drop());
  const server = await timedServer(byStep);
  cleanups.push(() => server.close());
  const { repo, remote, workflowFile } = teamRepo(WORKFLOW);
  cleanups.push(() => removeTemp(repo, dirname(remote), dirname(workflowFile)));
  const env = { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url };
  const engineDir = tempDir('ratchet-p16-home-');
  cleanups.push(() => removeTemp(engineDir));
  const engine = createEngine({ home: join(engineDir, 'home'), env, sandbox: TEST_SANDBOX_MODE });
  cleanups.push(async () => {
    engine.close();
    await engine.releaseSandbox();
  });
  // The team's tables exist before the worker starts (a team's database is set up once).
  const team = await openTeam(db.url);
  cleanups.push(() => team.close());
  const [worker] = await readyWorkers(db.url, env, 1, []);
  cleanups.push(() => stopWorkers([worker!]));
  const prepared = await engine.prepareRun({ repo, workflowFile });

  /** Submit → the worker's first agent call; then waits until the run has ended, so the next round finds the worker idle. */
  const teamRound = async (): Promise<{ ms: number; id: string; submitMs: number; firstCall: number }> => {
    const first = server.nextCall();
    const t0 = performance.now();
    const id = await team.submit(prepared);
    const submitMs = performance.now() - t0;
    const call = await first;
    for (let i = 0; (await team.item(id)).status !== 'succeeded'; i++) {
      if (i > 1200) throw new Error(`team run ${id} did not succeed: ${JSON.stringify(await team.item(id))}\n${worker!.output()}`);
      await sleep(50);
    }
    return { ms: call.at - t0, id, submitMs, firstCall: performance.timeOrigin + call.at };
  };
  /** A local run's start → its agent's first call; then the run to its end. */
  const localRound = async (): Promise<number> => {
    const first = server.nextCall();
    const t0 = performance.now();
    const runId = await engine.createRun(prepared);
    const done = engine.execute(runId, new AbortController().signal);
    const call = await first;
    const doc = await done;
    if (doc.status !== 'succeeded') throw new Error(`the local run ended ${doc.status}: ${doc.reason}`);
    return call.at - t0;
  };

  await teamRound();
  await localRound();
  const t: Array<Awaited<ReturnType<typeof teamRound>>> = [];
  const l: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const lm = await localRound();
    const tr = await teamRound();
    l.push(lm);
    t.push(tr);
    ratios.push(tr.ms / lm);
  }
  const ratio = median(ratios);
  ok = goalLine('P16', 'team enqueue to first agent call', ratio, GOAL);
  console.log(`  (team ${secs(median(t.map((x) => x.ms)))} vs local ${secs(median(l))}, medians of ${ROUNDS} rounds after a warm-up round each)`);

  // Where the team's time goes, from DBOS's record of each run (medians over the rounds).
  const byId = new Map((await timelines(db.url)).map((x) => [x.id, x]));
  const parts = t.map((x) => {
    const run = byId.get(x.id)!;
    const begin = run.steps.find((s) => s.name === 'begin')!;
    const step = run.steps.find((s) => s.name === 'step')!;
    return {
      submit: x.submitMs,
      queued: (run.dequeued ?? 0) - run.enqueued,
      toBegin: begin.start - (run.dequeued ?? 0),
      begin: begin.end - begin.start,
      toStep: step.start - begin.end,
      toCall: x.firstCall - step.start,
    };
  });
  const med = (k: keyof (typeof parts)[number]) => secs(median(parts.map((p) => p[k])));
  console.log(
    `    submit (client) ${med('submit')}, enqueued → dequeued ${med('queued')}, dequeued → begin ${med('toBegin')}, begin ${med('begin')}, begin → step ${med('toStep')}, step start → 1st call ${med('toCall')}`,
  );
  console.log(machineLine());
} finally {
  for (const c of cleanups.reverse()) await c();
}
process.exit(ok ? 0 : 1);
