// npm test: typecheck, lint and the app's build (side by side), the unit and integration tests (vitest), then the end-to-end
// specs, each phase timed; stops after the first step that fails and prints the table of phase times either way, so CI's log
// shows where the minutes went.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';

/**
 * The steps, in order; the phases of one step run at the same time. Each phase is an npm script of package.json, so it is
 * still run alone as `npm run <script>`. tsc, eslint and prettier each use one core: typecheck and lint together fill two;
 * the app's build for the e2e specs (a few seconds, and nothing the others read or write) goes beside them.
 */
const STEPS = [
  [
    ['typecheck', 'typecheck'],
    ['lint', 'lint'],
    ['e2e build', 'build'],
  ],
  [['vitest', 'test:unit']],
  [['e2e specs', 'test:e2e']],
];

const npm = process.env.npm_execpath;

/** Runs `npm run <script>`; a phase that shares its step with others has its output held and printed whole when it ends. */
function run(name, script, alone) {
  return new Promise((done) => {
    console.log(`== ${name} (npm run ${script})`);
    const start = performance.now();
    const args = ['run', '--silent', script];
    // Through the npm that runs us (npm_execpath), so node_modules/.bin stays first on the PATH; plain `npm` otherwise.
    const child = npm
      ? spawn(process.execPath, [npm, ...args], { stdio: alone ? 'inherit' : 'pipe' })
      : spawn('npm', args, { stdio: alone ? 'inherit' : 'pipe' });
    let held = '';
    child.stdout?.on('data', (d) => (held += String(d)));
    child.stderr?.on('data', (d) => (held += String(d)));
    child.on('close', (code, signal) => {
      const seconds = Math.round((performance.now() - start) / 1000);
      if (held) process.stdout.write(`-- ${name}:\n${held}`);
      console.log(`== ${name} (${seconds} s)${code === 0 ? '' : ' FAILED'}`);
      done({ name, seconds, failed: code === 0 ? null : `${name} failed (exit ${code ?? signal})` });
    });
  });
}

const times = [];
let failed = [];
const started = performance.now();
for (const step of STEPS) {
  const results = await Promise.all(step.map(([name, script]) => run(name, script, step.length === 1)));
  for (const r of results) {
    times.push([r.name, r.seconds]);
    // .ci/run lists these under its own "npm test" phase.
    if (process.env.RATCHET_TEST_PHASES) appendFileSync(process.env.RATCHET_TEST_PHASES, `${r.name}${step.length > 1 ? ' (parallel)' : ''}\t${r.seconds}\n`);
  }
  failed = results.flatMap((r) => (r.failed ? [r.failed] : []));
  if (failed.length) break;
}
console.log('\n== npm test phases (typecheck, lint and the e2e build side by side)');
for (const [name, seconds] of times) console.log(`   ${name.padEnd(12)} ${String(seconds).padStart(5)} s`);
console.log(`   ${'total'.padEnd(12)} ${String(Math.round((performance.now() - started) / 1000)).padStart(5)} s`);
if (failed.length) {
  console.error(failed.join('\n'));
  process.exit(1);
}
