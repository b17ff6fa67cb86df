// Benchmark P14: a gate in the OS sandbox (a run's worktree, Ratchet's real gate runner, caches warm) ÷ the same test
// command in the user's checkout after the same change, for the Go module, the Rust crate and the Python package of the
// real-project tests. The goal line gives the worst of the three (goal ≤ 1.15). The gates measured are those of steps
// 2… of one run, each after its own change: the worktree's build state warm, as the checkout's is; the checkout's runs
// are made between those steps, each after a change of its own, so both sides see the same machine. The run's first gate
// is printed beside it: a new worktree at a new path starts with no build state of its own (Go's build cache and
// rustc's incremental cache are keyed by the folder; Ratchet's shared caches hold the rest), which P13 and the first
// gate's figure show.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine } from '../electron/engine/engine';
import { runGate } from '../electron/engine/gates/run-gate';
import { SANDBOX_AVAILABLE, NO_SANDBOX_REASON } from '../electron/engine/testing/sandbox-mode';
import { create, queue, say, turn } from '../electron/engine/testing/fixture-project';
import { makeGoModule } from '../electron/engine/testing/real-projects/go-module';
import { makePythonPackage } from '../electron/engine/testing/real-projects/python-package';
import { commitFix, Unavailable, type Ecosystem, type RealProject } from '../electron/engine/testing/real-projects/real-project';
import { makeRustCrate } from '../electron/engine/testing/real-projects/rust-crate';
import { tempDir } from '../electron/engine/testing/temp-repo';
import { projectWorkflow } from '../electron/cli/testing/real-project-run';
import { startScriptedServer } from '../electron/scripted/server';
import { goalLine } from './measure';

const ROUNDS = 7;
const GOAL = 1.15;

/**
 * Round k's change, appended to the project's files: new code and a test of it, so each gate compiles the change and
 * a gate that tests anything but the worktree's code (the checkout's, through an editable install) fails.
 */
const ROUND_CHANGE: Partial<Record<Ecosystem, (k: number) => Record<string, string>>> = {
  go: (k) => ({
    'stats/stats.go': `\n// Round is the benchmark's round: a change the gate must compile.\nconst Round = ${k}\n`,
    'stats/stats_test.go': `\nfunc TestRound(t *testing.T) {\n\tif Round != ${k} {\n\t\tt.Fatalf("Round = %d", Round)\n\t}\n}\n`,
  }),
  rust: (k) => ({
    'src/lib.rs': `\n/// The benchmark's round: a change the gate must compile.\npub const ROUND: u32 = ${k};\n\n#[test]\nfn round_is_the_worktrees() {\n    assert_eq!(ROUND, ${k});\n}\n`,
  }),
  python: (k) => ({
    'src/relpick/__init__.py': `\nROUND = ${k}  # the benchmark's round: a change the gate must import\n`,
    'tests/test_round.py': `from relpick import ROUND\n\n\ndef test_round_is_the_worktrees():\n    assert ROUND == ${k}\n`,
  }),
};

/** The files of `repo` with round k's change appended (new files start empty). */
function changed(repo: string, change: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(change).map(([path, text]) => {
      const file = join(repo, path);
      return [path, `${existsSync(file) ? readFileSync(file, 'utf8') : ''}${text}`];
    }),
  );
}

