// Runs every `bench/*.bench.ts` in its own process (one store, one event loop each) and fails if any goal was missed.
// Ends with each benchmark's wall time and a table of every goal line the benchmarks printed (CI's log ends with both).
// Fixtures two benchmarks can share are built once here and handed over through the environment: the dashboard's store
// (1M attempts), which the dashboard measures as it is and start-up (P12) then fills to its 5 GB. Each benchmark still
// runs alone, building its own.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { goalTable, parseGoalLine, type GoalRow } from './goals';
import { buildDashboardHome, DASHBOARD_STORE, SHARED_HOME_ENV } from './history-store';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

/** Runs one benchmark, its output passed through as it comes; returns its exit and the goal lines it printed. */
function runOne(f: string): Promise<{ code: number | string; goals: GoalRow[] }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(here, f)], { stdio: ['ignore', 'pipe', 'inherit'], env });
    const goals: GoalRow[] = [];
    let rest = '';
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop() ?? '';
      for (const l of lines) {
        const g = parseGoalLine(l);
        if (g) goals.push(g);
      }
    });
    child.on('close', (code, signal) => {
      const g = parseGoalLine(rest);
      if (g) goals.push(g);
      resolve({ code: code ?? signal ?? 'unknown', goals });
    });
  });
}

let failed = 0;
const times: Array<[string, number]> = [];
const goals: Array<GoalRow & { bench: string }> = [];
const env: NodeJS.ProcessEnv = { ...process.env };
const sharedDir = mkdtempSync(join(tmpdir(), 'ratchet-bench-shared-'));
process.on('exit', () => rmSync(sharedDir, { recursive: true, force: true }));
// The dashboard's store, once for the dashboard and start-up (start-up alone builds a smaller history of its own).
if (!env[SHARED_HOME_ENV] && files.some((f) => f.startsWith('dashboard.'))) {
  const start = performance.now();
  const home = join(sharedDir, 'home');
  const attempts = await buildDashboardHome(home, DASHBOARD_STORE);
  env[SHARED_HOME_ENV] = home;
  times.push(['(shared store)', Math.round((performance.now() - start) / 1000)]);
  console.log(`built the shared store of ${attempts} attempts for the dashboard and start-up in ${((performance.now() - start) / 1000).toFixed(1)} s`);
}
for (const f of files) {
  const start = performance.now();
  const r = await runOne(f);
  times.push([f, Math.round((performance.now() - start) / 1000)]);
  goals.push(...r.goals.map((g) => ({ ...g, bench: f })));
  if (r.code !== 0) {
    failed++;
    console.error(`${f}: exit ${r.code}`);
  }
}
// Each benchmark's wall time, so CI's log says which one its minutes went to (after the goal lines, which stay as they are).
console.log('\n== benchmark times');
for (const [f, s] of times) console.log(`   ${f.padEnd(32)} ${String(s).padStart(4)} s`);
console.log(`   ${'total'.padEnd(32)} ${String(times.reduce((t, [, s]) => t + s, 0)).padStart(4)} s`);
console.log('\n== goals');
console.log(goalTable(goals));
process.exit(failed ? 1 : 0);
