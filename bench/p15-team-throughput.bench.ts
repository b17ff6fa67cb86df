// Benchmark P15: team throughput. 12 runs submitted one after the other to the team's queue, each a two-step workflow whose gates
// are `true` and whose agent answers (the scripted API server) take 2 s each, so a run's time is its agent's, as in real
// life; the time from the first submit until all 12 succeeded with 3 worker processes, against the same with 1, each
// worker taking 1 run at a time (the team's global and per-repository limits 8, so only the workers limit). One per
// worker because the three workers share this machine's two cores, where workers are meant to be machines of their own:
// with 2 each, six runs' git and sandbox work contends for two cores and the ratio measured this machine's CPU (the
// helper's figures: a run's time outside its agent rose from ~2 s to 3.4-6 s), not how the team scales. Each
// measurement has a fresh team database and fresh workers (their own homes, so their clone caches start empty), started
// and registered on the queue before the first submit. Goal: 1 worker's time ÷ 3 workers' time ≥ 2.5 (3 is ideal).
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
import { benchWorkflow, cpuSeconds, machineLine, removeTemp, median, readyWorkers, secs, stopWorkers, timedServer, timelines, type RunTimeline } from './team';

const RUNS = 12;
const ANSWER_MS = 2000;
const PER_WORKER = 1;
const GOAL = 2.5;

const WORKFLOW = benchWorkflow(2);

interface Measured {
  ms: number;
  submitMs: number;
  /** Each agent call: the run it was for, and when it arrived (epoch ms). */
  calls: Array<{ run: string | null; at: number }>;
  runs: RunTimeline[];
  /** CPU seconds the worker processes (with their git and sandbox children) used from the first submit to the end. */
  workerCpu: { own: number; children: number } | null;
}