type Outcome =
  | { ecosystem: Ecosystem; ratio: number; sandboxMs: number; checkoutMs: number; firstMs: number }
  | { ecosystem: Ecosystem; failed: string }
  | { ecosystem: Ecosystem; skipped: string };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function measure(ecosystem: Ecosystem, make: () => RealProject): Promise<Outcome> {
  let p: RealProject;
  const t0 = performance.now();
  const phase = (what: string, from: number) => console.log(`  ${ecosystem}: ${what} in ${((performance.now() - from) / 1000).toFixed(1)} s`);
  try {
    p = make();
    phase('project made (dependencies installed, the bug confirmed)', t0);
  } catch (err) {
    if (err instanceof Unavailable) return { ecosystem, skipped: err.message };
    throw err;
  }
  commitFix(p);
  const roundChange = ROUND_CHANGE[p.ecosystem]!;
  const wfDir = tempDir('ratchet-p14-wf-');
  const homeDir = tempDir('ratchet-p14-home-');
  const workflowFile = join(wfDir, 'ratchet.yml');
  // Step k of the run makes round k's change: its gate compiles and tests that change, as the checkout's round k does.
  const steps = Array.from({ length: ROUNDS + 1 }, (_, i) => `  - title: Round ${i + 1}\n`).join('');
  writeFileSync(workflowFile, `${(await projectWorkflow(p)).text}backoff: { base_s: 0, max_s: 0, jitter: 0 }\nmax_retries: 0\nsteps:\n${steps}`);
  const server = await startScriptedServer({ script: { rules: [] } });
  const userEnv = p.shellEnv;
  const engine = createEngine({ home: join(homeDir, 'home'), env: { ...userEnv, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url } });
  const gate = { name: 'test', run: p.testCommand, timeoutS: 600 };

  // The user runs the test command in their checkout after the same change, then puts the checkout back.
  const inCheckout = async (k: number): Promise<number> => {
    const files = changed(p.repo, roundChange(k));
    const before = Object.fromEntries(Object.keys(files).map((f) => [f, existsSync(join(p.repo, f)) ? readFileSync(join(p.repo, f), 'utf8') : null]));
    for (const [f, text] of Object.entries(files)) writeFileSync(join(p.repo, f), text);
    try {
      const r = await runGate(gate, { cwd: p.repo, env: userEnv });
      if (!r.passed) throw new Error(`\`${p.testCommand}\` failed in the checkout:\n${r.output.slice(-2000)}`);
      return r.durationMs;
    } finally {
      for (const [f, text] of Object.entries(before)) {
        if (text === null) rmSync(join(p.repo, f), { force: true });
        else writeFileSync(join(p.repo, f), text);
      }
    }
  };

  const warmupFile = join(wfDir, 'warmup.yml');
  writeFileSync(warmupFile, `${(await projectWorkflow(p)).text}backoff: { base_s: 0, max_s: 0, jitter: 0 }\nmax_retries: 0\nsteps:\n  - title: Round 0\n`);

  try {
    // Warm-up: the checkout's caches (the developer's), and Ratchet's shared caches from an earlier run.
    const tWarm = performance.now();
    await inCheckout(0);
    server.setScript({
      rules: [
        ...queue(turn(...Object.entries(changed(p.repo, roundChange(0))).map(([f, text]) => create(f, text))), say('Round 0.')),
        { response: say('Nothing more.') },
      ],
    });
    const warmRun = await engine.createRun(await engine.prepareRun({ repo: p.repo, workflowFile: warmupFile }));
    const warmDoc = await engine.execute(warmRun, new AbortController().signal);
    if (warmDoc.status !== 'succeeded') return { ecosystem: p.ecosystem, failed: `the warm-up run ended ${warmDoc.status}: ${warmDoc.reason}` };
    phase('warm-up (a checkout gate and a one-step run)', tWarm);
    const tRun = performance.now();
    const c: number[] = [];
    // One run whose agent makes round k's change in step k: each step's one gate, as Ratchet's gate runner timed it
    // in the sandbox. Step 1's is the run's first gate (a new worktree); steps 2… are gates with the run's caches warm.
    const rounds = Array.from({ length: ROUNDS + 1 }, (_, i) => i + 1);
    server.setScript({
      rules: [
        ...queue(
          ...rounds.flatMap((k) => [
            turn(...Object.entries(changed(p.repo, roundChange(k))).map(([f, text]) => create(f, text))),
            say(`Round ${k}: added the constant and its test.`),
          ]),
        ),
        { response: say('Nothing more to change.') },
      ],
    });
    const runId = await engine.createRun(await engine.prepareRun({ repo: p.repo, workflowFile }));
    // The user's side is measured between the run's steps (the run asks after each one, and goes on): each checkout
    // gate right after a gate of the run, on a machine as busy, with a change the checkout has not seen either.
    const doc = await engine.execute(runId, new AbortController().signal, {
      auto: 'step',
      confirmNext: async (q) => {
        c.push(await inCheckout(q.done.index));
        return 'yes';
      },
    });
    phase(`measured run (${ROUNDS + 1} steps, ${ROUNDS} checkout gates between them)`, tRun);
    const s: number[] = [];
    for (const k of rounds) {
      const attempt = engine.store.getAttempts(runId, k)[0];
      const result = attempt ? engine.store.getGateResults(attempt.id)[0] : undefined;
      if (!result) return { ecosystem: p.ecosystem, failed: `no gate ran for step ${k} (${doc.status}: ${doc.reason})` };
      if (!result.passed)
        return {
          ecosystem: p.ecosystem,
          failed: `step ${k}'s gate failed in the sandbox as ${attempt!.error_class}: ${attempt!.error_message?.split('\n')[0] ?? result.output.slice(-300)}`,
        };
      s.push(result.durationMs);
    }
    const [firstMs, ...warm] = s as [number, ...number[]];
    const checkoutMs = median(c);
    return { ecosystem: p.ecosystem, ratio: median(warm) / checkoutMs, sandboxMs: median(warm), checkoutMs, firstMs };
  } finally {
    engine.close();
    await engine.releaseSandbox();
    await server.close();
    for (const dir of [p.repo, wfDir, homeDir]) rmSync(dir, { recursive: true, force: true });
  }
}

