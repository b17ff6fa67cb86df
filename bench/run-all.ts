// Runs every `bench/*.bench.ts` in its own process (one store, one event loop each) and fails if any goal was missed.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
let failed = 0;
const times: Array<[string, number]> = [];
for (const f of files) {
  const start = performance.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(here, f)], { stdio: 'inherit', env: process.env });
  times.push([f, Math.round((performance.now() - start) / 1000)]);
  if (r.status !== 0) {
    failed++;
    console.error(`${f}: exit ${r.status ?? r.signal}`);
  }
}
// Each benchmark's wall time, so CI's log says which one its minutes went to (after the goal lines, which stay as they are).
console.log('\n== benchmark times');
for (const [f, s] of times) console.log(`   ${f.padEnd(32)} ${String(s).padStart(4)} s`);
console.log(`   ${'total'.padEnd(32)} ${String(times.reduce((t, [, s]) => t + s, 0)).padStart(4)} s`);
process.exit(failed ? 1 : 0);
