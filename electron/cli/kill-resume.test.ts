// End to end: a real `ratchet` process is killed with SIGKILL at random moments and resumed until its run succeeds.
// Whatever the moment of the kill (start-up, worktree creation, the first DB write, a stream, a tool call, a gate, a commit),
// the result must be exact: every step committed once, every checkpoint agreeing with git, an intact database.
//
// RATCHET_KILL_ROUNDS: how many independent runs to kill and resume, each with several kills (default 8, about a minute on
//   two cores; a developer can set 200 for a long soak). RATCHET_KILL_SEED reproduces the kill moments (the seed is
//   printed) and RATCHET_KILL_ONLY=<n> runs only run #n of that seed: a failure names both. RATCHET_KILL_PARALLEL: runs
//   at once (default 2). RATCHET_KILL_KEEP=1 keeps the temporary repositories and homes even when everything passes.
//   RATCHET_KILL_VERBOSE=1 prints every round (its kill moment, where it landed, what was left). RATCHET_KILL_GROUP=1
//   makes half of the kills hit the CLI's whole process group, so a git command it is running dies with it (as when a
//   terminal or a container goes away); by default only the CLI's own pid is killed and its git commands finish.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { RunListItem, StatusDocument } from '../../shared/domain';
import { startScriptedServer, type RecordedRequest, type ScriptedServer, type ScriptResponse } from '../scripted/server';
import { create } from '../engine/testing/fixture-project';
import { makeRepo, sh } from '../engine/testing/temp-repo';
import { runCli } from './testing/run-cli';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const BIN = join(ROOT, 'bin', 'ratchet.mjs');
// bin/ratchet.mjs re-executes itself under the bundled Node 22 when started by an older Node: the kill would then hit the
// wrapper, not the process doing the work. Start the right Node directly.
const NODE = Number(process.versions.node.split('.')[0]) >= 22 ? process.execPath : join(ROOT, 'node_modules', 'node', 'bin', 'node');

const RUNS = Math.max(1, Number(process.env.RATCHET_KILL_ROUNDS ?? 8));
const PARALLEL = Math.max(1, Number(process.env.RATCHET_KILL_PARALLEL ?? 2));
const SEED = Number(process.env.RATCHET_KILL_SEED ?? Math.floor(Math.random() * 2 ** 32)) >>> 0;
const KEEP = process.env.RATCHET_KILL_KEEP === '1';
const VERBOSE = process.env.RATCHET_KILL_VERBOSE === '1';
const GROUP = process.env.RATCHET_KILL_GROUP === '1';
const ONLY = process.env.RATCHET_KILL_ONLY === undefined ? null : Number(process.env.RATCHET_KILL_ONLY);
const STEPS = 6;
const MAX_ROUNDS = 60;
/** A round that takes longer than this is stuck: it is killed and the test fails. */
const ROUND_LIMIT_MS = 60_000;
/** The scripted server waits this long between stream events (about 8 per answer: ~200 ms per answer). */
const EVENT_DELAY_MS = 25;
/** Rough times on this machine, to spread the kills over a whole run: process start to first request, and one step. */
const BOOT_MS = 900;
const STEP_MS = 1_350;

/** mulberry32: small, seedable, good enough to pick kill moments reproducibly. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---- the scripted agent: answers by content, never by order --------------------------------------------------------

const STEP_HEADING = /## Step (\d+) of (\d+)/g;

function userTexts(messages: unknown): string[] {
  if (!Array.isArray(messages)) return [];
  const out: string[] = [];
  for (const m of messages as Array<{ role?: string; content?: unknown }>) {
    if (m.role !== 'user') continue;
    if (typeof m.content === 'string') out.push(m.content);
    else if (Array.isArray(m.content)) {
      for (const b of m.content as Array<{ type?: string; text?: unknown }>) if (b.type === 'text' && typeof b.text === 'string') out.push(b.text);
    }
  }
  return out;
}

/** The step this conversation is about: the last "## Step k of N" heading in any user turn (a continued session's retry text has none). */
function stepOf(req: RecordedRequest): number | null {
  let k: number | null = null;
  for (const text of userTexts(req.body?.messages)) for (const m of text.matchAll(STEP_HEADING)) k = Number(m[1]);
  return k;
}

function endsWithToolResult(req: RecordedRequest): boolean {
  const last = (req.body?.messages as Array<{ role?: string; content?: unknown }> | undefined)?.at(-1);
  return last?.role === 'user' && Array.isArray(last.content) && (last.content as Array<{ type?: string }>).some((b) => b.type === 'tool_result');
}