if (!SANDBOX_AVAILABLE) {
  console.log(`P14 sandboxed gate: skipped (${NO_SANDBOX_REASON})`);
  process.exit(0);
}
const outcomes: Outcome[] = [];
// `tsx bench/p14-sandboxed-gate.bench.ts go rust` measures only those.
const only = process.argv.slice(2);
for (const [ecosystem, make] of [
  ['go', makeGoModule],
  ['rust', makeRustCrate],
  ['python', makePythonPackage],
] as const) {
  if (only.length && !only.includes(ecosystem)) continue;
  outcomes.push(await measure(ecosystem, make));
}
for (const o of outcomes) {
  if ('skipped' in o) console.log(`  ${o.ecosystem}: skipped (${o.skipped})`);
  else if ('failed' in o) console.log(`  ${o.ecosystem}: ${o.failed}`);
  else {
    const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    console.log(
      `  ${o.ecosystem}: gate ${secs(o.sandboxMs)} in the sandbox vs ${secs(o.checkoutMs)} in the checkout (medians of ${ROUNDS} gates of a run and ${ROUNDS} checkout runs between them): ratio ${o.ratio.toFixed(2)}`,
    );
    console.log(
      `    the run's first gate (a new worktree, Ratchet's caches warm from an earlier run): ${secs(o.firstMs)}, ratio ${(o.firstMs / o.checkoutMs).toFixed(2)}`,
    );
  }
}
const measured = outcomes.filter((o) => !('skipped' in o));
if (measured.length === 0) {
  console.log('P14 sandboxed gate: skipped (none of go, cargo, python3 is installed here)');
  process.exit(0);
}
// The worst project decides: a user waits on the slowest ecosystem's gate, and a failed gate is no speed at all.
const worst = Math.max(...measured.map((o) => ('ratio' in o ? o.ratio : Infinity)));
const ok = goalLine('P14', 'sandboxed gate', worst, GOAL);
console.log(`  (the worst of ${measured.map((o) => o.ecosystem).join(', ')})`);
process.exit(ok ? 0 : 1);
