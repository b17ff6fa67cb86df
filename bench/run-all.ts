// Runs every `bench/*.bench.ts` in its own process (one store, one event loop each) and fails if any goal was missed.
// Ends with each benchmark's wall time and a table of every goal line the benchmarks printed (CI's log ends with both).
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { goalTable, parseGoalLine, type GoalRow } from './goals';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

/** Runs one benchmark, its output passed through as it comes; returns its exit and the goal lines it printed. */
function runOne(f: string): Promise<{ code: number | string; goals: GoalRow[] }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(here, f)], { stdio: ['ignore', 'pipe', 'inherit'], env: process.env });
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