function agentScript(req: RecordedRequest): ScriptResponse {
  if (endsWithToolResult(req)) return { content: [{ type: 'text', text: 'done' }], delayMs: EVENT_DELAY_MS };
  const k = stepOf(req);
  if (k === null) return { content: [{ type: 'text', text: 'I cannot tell which step this is.' }], delayMs: EVENT_DELAY_MS };
  // The sleep widens the "mid tool call" window; the editor's create is a second tool in the same turn.
  return {
    content: [
      { type: 'tool_use', name: 'bash', input: { command: `sleep 0.2; mkdir -p steps; echo ${k} > steps/${k}.txt` } },
      create(`notes/${k}.md`, `# Step ${k}\n`),
    ],
    delayMs: EVENT_DELAY_MS,
  };
}

/** Step k's gate takes a moment and checks that every file of steps 1..k is there and right. */
function gate(k: number): string {
  return `sleep 0.3; for i in $(seq 1 ${k}); do test "$(cat steps/$i.txt)" = "$i" && test -f notes/$i.md || { echo "not ok - step $i files missing or wrong"; exit 1; }; done; echo ok`;
}

const WORKFLOW = `gates:
${Array.from({ length: STEPS }, (_, i) => `  check${i + 1}: ${JSON.stringify(gate(i + 1))}`).join('\n')}
agent: { kind: anthropic, model: claude-sonnet-5-5, max_turns: 10 }
max_retries: 3
backoff: { base_s: 0, max_s: 0, jitter: 0 }
flaky_check: false
steps:
${Array.from({ length: STEPS }, (_, i) => `  - title: Write file ${i + 1}\n    prompt: Write steps/${i + 1}.txt containing ${i + 1}, and notes/${i + 1}.md.\n    gates: [check${i + 1}]`).join('\n')}
`;

// ---- the CLI: rounds in a child process, list and status in this one ------------------------------------------------

