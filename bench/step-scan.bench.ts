// Benchmark: reading completed steps from a 100,000-commit branch ÷ raw `git log --format=%s` over the same range. Goal ≤ 1.5.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { completedSteps } from '../electron/engine/git/step-commits';
import { report, timeAsync } from './measure';

const COMMITS = Number(process.env.BENCH_COMMITS ?? 100_000);
const dir = mkdtempSync(join(tmpdir(), 'ratchet-bench-git-'));
const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
git('init', '-q', '-b', 'main');

// fast-import builds the history in seconds: a base commit, then COMMITS commits on the branch, every 10th a step.
const lines: string[] = [];
const ident = 'Bench <b@example.com> 1700000000 +0000';
const commit = (ref: string, mark: number, from: number | null, msg: string) => {
  lines.push(`commit ${ref}`, `mark :${mark}`, `committer ${ident}`, `data ${Buffer.byteLength(msg)}`, msg);
  if (from !== null) lines.push(`from :${from}`);
  lines.push(`M 644 inline f.txt`, `data ${String(mark).length}`, String(mark), '');
};
commit('refs/heads/main', 1, null, 'base');
for (let i = 2; i <= COMMITS + 1; i++) {
  const msg = i % 10 === 0 ? `step ${i / 10}: work item ${i}` : `wip ${i}`;
  commit('refs/heads/ratchet/bench', i, i - 1, msg);
}
execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, input: lines.join('\n') + '\n', maxBuffer: 1 << 30 });
const base = git('rev-parse', 'main');

function rawLog(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['log', '--format=%s', `${base}..ratchet/bench`], { cwd: dir });
    child.stdout.on('data', () => undefined);
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`git log exited ${code}`))));
  });
}

let found = 0;
await rawLog();
const baseline = await timeAsync(rawLog);
const scan = await timeAsync(async () => {
  found = (await completedSteps(dir, base, 'ratchet/bench')).length;
});
if (found !== Math.floor((COMMITS + 1) / 10)) throw new Error(`expected ${Math.floor((COMMITS + 1) / 10)} steps, found ${found}`);
const ok = report('P1', `completed-step scan (${COMMITS} commits) ÷ raw git log --format=%s`, scan, baseline, 1.5);
process.exitCode = ok ? 0 : 1;
