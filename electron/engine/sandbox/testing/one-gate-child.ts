// Test fixture run as its own process: an engine does one sandboxed run (agent and gate), prints its socat children, then ends as argv says — never through releaseSandbox().
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine } from '../../engine';
import { makeRepo, sh } from '../../testing/temp-repo';

/** Pids of this process's direct children named socat (the library's host-side bridges). */
function socatChildren(): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const m = /^\d+ \((.*)\) \S+ (\d+)/.exec(stat);
      if (m && m[1] === 'socat' && Number(m[2]) === process.pid) pids.push(Number(name));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

const [home = '', how] = process.argv.slice(2);
if (!home) throw new Error('usage: one-gate-child.ts <ratchet-home> exit|close|wait');
const repo = makeRepo({ 'a.txt': 'a\n' });
writeFileSync(
  join(repo, 'ratchet.yml'),
  'gates: { ok: "test -f work.txt" }\nagent: { kind: command, command: ["sh", "-c", "echo work > work.txt"] }\nsteps:\n  - title: one\n',
);
sh(repo, 'add', 'ratchet.yml');
sh(repo, 'commit', '-qm', 'workflow');
const engine = createEngine({ home, env: process.env });
const runId = await engine.createRun(await engine.prepareRun({ repo, trust: true }));
const doc = await engine.execute(runId, new AbortController().signal);
process.stdout.write(`${JSON.stringify({ status: doc.status, socat: socatChildren() })}\n`);
if (how === 'exit') process.exit(0);
if (how === 'close') engine.close();
if (how === 'wait') setInterval(() => undefined, 1000);