interface Round {
  killed: boolean;
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * When to kill a round: at a random moment after the start, or a random few milliseconds after the n-th progress line
 * matching `line` (stderr is written synchronously, so the line marks where the engine is: that is how kills land inside
 * the short windows — the worktree's creation, a commit and its checkpoint — often enough to matter).
 */
type KillPlan = ({ afterMs: number } | { label: string; line: RegExp; nth: number; offsetMs: number }) & { group: boolean };

const describePlan = (p: KillPlan | null): string =>
  p === null
    ? 'no kill'
    : `${'afterMs' in p ? `${p.afterMs} ms after start` : `${p.offsetMs} ms after ${p.label} #${p.nth}`}${p.group ? ', whole process group' : ''}`;

let live = new Set<number>();
afterAll(() => {
  // Only the CLI processes this test started and that are somehow still alive (a test timeout).
  for (const pid of live) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  live = new Set();
});

/** Runs `ratchet <args>` in a child process and kills it with SIGKILL as `plan` says, unless it ends before. */
function round(args: string[], env: NodeJS.ProcessEnv, plan: KillPlan | null): Promise<Round> {
  return new Promise((done, fail) => {
    const started = Date.now();
    // Its own process group, so a group kill reaches the CLI and its git commands but not this test.
    const child = spawn(NODE, [BIN, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    if (child.pid === undefined) return fail(new Error('could not start the ratchet process'));
    const pid = child.pid;
    live.add(pid);
    let stdout = '';
    let stderr = '';
    let partial = '';
    let seen = 0;
    let killed = false;
    let stuck = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    const timers: NodeJS.Timeout[] = [];
    const kill = () => {
      if (exit) return;
      try {
        process.kill(plan?.group ? -pid : pid, 'SIGKILL');
        killed = true;
      } catch {
        /* it has just exited */
      }
    };
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => {
      stderr += String(d);
      if (!plan || 'afterMs' in plan) return;
      const lines = (partial + String(d)).split('\n');
      partial = lines.pop() ?? '';
      for (const l of lines) {
        if (!plan.line.test(l) || ++seen !== plan.nth) continue;
        if (plan.offsetMs === 0)
          kill(); // a timer would add a millisecond or more, longer than some windows
        else timers.push(setTimeout(kill, plan.offsetMs));
      }
    });
    if (plan && 'afterMs' in plan) timers.push(setTimeout(kill, plan.afterMs));
    timers.push(
      setTimeout(() => {
        stuck = true;
        child.kill('SIGKILL');
      }, ROUND_LIMIT_MS),
    );
    const finish = () => {
      if (!exit) return;
      for (const t of timers) clearTimeout(t);
      live.delete(pid);
      if (stuck) return fail(new Error(`\`ratchet ${args.join(' ')}\` did not finish within ${ROUND_LIMIT_MS / 1000} s\n--- stderr ---\n${stderr}`));
      done({ killed: killed && exit.signal === 'SIGKILL', code: exit.code, signal: exit.signal, stdout, stderr, ms: Date.now() - started });
    };
    child.once('error', fail);
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      // The pipes close right after; nothing else holds them (the engine gives its own children new pipes).
      setTimeout(finish, 2_000).unref();
    });
    child.once('close', () => finish());
  });
}

/** Progress lines a triggered kill can follow, and how long after them the interesting window lasts. */
const MARKERS: Array<{ label: string; line: RegExp; windowMs: number; perStep: boolean; only?: 'run' | 'resume' }> = [
  { label: 'run created', line: /^run \S+: /, windowMs: 150, perStep: false, only: 'run' },
  { label: 'resume plan', line: /^Workflow Resume Plan$/, windowMs: 250, perStep: false, only: 'resume' },
  { label: 'attempt started', line: /^ {2}attempt \d+ /, windowMs: 250, perStep: true },
  { label: 'bash call', line: /^ {4}· bash /, windowMs: 250, perStep: true },
  { label: 'agent done', line: /^ {4}» /, windowMs: 500, perStep: true },
  { label: 'gate passed', line: /^ {4}gate \S+: passed/, windowMs: 150, perStep: true },
  { label: 'step committed', line: /^ {2}✓ step \d+ committed/, windowMs: 100, perStep: true },
];

function killPlan(rnd: () => number, command: 'run' | 'resume', remaining: number): KillPlan {
  const group = GROUP && rnd() < 0.5;
  const r = rnd();
  // Some at a random moment early on (boot, the first DB write, worktree creation, resume's recovery and reconciliation).
  if (r < 0.15) return { afterMs: Math.round(rnd() * (BOOT_MS + 300)), group };
  // Some anywhere in what is left of the run, a little past its expected end (so some rounds finish by themselves).
  if (r < 0.5) return { afterMs: Math.round(rnd() * (BOOT_MS + remaining * STEP_MS) * 1.1), group };
  // The rest shortly after a progress line: inside a commit, a gate, a tool call, a stream, the worktree's creation
  // (the first round aims there more often: the run row exists before its branch and worktree do). The offsets favour
  // the first milliseconds after the line, where the shortest windows are; 0 kills as soon as the line arrives.
  const markers = MARKERS.filter((m) => !m.only || m.only === command);
  const m = (command === 'run' && rnd() < 0.4 ? markers[0] : markers[Math.floor(rnd() * markers.length)]) as (typeof MARKERS)[number];
  return {
    label: m.label,
    line: m.line,
    nth: m.perStep ? 1 + Math.floor(rnd() * remaining) : 1,
    offsetMs: rnd() < 0.25 ? 0 : Math.round(rnd() ** 2 * m.windowMs),
    group,
  };
}

const cliInProcess = runCli;

async function newestRun(env: NodeJS.ProcessEnv): Promise<string | null> {
  const r = await cliInProcess(['list', '--json'], env);
  if (r.code !== 0) throw new Error(`ratchet list failed (${r.code}): ${r.err}`);
  return RunListItem.array().parse(JSON.parse(r.out))[0]?.id ?? null;
}

async function statusOf(id: string, env: NodeJS.ProcessEnv): Promise<StatusDocument> {
  const r = await cliInProcess(['status', id, '--json'], env);
  if (r.code !== 0) throw new Error(`ratchet status ${id} failed (${r.code}): ${r.err}`);
  return StatusDocument.parse(JSON.parse(r.out));
}

/** Where the killed process was, from its last progress line (stderr is written synchronously to a pipe). */
function phaseAt(stderr: string): string {
  const lines = stderr.split('\n').filter((l) => l.trim());
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = lines[i] as string;
    if (/^ {2}✓ step \d+ committed/.test(l)) return 'after a commit';
    if (/^ {4}gate \S+: passed/.test(l)) return 'commit';
    if (/^ {4}» /.test(l)) return 'gate';
    if (/^ {4}· bash /.test(l)) return 'tool call';
    if (/^ {4}· edit /.test(l)) return 'stream';
    if (/^ {2}attempt \d+ /.test(l)) return 'stream';
    if (/^▶ step /.test(l)) return 'attempt start';
    if (/^run \S+: /.test(l)) return 'worktree';
  }
  return stderr.includes('Workflow Resume Plan') ? 'resume recovery' : 'start-up';
}

