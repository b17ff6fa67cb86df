// npm test: typecheck, lint, the unit and integration tests (vitest), then the end-to-end specs (app build + specs), each phase timed;
// stops at the first phase that fails and prints the table of phase times either way, so CI's log shows where the minutes went.
import { spawnSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';

/** The phases, in order: each is an npm script of package.json, so a phase is still run alone as `npm run <script>`. */
const PHASES = [
  ['typecheck', 'typecheck'],
  ['lint', 'lint'],
  ['vitest', 'test:unit'],
  ['e2e build', 'build'],
  ['e2e specs', 'test:e2e'],
];

const npm = process.env.npm_execpath;
const times = [];
let failed;
for (const [name, script] of PHASES) {
  console.log(`== ${name} (npm run ${script})`);
  const start = performance.now();
  // Through the npm that runs us (npm_execpath), so node_modules/.bin stays first on the PATH; plain `npm` otherwise.
  const r = npm
    ? spawnSync(process.execPath, [npm, 'run', '--silent', script], { stdio: 'inherit' })
    : spawnSync('npm', ['run', '--silent', script], { stdio: 'inherit' });
  const seconds = Math.round((performance.now() - start) / 1000);
  times.push([name, seconds]);
  // .ci/run lists these under its own "npm test" phase.
  if (process.env.RATCHET_TEST_PHASES) appendFileSync(process.env.RATCHET_TEST_PHASES, `${name}\t${seconds}\n`);
  console.log(`== ${name} (${seconds} s)${r.status === 0 ? '' : ' FAILED'}`);
  if (r.status !== 0) {
    failed = `${name} failed (exit ${r.status ?? r.signal})`;
    break;
  }
}
const total = times.reduce((s, [, t]) => s + t, 0);
console.log('\n== npm test phases');
for (const [name, seconds] of times) console.log(`   ${name.padEnd(12)} ${String(seconds).padStart(5)} s`);
console.log(`   ${'total'.padEnd(12)} ${String(total).padStart(5)} s`);
if (failed) {
  console.error(failed);
  process.exit(1);
}
