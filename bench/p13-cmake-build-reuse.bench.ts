// Benchmark P13 (CMake): a C library's worktree ready to test when the checkout's build/ is configured and built —
// `git worktree add`, Ratchet's reuse of build/ (copied and re-pointed), then setup's `cmake -S . -B build` and the
// gate's `cmake --build build` — ÷ the same worktree configured and built from scratch. Goal ≤ 0.5. Skipped (not
// failed) where cmake or a C compiler is missing.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reuseDependencies } from '../electron/engine/worktree-env/reuse-deps';
import { goalLine } from './measure';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SOURCES = 40;
const GOAL = 0.5;

function sh(cwd: string, file: string, args: string[]): Promise<string> {
  return new Promise((ok, fail) => {
    const c = spawn(file, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    c.stdout.on('data', (b: Buffer) => (out += String(b)));
    c.stderr.on('data', (b: Buffer) => (out += String(b)));
    c.on('error', fail);
    c.on('close', (code) => (code === 0 ? ok(out) : fail(new Error(`${file} ${args.join(' ')} exited ${code}: ${out.slice(-2000)}`))));
  });
}

/** A C library of SOURCES files and a ctest test, committed, configured and built in the checkout. */
async function project(root: string): Promise<string> {
  const repo = join(root, 'lib');
  mkdirSync(join(repo, 'src'), { recursive: true });
  const names = Array.from({ length: SOURCES }, (_, i) => `part${i}`);
  for (const [i, n] of names.entries()) {
    // Enough code per file that compiling is real work, as in a library's translation units.
    const fns = Array.from({ length: 40 }, (_, k) => `int ${n}_f${k}(int x) { int s = 0; for (int j = 0; j < x; j++) s += (j * ${k + i}) % 7; return s; }`);
    writeFileSync(join(repo, 'src', `${n}.c`), `#include <stdio.h>\n${fns.join('\n')}\n`);
  }
  writeFileSync(join(repo, 'src', 'main_test.c'), 'int part0_f1(int);\nint main(void) { return part0_f1(3) == 3 ? 0 : 1; }\n');
  writeFileSync(
    join(repo, 'CMakeLists.txt'),
    `cmake_minimum_required(VERSION 3.16)\nproject(lib C)\nenable_testing()\nadd_library(lib ${names.map((n) => `src/${n}.c`).join(' ')})\nadd_executable(lib_test src/main_test.c)\ntarget_link_libraries(lib_test lib)\nadd_test(NAME lib_test COMMAND lib_test)\n`,
  );
  writeFileSync(join(repo, '.gitignore'), 'build/\n');
  await sh(repo, 'git', ['init', '-q', '-b', 'main']);
  await sh(repo, 'git', ['add', '-A']);
  await sh(repo, 'git', ['-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-qm', 'lib']);
  await sh(repo, 'cmake', ['-S', '.', '-B', 'build']);
  await sh(repo, 'cmake', ['--build', 'build']);
  return repo;
}

async function ready(repo: string, wt: string, reuse: boolean): Promise<{ ms: number; compiled: number }> {
  const t0 = performance.now();
  await sh(repo, 'git', ['worktree', 'add', '-q', '--detach', wt, 'HEAD']);
  if (reuse) await reuseDependencies(repo, wt, (await sh(wt, 'git', ['ls-files'])).split('\n').filter(Boolean));
  await sh(wt, 'cmake', ['-S', '.', '-B', 'build']);
  const build = await sh(wt, 'cmake', ['--build', 'build']);
  return { ms: performance.now() - t0, compiled: (build.match(/Building C object/g) ?? []).length };
}

const missing = ['cmake', 'cc'].find((t) => spawnSync(t, ['--version']).status !== 0);
if (missing) {
  console.log(`P13 CMake worktree ready — skipped: ${missing} is not installed`);
} else {
  const root = mkdtempSync(join(tmpdir(), 'ratchet-p13-cmake-'));
  try {
    const repo = await project(root);
    const ratios: number[] = [];
    let last = { reused: { ms: 0, compiled: 0 }, fresh: { ms: 0, compiled: 0 } };
    for (let r = 0; r < ROUNDS; r++) {
      const fresh = await ready(repo, join(root, `fresh-${r}`), false);
      const reused = await ready(repo, join(root, `reused-${r}`), true);
      ratios.push(reused.ms / fresh.ms);
      last = { reused, fresh };
    }
    ratios.sort((a, b) => a - b);
    const ok = goalLine('P13', 'CMake worktree ready (build/ reused) ÷ a fresh configure and build', ratios[Math.floor(ratios.length / 2)]!, GOAL);
    console.log(
      `    reused ${(last.reused.ms / 1000).toFixed(1)} s (${last.reused.compiled} files compiled) vs fresh ${(last.fresh.ms / 1000).toFixed(1)} s (${last.fresh.compiled} compiled); ${SOURCES} C files, ${ROUNDS} rounds`,
    );
    process.exitCode = ok ? 0 : 1;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