// ---- one independent run: kill, resume, kill, ... until it succeeds -------------------------------------------------

interface RunResult {
  kills: number;
  rounds: number;
  phases: string[];
}

async function killAndResume(index: number, server: ScriptedServer, rnd: () => number): Promise<RunResult> {
  const repo = makeRepo({ 'package.json': '{ "name": "kill", "type": "module", "private": true }\n', 'README.md': '# kill\n' });
  const scratch = mkdtempSync(join(tmpdir(), 'ratchet-kill-'));
  const workflowFile = join(scratch, 'ratchet.yml');
  writeFileSync(workflowFile, WORKFLOW);
  const home = join(scratch, 'home');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    RATCHET_HOME: home,
    ANTHROPIC_BASE_URL: server.url,
    ANTHROPIC_API_KEY: 'sk-kill-test',
  };
  const where = `run #${index} (RATCHET_KILL_SEED=${SEED} RATCHET_KILL_ONLY=${index}; repo ${repo}, RATCHET_HOME ${home})`;
  const plannedKills = 3 + Math.floor(rnd() * 4); // 3 to 6
  const phases: string[] = [];
  const killLog: string[] = [];
  let runId: string | null = null;
  let kills = 0;
  let rounds = 0;
  let done = false;
  let remaining = STEPS;
  while (!done) {
    if (++rounds > MAX_ROUNDS) throw new Error(`${where}: not succeeded after ${MAX_ROUNDS} rounds (${kills} kills)`);
    const command = runId === null ? 'run' : 'resume';
    const plan = kills < plannedKills ? killPlan(rnd, command, remaining) : null;
    const args = runId === null ? ['run', repo, '--workflow', workflowFile, '--task', 'Kill test', '--yes', '--json'] : ['resume', runId, '--yes', '--json'];
    const r = await round(args, env, plan);
    runId ??= await newestRun(env);
    if (VERBOSE) {
      console.log(
        `run #${index} round ${rounds}: ${args[0]} ${r.killed ? `killed ${describePlan(plan)} (${phaseAt(r.stderr)})` : `exited ${r.code} after ${r.ms} ms`}, ${remaining} step(s) were left`,
      );
    }
    if (r.killed) {
      kills++;
      phases.push(phaseAt(r.stderr));
      killLog.push(`${describePlan(plan)} → ${phases.at(-1)}`);
      if (runId === null) continue; // killed before the run row was written: nothing to resume, start again
      const doc = await statusOf(runId, env);
      if (doc.status === 'succeeded')
        done = true; // killed after the last checkpoint, before exiting
      else if (doc.status !== 'interrupted') {
        throw new Error(
          `${where}: after kill ${kills} (${describePlan(plan)}, ${phases.at(-1)}) the run is ${doc.status}, expected interrupted: ${doc.reason}\n--- stderr of the killed round ---\n${r.stderr}`,
        );
      }
      remaining = doc.steps.filter((s) => s.status !== 'succeeded').length;
      continue;
    }
    if (r.code !== 0) {
      const doc = runId ? await statusOf(runId, env).catch(() => null) : null;
      throw new Error(
        `${where}: \`ratchet ${args.join(' ')}\` exited ${r.code ?? r.signal} by itself after ${kills} kill(s) (${killLog.join('; ')})` +
          `${doc ? `; the run is ${doc.status}: ${doc.reason}` : ''}\n--- stderr ---\n${r.stderr}`,
      );
    }
    done = true;
  }
  if (!runId) throw new Error(`${where}: no run id`);

  // ---- the result must be exact ----
  const doc = await statusOf(runId, env);
  const context = `${where}, run ${runId}, ${kills} kill(s): ${killLog.join('; ')}`;
  expect(doc.status, context).toBe('succeeded');
  const log = sh(repo, 'log', '--format=%H%x09%s', `${doc.baseCommit}..${doc.branch}`)
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [sha, subject] = l.split('\t') as [string, string];
      return { sha, subject };
    });
  const stepCommits = log.filter((c) => /^step \d+: /.test(c.subject));
  const others = log.filter((c) => !/^step \d+: /.test(c.subject));
  expect(
    others.map((c) => c.subject).filter((s) => !s.startsWith('rescue:')),
    `${context}: only step and rescue commits`,
  ).toEqual([]);
  for (let k = 1; k <= STEPS; k++) {
    const mine = stepCommits.filter((c) => c.subject.startsWith(`step ${k}: `));
    expect(
      mine.map((c) => c.subject),
      `${context}: step ${k} committed exactly once`,
    ).toEqual([`step ${k}: Write file ${k}`]);
    const s = doc.steps.find((x) => x.index === k);
    expect(s?.status, `${context}: step ${k} status`).toBe('succeeded');
    expect(s?.commit, `${context}: step ${k} checkpoint is git's commit`).toBe(mine[0]?.sha);
    expect(sh(repo, 'show', `${doc.branch}:steps/${k}.txt`), `${context}: steps/${k}.txt`).toBe(String(k));
    expect(sh(repo, 'show', `${doc.branch}:notes/${k}.md`), `${context}: notes/${k}.md`).toBe(`# Step ${k}`);
  }
  expect(stepCommits).toHaveLength(STEPS);
  // The user's own files survive every recovery (a rescue commit must never record them as deleted).
  expect(sh(repo, 'show', `${doc.branch}:package.json`), context).toContain('"kill"');
  expect(sh(repo, 'show', `${doc.branch}:README.md`), context).toBe('# kill');
  const attempts = doc.steps.flatMap((s) => s.attempts.map((a) => ({ step: s.index, ...a })));
  expect(
    attempts.filter((a) => a.outcome === 'running'),
    `${context}: no attempt left running`,
  ).toEqual([]);
  // A kill is not a failure of the agent's work: every attempt either passed or was interrupted.
  expect(
    attempts.filter((a) => a.outcome !== 'passed' && a.outcome !== 'interrupted').map((a) => `step ${a.step} attempt ${a.n}: ${a.outcome} ${a.errorClass}`),
    context,
  ).toEqual([]);
  const db = new Database(join(home, 'ratchet.db'), { readonly: true, fileMustExist: true });
  try {
    expect(db.pragma('integrity_check', { simple: true }), `${context}: integrity_check`).toBe('ok');
    expect((db.prepare("SELECT COUNT(*) AS n FROM attempts WHERE outcome = 'running'").get() as { n: number }).n, context).toBe(0);
  } finally {
    db.close();
  }
  if (!KEEP) {
    // Lingering agent shells or gates of a killed round have long finished; remove the worktree with the rest.
    rmSync(scratch, { recursive: true, force: true });
    rmSync(repo, { recursive: true, force: true });
  }
  return { kills, rounds, phases };
}

