// Benchmark P9: the engine's time per step with an instant agent (the scripted server) and no gate ÷ the git commands a
// step must run, run raw (spawned directly) in the same process: snapshot the tree, keep it as the attempt's ref, diff it,
// commit the step. The subject's own git commands are counted, so the baseline runs as many per step as the engine did.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../electron/engine/engine';
import { gitLog } from '../electron/engine/git/repo-git';
import { startScriptedServer } from '../electron/scripted/server';
import { byStep } from '../electron/engine/testing/recovery-fixtures';
import { makeRepo } from '../electron/engine/testing/temp-repo';

const STEPS = Number(process.env.BENCH_STEPS ?? 10);
const ROUNDS = 5;
const GOAL = 1.3;

function raw(cwd: string, args: string[]): Promise<string> {
  return new Promise((ok, fail) => {
    const c = spawn('git', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    c.stdout.on('data', (b: Buffer) => (out += String(b)));
    c.on('error', fail);
    c.on('close', () => ok(out));
  });
}

/** One engine run of STEPS steps; returns ms per step and git commands per step. */
async function engineRun(url: string): Promise<{ msPerStep: number; gitPerStep: number }> {
  const repo = makeRepo({ 'package.json': '{}\n' });
  const wf = join(mkdtempSync(join(tmpdir(), 'ratchet-bench-wf-')), 'ratchet.yml');
  writeFileSync(wf, `gates: { ok: "true" }\nsteps:\n${Array.from({ length: STEPS }, (_, i) => `  - title: Step ${i + 1}\n    gates: []\n`).join('')}`);
  const engine = createEngine({
    home: join(mkdtempSync(join(tmpdir(), 'ratchet-bench-home-')), 'home'),
    env: { ...process.env, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: url },
  });
  // Steps with `gates: []` on purpose (the engine's own overhead, no gate time): they run only without checks.
  const runId = await engine.createRun(await engine.prepareRun({ repo, workflowFile: wf, noGates: true }));
  gitLog.commands = [];
  gitLog.record = true;
  const t0 = performance.now();
  const doc = await engine.execute(runId, new AbortController().signal);
  const ms = performance.now() - t0;
  gitLog.record = false;
  engine.close();
  await engine.releaseSandbox();
  if (doc.status !== 'succeeded') throw new Error(`the bench run ended ${doc.status}: ${doc.reason}`);
  return { msPerStep: ms / STEPS, gitPerStep: gitLog.commands.length / STEPS };
}

/** The git work of STEPS steps, raw: a file changes, the tree is snapshotted and kept, diffed, and committed. */
async function rawSteps(perStep: number): Promise<number> {
  const repo = makeRepo({ 'package.json': '{}\n' });
  const id = ['-c', 'user.name=b', '-c', 'user.email=b@b'];
  const t0 = performance.now();
  for (let k = 1; k <= STEPS; k++) {
    writeFileSync(join(repo, `f${k}.txt`), `step ${k}\n`);
    const cmds: string[][] = [];
    const head = (await raw(repo, ['rev-parse', 'HEAD'])).trim();
    await raw(repo, ['add', '-A']);
    const tree = (await raw(repo, ['write-tree'])).trim();
    const sha = (await raw(repo, [...id, 'commit-tree', tree, '-p', head, '-m', 'attempt'])).trim();
    await raw(repo, ['update-ref', `refs/bench/${k}`, sha]);
    const before = (await raw(repo, ['rev-parse', `${head}^{tree}`])).trim();
    await raw(repo, ['diff', '--no-color', '--no-ext-diff', before, tree]);
    await raw(repo, [...id, 'commit', '--allow-empty', '--no-verify', '-q', '-m', `step ${k}`]);
    let n = 8;
    // As many more as the engine ran (its lookups: HEAD, config): cheap read-only commands.
    while (n < perStep) {
      cmds.push(['rev-parse', 'HEAD']);
      n++;
    }
    for (const c of cmds) await raw(repo, c);
  }
  return (performance.now() - t0) / STEPS;
}

execFileSync('git', ['--version']);
const server = await startScriptedServer({ script: byStep });
const ratios: number[] = [];
let last = { msPerStep: 0, gitPerStep: 0, rawMs: 0 };
await engineRun(server.url); // warm-up
for (let r = 0; r < ROUNDS; r++) {
  const e = await engineRun(server.url);
  const rawMs = await rawSteps(Math.round(e.gitPerStep));
  ratios.push(e.msPerStep / rawMs);
  last = { ...e, rawMs };
}
await server.close();
ratios.sort((a, b) => a - b);
const ratio = ratios[Math.floor(ratios.length / 2)] as number;
const ok = ratio <= GOAL;
console.log(`P9 engine overhead per step ÷ its git commands run raw: ratio ${ratio.toFixed(2)} (goal ≤ ${GOAL}) ${ok ? 'ok' : 'MISSED'}`);
console.log(
  `    engine ${last.msPerStep.toFixed(1)} ms per step (${last.gitPerStep.toFixed(1)} git commands) vs raw git ${last.rawMs.toFixed(1)} ms; ${STEPS} steps, sandbox as configured, no gate`,
);
process.exit(ok ? 0 : 1);
