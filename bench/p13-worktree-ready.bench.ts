// Benchmark P13: a worktree ready to test for an npm project with a few hundred packages whose checkout is already
// installed — Ratchet's time from run start to its first gate starting ÷ `git worktree add` + `npm ci` (warm npm cache),
// run raw. Both in the same run, alternating rounds; the project is installed from the user's configured registry. The
// goal line gives the worse of the rounds' ratios (two by default: the ratio sits near 0.08 against a goal of 0.3, and
// each round costs a raw npm ci of the whole tree).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../electron/engine/engine';
import { goalLine } from './measure';

const ROUNDS = Number(process.env.BENCH_P13_ROUNDS ?? 2);
const GOAL = 0.3;

// Real packages with their real dependency trees: a test runner, a compiler, a linter, a bundler and common libraries.
const DEPENDENCIES = {
  vitest: '^3.0.0',
  typescript: '^5.0.0',
  eslint: '^9.0.0',
  prettier: '^3.0.0',
  webpack: '^5.0.0',
  mocha: '^10.0.0',
  express: '^4.0.0',
  lodash: '^4.17.0',
  zod: '^3.0.0',
  'date-fns': '^3.0.0',
  chalk: '^5.0.0',
  commander: '^12.0.0',
};

function sh(cwd: string, file: string, args: string[]): Promise<void> {
  return new Promise((ok, fail) => {
    const c = spawn(file, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    c.stderr.on('data', (b: Buffer) => (err += String(b)));
    c.on('error', fail);
    c.on('close', (code) => (code === 0 ? ok() : fail(new Error(`${file} ${args.join(' ')} exited ${code}: ${err.slice(-2000)}`))));
  });
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', ...args], { cwd, encoding: 'utf8' });

/** The project, installed in its checkout (this also warms the npm cache the raw `npm ci` uses). */
async function project(root: string): Promise<string> {
  const repo = join(root, 'app');
  execFileSync('mkdir', ['-p', join(repo, 'test')]);
  writeFileSync(
    join(repo, 'package.json'),
    `${JSON.stringify({ name: 'p13-app', private: true, type: 'module', scripts: { test: 'vitest run' }, dependencies: DEPENDENCIES }, null, 2)}\n`,
  );
  writeFileSync(join(repo, 'test', 'sum.test.js'), "import { test, expect } from 'vitest';\ntest('sum', () => expect(1 + 1).toBe(2));\n");
  writeFileSync(join(repo, '.gitignore'), 'node_modules/\n');
  await sh(repo, 'npm', ['install', '--no-audit', '--no-fund']);
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'app');
  return repo;
}

/** Ratchet: run start (worktree, copy, setup, the gates' view of the code) until its first gate starts. */
async function ratchetReady(repo: string, root: string, workflowFile: string): Promise<number> {
  const engine = createEngine({ home: mkdtempSync(join(root, 'home-')), env: { ...process.env, ANTHROPIC_API_KEY: 'k' } });
  const stop = new AbortController();
  let firstGate = 0;
  engine.onEvent((e) => {
    if (!firstGate && (e.type === 'baseline.started' || e.type === 'gate.started')) {
      firstGate = performance.now();
      stop.abort();
    }
  });
  const t0 = performance.now();
  try {
    const runId = await engine.createRun(await engine.prepareRun({ repo, workflowFile }));
    await engine.execute(runId, stop.signal);
    if (!firstGate) throw new Error(`the run ended before a gate started: ${engine.status(runId).reason}`);
    return firstGate - t0;
  } finally {
    engine.close();
    await engine.releaseSandbox();
  }
}

/** Raw: the worktree, then npm ci with the warm cache. */
async function rawReady(repo: string, root: string, n: number): Promise<number> {
  const wt = join(root, `raw-${n}`);
  const t0 = performance.now();
  await sh(repo, 'git', ['worktree', 'add', '-q', '--detach', wt, 'HEAD']);
  await sh(wt, 'npm', ['ci', '--no-audit', '--no-fund']);
  return performance.now() - t0;
}

const root = mkdtempSync(join(tmpdir(), 'ratchet-p13-'));
try {
  const t0 = performance.now();
  const repo = await project(root);
  const installS = (performance.now() - t0) / 1000;
  const packages = readdirSync(join(repo, 'node_modules')).flatMap((d) =>
    d.startsWith('@') ? readdirSync(join(repo, 'node_modules', d)) : d.startsWith('.') ? [] : [d],
  ).length;
  const workflowFile = join(root, 'ratchet.yml');
  writeFileSync(workflowFile, 'setup: "npm ci"\ngates: { test: "npx vitest run" }\nagent: { kind: command, command: ["true"] }\nsteps: [{ title: one }]\n');
  const ratios: number[] = [];
  let last = { ratchet: 0, raw: 0 };
  for (let r = 0; r < ROUNDS; r++) {
    const raw = await rawReady(repo, root, r);
    const ratchet = await ratchetReady(repo, root, workflowFile);
    ratios.push(ratchet / raw);
    last = { ratchet, raw };
  }
  const ok = goalLine('P13', 'worktree ready to test', Math.max(...ratios), GOAL);
  console.log(`    (the project installed in its checkout in ${installS.toFixed(1)} s)`);
  console.log(
    `    Ratchet ${(last.ratchet / 1000).toFixed(1)} s to its first gate vs raw git worktree add + npm ci ${(last.raw / 1000).toFixed(1)} s; ${packages} packages, ${ROUNDS} rounds (ratios ${ratios.map((x) => x.toFixed(2)).join(' ')}), sandbox as configured`,
  );
  process.exitCode = ok ? 0 : 1;
} finally {
  rmSync(root, { recursive: true, force: true });
}