/** Time until RUNS runs, submitted one after the other, all succeeded on `workers` fresh workers. */
async function measure(workers: number): Promise<Measured> {
  const cleanups: Array<() => Promise<unknown> | unknown> = [];
  try {
    const db = await teamDatabase();
    cleanups.push(() => db.drop());
    const server = await timedServer(byStep, ANSWER_MS);
    cleanups.push(() => server.close());
    const { repo, remote, workflowFile } = teamRepo(WORKFLOW);
    cleanups.push(() => removeTemp(repo, dirname(remote), dirname(workflowFile)));
    const env = { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url };
    // The submitting side: a machine that is not a worker (the CLI or the app), with its own home. Its client makes the
    // team's tables before any worker starts, as a team's database is set up once: three workers launching at once on
    // an empty database race in DBOS's migrations ("tuple concurrently updated"), and the loser never takes runs.
    const engineDir = tempDir('ratchet-p15-home-');
    cleanups.push(() => removeTemp(engineDir));
    const engine = createEngine({ home: join(engineDir, 'home'), env, sandbox: TEST_SANDBOX_MODE });
    cleanups.push(() => engine.close());
    const team = await openTeam(db.url);
    cleanups.push(() => team.close());
    const procs = await readyWorkers(db.url, env, workers, ['--concurrency', String(PER_WORKER), '--global-limit', '8', '--repo-limit', '8']);
    cleanups.push(() => stopWorkers(procs));
    const prepared = await engine.prepareRun({ repo, workflowFile });
    const calls0 = server.arrivals.length;
    const cpu0 = procs
      .map((p) => cpuSeconds(p.child.pid))
      .reduce<{ own: number; children: number }>((a, c) => ({ own: a.own + (c?.own ?? 0), children: a.children + (c?.children ?? 0) }), {
        own: 0,
        children: 0,
      });
    const t0 = performance.now();
    const submitted = new Set<string>();
    // Each run its own title, which its agent's prompt carries: the calls it made, for the breakdown below.
    for (let i = 0; i < RUNS; i++) submitted.add(await team.submit({ ...prepared, title: `P15 run ${i + 1}` }));
    const submitMs = performance.now() - t0;
    const until = Date.now() + 15 * 60_000;
    for (;;) {
      const runs = (await team.list()).filter((r) => submitted.has(r.id));
      const failed = runs.find((r) => ['failed', 'cancelled', 'paused', 'waiting_approval'].includes(r.status));
      if (failed) throw new Error(`team run ${failed.id} ended ${failed.status}: ${failed.reason ?? ''}\n${procs.map((p) => p.output()).join('\n')}`);
      if (runs.length === RUNS && runs.every((r) => r.status === 'succeeded')) {
        const ms = performance.now() - t0;
        const titles = new Map(runs.map((r) => [r.title, r.id]));
        const calls = server.arrivals.slice(calls0).map((a) => ({
          run: titles.get(/# Task: (.+?)\\n/.exec(JSON.stringify(a.request.body?.messages?.[0] ?? ''))?.[1] ?? '') ?? null,
          at: performance.timeOrigin + a.at,
        }));
        const cpu = procs.map((p) => cpuSeconds(p.child.pid));
        const workerCpu = cpu.every((c) => c !== null)
          ? { own: sum(cpu.map((c) => c!.own)) - cpu0.own, children: sum(cpu.map((c) => c!.children)) - cpu0.children }
          : null;
        return { ms, submitMs, calls, runs: await timelines(db.url), workerCpu };
      }
      if (Date.now() > until) throw new Error(`not all ${RUNS} runs succeeded after 15 minutes: ${runs.map((r) => r.status).join(', ')}`);
      await sleep(100);
    }
  } finally {
    for (const c of cleanups.reverse()) await c();
  }
}

/** Where a measurement's time went, from DBOS's record of each run (medians over the runs, in seconds). */
function whereTheTimeWent(m: Measured): string {
  const runs = m.runs;
  const first = Math.min(...runs.map((r) => r.enqueued));
  const med = (xs: number[]) => secs(median(xs));
  const steps = runs.flatMap((r) => r.steps.filter((s) => s.name === 'step'));
  const begins = runs.flatMap((r) => r.steps.filter((s) => s.name === 'begin'));
  const busy = runs.reduce((a, r) => a + ((r.ended ?? 0) - (r.dequeued ?? 0)), 0);
  const gaps = runs.flatMap((r) => r.steps.slice(1).map((s, i) => s.start - (r.steps[i] as { end: number }).end));
  // Each Ratchet step's agent calls: two (a file written, then "done"), each answered ANSWER_MS after it arrived.
  const before: number[] = [];
  const between: number[] = [];
  const after: number[] = [];
  for (const r of runs)
    for (const st of r.steps.filter((x) => x.name === 'step')) {
      const c = m.calls.filter((x) => x.run === r.id && x.at >= st.start && x.at <= st.end).map((x) => x.at);
      if (c.length !== 2) continue;
      before.push((c[0] as number) - st.start);
      between.push((c[1] as number) - (c[0] as number) - ANSWER_MS);
      after.push(st.end - (c[1] as number) - ANSWER_MS);
    }
  // A slot freed (a run ended on a worker) → that worker's next dequeue: DBOS's queue polling, while runs wait.
  const refill: number[] = [];
  for (const w of new Set(runs.map((r) => r.worker))) {
    const mine = runs.filter((r) => r.worker === w && r.dequeued !== null);
    for (const r of mine) {
      const freed = mine.map((x) => x.ended ?? 0).filter((e) => e <= (r.dequeued as number));
      if (freed.length) refill.push((r.dequeued as number) - Math.max(...freed));
    }
  }
  const cpu =
    m.workerCpu === null
      ? ''
      : `; the workers used ${(m.workerCpu.own + m.workerCpu.children).toFixed(1)} CPU s (${((m.workerCpu.own + m.workerCpu.children) / RUNS).toFixed(2)} per run: Node ${(m.workerCpu.own / RUNS).toFixed(2)}, its git and sandbox processes ${(m.workerCpu.children / RUNS).toFixed(2)}) in ${secs(m.ms)}`;
  return [
    `    a slot freed → the worker's next run dequeued ${med(refill)} (max ${secs(Math.max(...refill, 0))}, ${refill.length} times)`,
    `    in a Ratchet step (${before.length} with their 2 calls found): step start → 1st call ${med(before)}, 1st answer → 2nd call ${med(between)}, 2nd answer → step end ${med(after)}`,
    `    queue wait ${med(runs.map((r) => (r.dequeued ?? 0) - r.enqueued))}, dequeued → begin ${med(runs.map((r) => (r.steps[0]?.start ?? 0) - (r.dequeued ?? 0)))}, begin ${med(begins.map((s) => s.end - s.start))}`,
    `    a Ratchet step ${med(steps.map((s) => s.end - s.start))} (its agent's ${secs(2 * ANSWER_MS)} included), between durable steps ${med(gaps)}, last step → run ended ${med(runs.map((r) => (r.ended ?? 0) - (r.steps.at(-1)?.end ?? 0)))}`,
    `    a run dequeued → ended ${med(runs.map((r) => (r.ended ?? 0) - (r.dequeued ?? 0)))}; slots busy ${((100 * busy) / (m.ms * slots(m))).toFixed(0)}% of the time; last run ended ${secs(Math.max(...runs.map((r) => r.ended ?? 0)) - first)} after the first enqueue${cpu}`,
  ].join('\n');
}
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const slots = (m: Measured) => new Set(m.runs.map((r) => r.worker)).size * PER_WORKER;

if (NO_POSTGRES_REASON) {
  console.log(`P15 team throughput: skipped (${NO_POSTGRES_REASON})`);
  process.exit(0);
}
const one = await measure(1);
const three = await measure(3);
const ratio = one.ms / three.ms;
const ok = goalLine('P15', 'team throughput', ratio, GOAL, '≥');
for (const [n, m] of [
  [1, one],
  [3, three],
] as const) {
  console.log(
    `  (${n} worker${n > 1 ? 's' : ''} × ${PER_WORKER} at once: ${secs(m.ms)} for ${RUNS} runs, ${m.calls.length} agent calls of ${secs(ANSWER_MS)}; the submits ${secs(m.submitMs)})`,
  );
  console.log(whereTheTimeWent(m));
}
console.log(machineLine());
process.exit(ok ? 0 : 1);