describe('kill -9 at random moments, then resume', () => {
  it(
    `every run resumes to completion with each step committed exactly once (${RUNS} runs)`,
    async () => {
      console.log(`kill test: seed ${SEED} (RATCHET_KILL_SEED=${SEED} reproduces the kill moments), ${RUNS} runs, ${PARALLEL} at a time`);
      expect(existsSync(NODE), `Node 22 at ${NODE}`).toBe(true);
      const server = await startScriptedServer({ script: agentScript });
      const started = Date.now();
      try {
        const results: RunResult[] = [];
        const errors: unknown[] = [];
        const queue = ONLY !== null ? [ONLY] : Array.from({ length: RUNS }, (_, i) => i);
        const worker = async () => {
          // After a failure no new run starts; the ones under way finish, so no CLI process outlives the test.
          while (queue.length && errors.length === 0) {
            const i = queue.shift() as number;
            try {
              // Each run draws from its own stream, so a run's kill moments do not depend on how the others interleave.
              results[i] = await killAndResume(i, server, prng(SEED + i * 0x9e3779b9));
            } catch (err) {
              errors.push(err);
            }
          }
        };
        await Promise.all(Array.from({ length: PARALLEL }, worker));
        if (errors.length) throw errors[0];
        const done = results.filter(Boolean);
        const kills = done.reduce((n, r) => n + r.kills, 0);
        const byPhase = new Map<string, number>();
        for (const p of done.flatMap((r) => r.phases)) byPhase.set(p, (byPhase.get(p) ?? 0) + 1);
        console.log(
          `kills by phase: ${[...byPhase]
            .sort((a, b) => b[1] - a[1])
            .map(([p, n]) => `${p} ${n}`)
            .join(', ')}`,
        );
        console.log(
          `kill test: ${done.length} runs, ${kills} kills, ${done.reduce((n, r) => n + r.rounds, 0)} rounds in ${((Date.now() - started) / 1000).toFixed(1)} s, ` +
            'all resumed to completion with every step committed exactly once',
        );
      } finally {
        await server.close();
      }
    },
    Math.max(120_000, RUNS * 40_000),
  );
});
