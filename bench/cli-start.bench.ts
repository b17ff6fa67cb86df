// Benchmark P11: `ratchet --help` and `ratchet list --json` over 1,000 runs, each as a new process through bin/ratchet.mjs
// (the built CLI), wall time ÷ `node -e 0` measured in the same run. The ratio printed is the slower of the two.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openDatabase } from '../electron/engine/store/open-store';
import { Store } from '../electron/engine/store/store';
import { buildCli } from '../scripts/build-cli.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'ratchet.mjs');
const RUNS = 1000;
const ROUNDS = 15;
const GOAL = 4;

await buildCli();
const dir = mkdtempSync(join(tmpdir(), 'ratchet-bench-cli-'));
const home = join(dir, 'home');
const { db } = openDatabase(home);
const store = new Store(db);
const steps = Array.from({ length: 5 }, (_, i) => ({ title: `step ${i + 1}`, prompt: '' }));
store.tx(() => {
  for (let i = 0; i < RUNS; i++) {
    store.createRun({
      runId: `run-${String(i).padStart(5, '0')}`,
      repoPath: dir,
      repoName: 'bench',
      title: `task ${i}`,
      description: '',
      workflow: { gates: {}, steps } as never,
      baseBranch: 'main',
      baseCommit: 'b'.repeat(40),
      branch: `ratchet/bench-${i}`,
      worktree: join(dir, `wt-${i}`),
    });
    store.setRunStatus(`run-${String(i).padStart(5, '0')}`, i % 3 ? 'succeeded' : 'failed', null, { finished: true });
  }
});
db.close();

const env = { ...process.env, RATCHET_HOME: home };
function wall(args: string[]): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${String(r.stderr)}`);
  return ms;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const listed = JSON.parse(String(spawnSync(process.execPath, [BIN, 'list', '--json'], { env }).stdout)) as unknown[];
if (listed.length !== RUNS) throw new Error(`list --json answered ${listed.length} runs, expected ${RUNS}`);

const base: number[] = [];
const help: number[] = [];
const list: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  base.push(wall(['-e', '0']));
  help.push(wall([BIN, '--help']));
  list.push(wall([BIN, 'list', '--json']));
}
rmSync(dir, { recursive: true, force: true });
const b = median(base);
const rh = median(help) / b;
const rl = median(list) / b;
const ratio = Math.max(rh, rl);
const ok = ratio <= GOAL;
console.log(`P11 ratchet --help and list --json (${RUNS} runs) ÷ node -e 0: ratio ${ratio.toFixed(2)} (goal ≤ ${GOAL}) ${ok ? 'ok' : 'MISSED'}`);
console.log(
  `    --help ${median(help).toFixed(0)} ms (${rh.toFixed(2)}), list --json ${median(list).toFixed(0)} ms (${rl.toFixed(2)}), node -e 0 ${b.toFixed(0)} ms; medians of ${ROUNDS}`,
);
process.exit(ok ? 0 : 1);
