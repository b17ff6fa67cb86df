// Tests for runGate and findMissingCommand against real shells, processes and files.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../../shared/testing/until';
import { findMissingCommand } from './missing-command';
import { runGate } from './run-gate';
import type { GateSpec } from './run-gate';
import type { RunJail } from '../sandbox/os-sandbox';

let root: string;
let dir: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'ratchet-gate-'));
});

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

let counter = 0;
function freshDir(): string {
  dir = path.join(root, `case-${++counter}`);
  fs.mkdirSync(dir);
  return dir;
}

function gate(run: string, extra: Partial<GateSpec> = {}): GateSpec {
  return { name: 'test', run, timeoutS: 20, ...extra };
}

/** A process is gone when it no longer exists or is a zombie waiting for a reaper that may never come. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Waits (2 s at most) until `pid` has ended. */
const untilGone = (pid: number) => until(() => !isAlive(pid), { ms: 2000, everyMs: 25, describe: `process ${pid} to end` });

function readPid(file: string): number {
  const pid = Number(fs.readFileSync(file, 'utf8').trim());
  expect(pid).toBeGreaterThan(1);
  return pid;
}

describe('runGate', () => {
  it('reports a passing command with its output', async () => {
    const cwd = freshDir();
    const r = await runGate(gate('echo hello; echo "$GATE_VAR"; pwd'), { cwd, env: { ...process.env, GATE_VAR: 'from-env' } });
    expect(r).toMatchObject({
      name: 'test',
      command: 'echo hello; echo "$GATE_VAR"; pwd',
      passed: true,
      exitCode: 0,
      signal: null,
      timedOut: false,
      spawnError: null,
      reportXml: null,
    });
    expect(r.output).toBe(`hello\nfrom-env\n${fs.realpathSync(cwd)}\n`);
    expect(r.outputBytes).toBe(Buffer.byteLength(r.output));
    expect(r.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('reports a failing exit code and interleaves stdout and stderr in arrival order', async () => {
    const r = await runGate(gate('printf 1; sleep 0.1; printf 2 >&2; sleep 0.1; printf 3; exit 3'), {
      cwd: freshDir(),
      env: process.env,
    });
    expect(r.passed).toBe(false);
    expect(r.exitCode).toBe(3);
    expect(r.signal).toBeNull();
    expect(r.timedOut).toBe(false);
    expect(r.output).toBe('123');
  });

  it('streams its output while it runs (onOutput), throttled, and the chunks add up to the output', async () => {
    const seen: Array<{ text: string; atMs: number }> = [];
    const started = performance.now();
    const r = await runGate(gate('for i in 1 2 3 4 5 6; do echo "tick $i"; sleep 0.15; done'), {
      cwd: freshDir(),
      env: process.env,
      outputStream: { intervalMs: 100 },
      onOutput: (c) => seen.push({ text: c.text, atMs: performance.now() - started }),
    });
    expect(seen.map((c) => c.text).join('')).toBe(r.output);
    // The first line arrived long before the gate ended, not with its result.
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen[0]!.text).toBe('tick 1\n');
    expect(seen[0]!.atMs).toBeLessThan(r.durationMs - 500);
  });

  it('uses bash, so bash syntax works', async () => {
    const r = await runGate(gate('arr=(a b c); echo "${#arr[@]} ${BASH_VERSION:+bash}"'), { cwd: freshDir(), env: process.env });
    expect(r.output).toBe('3 bash\n');
  });

  it('reports exit 127 for a command that does not exist', async () => {
    const r = await runGate(gate('definitely-not-a-command-xyz --version'), { cwd: freshDir(), env: process.env });
    expect(r.passed).toBe(false);
    expect(r.exitCode).toBe(127);
    expect(r.spawnError).toBeNull();
    expect(r.output).toMatch(/definitely-not-a-command-xyz: command not found/);
  });

  it('reports a missing working directory in spawnError instead of throwing', async () => {
    const r = await runGate(gate('true'), { cwd: path.join(root, 'no-such-dir'), env: process.env });
    expect(r.passed).toBe(false);
    expect(r.exitCode).toBeNull();
    expect(r.spawnError).toMatch(/does not exist/);
  });

  it('on timeout kills the whole process group, grandchildren included', async () => {
    const cwd = freshDir();
    // The inner sh records its pid and execs sleep, so gc.pid is the grandchild that must die too.
    const run = `sh -c 'echo $$ > gc.pid; exec sleep 100'; echo "never printed"`;
    const started = Date.now();
    const r = await runGate(gate(run, { timeoutS: 0.5 }), { cwd, env: process.env });
    const elapsed = Date.now() - started;
    expect(r.timedOut).toBe(true);
    expect(r.passed).toBe(false);
    expect(r.exitCode).toBeNull();
    expect(r.signal).toBe('SIGTERM');
    expect(r.output).not.toContain('never printed');
    expect(elapsed).toBeGreaterThanOrEqual(450);
    expect(elapsed).toBeLessThan(2000);
    await untilGone(readPid(path.join(cwd, 'gc.pid')));
  });

  it('sends SIGKILL after the grace period to a group that ignores SIGTERM', async () => {
    const cwd = freshDir();
    const run = `trap '' TERM; sleep 100 & echo $! > gc.pid; wait; wait`;
    const started = Date.now();
    const r = await runGate(gate(run, { timeoutS: 0.3 }), { cwd, env: process.env });
    const elapsed = Date.now() - started;
    expect(r.timedOut).toBe(true);
    expect(r.signal).toBe('SIGKILL');
    expect(elapsed).toBeGreaterThanOrEqual(2200);
    expect(elapsed).toBeLessThan(4500);
    await untilGone(readPid(path.join(cwd, 'gc.pid')));
  });

  it('applies timeoutMultiplier', async () => {
    const slowOk = await runGate(gate('sleep 0.6; echo done', { timeoutS: 0.2 }), {
      cwd: freshDir(),
      env: process.env,
      timeoutMultiplier: 10,
    });
    expect(slowOk.timedOut).toBe(false);
    expect(slowOk.passed).toBe(true);

    const started = Date.now();
    const cut = await runGate(gate('sleep 30', { timeoutS: 10 }), { cwd: freshDir(), env: process.env, timeoutMultiplier: 0.03 });
    expect(cut.timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('stops the group when the abort signal fires, without calling it a timeout', async () => {
    const cwd = freshDir();
    const ac = new AbortController();
    // Stop once the command runs (it wrote its pid), not after a guessed delay: on a loaded machine 300 ms was before it started.
    let abortedAt = 0;
    const pidFile = path.join(cwd, 'gc.pid');
    const abort = until(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim(), { ms: 20_000, describe: 'the gate to write gc.pid' }).then(
      () => {
        abortedAt = Date.now();
        ac.abort();
      },
    );
    const r = await runGate(gate(`sh -c 'echo $$ > gc.pid; exec sleep 100'; true`), { cwd, env: process.env, signal: ac.signal });
    await abort;
    expect(Date.now() - abortedAt).toBeLessThan(2000);
    expect(r.timedOut).toBe(false);
    expect(r.passed).toBe(false);
    expect(r.signal).toBe('SIGTERM');
    await untilGone(readPid(path.join(cwd, 'gc.pid')));
  });

  it('does not start the command when the signal is already aborted', async () => {
    const cwd = freshDir();
    const ac = new AbortController();
    ac.abort();
    const r = await runGate(gate('touch started'), { cwd, env: process.env, signal: ac.signal });
    expect(r.passed).toBe(false);
    expect(r.exitCode).toBeNull();
    expect(fs.existsSync(path.join(cwd, 'started'))).toBe(false);
  });

  it('stops when the abort lands while the sandbox is still wrapping the command (it used to run to its end)', async () => {
    const cwd = freshDir();
    const ac = new AbortController();
    let released = false;
    // A wrap that takes a moment, as the OS sandbox's does; the user presses Stop meanwhile.
    const jail: RunJail = {
      env: process.env,
      sandboxed: true,
      async wrap(shell, command) {
        ac.abort();
        await new Promise((r) => setTimeout(r, 50));
        return {
          file: shell,
          args: ['-c', command],
          env: process.env,
          done: () => {
            released = true;
          },
        };
      },
    };
    const started = Date.now();
    const r = await runGate(gate('touch started; sleep 30'), { cwd, env: process.env, jail, signal: ac.signal });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r.passed).toBe(false);
    expect(r.timedOut).toBe(false);
    expect(fs.existsSync(path.join(cwd, 'started'))).toBe(false);
    expect(released).toBe(true);
  });

  it('bounds 20 MB of output and counts every byte', async () => {
    const r = await runGate(gate(`head -c 20000000 /dev/zero | tr '\\0' a; echo; echo THE-END`), {
      cwd: freshDir(),
      env: process.env,
    });
    expect(r.passed).toBe(true);
    expect(r.outputBytes).toBe(20000000 + 1 + 8);
    expect(r.outputLines).toBe(2);
    // A line is kept up to 4,000 characters, so one 20 MB line costs no more than a short one.
    expect(r.output).toBe(`${'a'.repeat(4000)}…\nTHE-END\n`);
  });

  it('honours maxOutputBytes', async () => {
    const r = await runGate(gate('seq 1 100000'), { cwd: freshDir(), env: process.env, maxOutputBytes: 1000 });
    expect(r.output.startsWith('1\n2\n3\n')).toBe(true);
    expect(r.output.endsWith('99999\n100000\n')).toBe(true);
    // The left-out lines are named by their original numbers: the note follows the head's last line and precedes the tail's first.
    const m = /\n(\d+)\n\[… lines ([\d,]+)–([\d,]+) elided \(574\.\d KB\) …\]\n(\d+)\n/.exec(r.output)!;
    expect(Number(m[2]!.replace(/,/g, ''))).toBe(Number(m[1]) + 1);
    expect(Number(m[4])).toBe(Number(m[3]!.replace(/,/g, '')) + 1);
    expect(r.output.length).toBeLessThan(1200);
    expect(r.outputBytes).toBe(588895);
    expect(r.outputLines).toBe(100_000);
  });

  it('reads the report the command wrote', async () => {
    const cwd = freshDir();
    const xml = '<testsuites><testsuite name="s"><testcase name="t"><failure message="boom"/></testcase></testsuite></testsuites>';
    fs.writeFileSync(path.join(cwd, 'expected.xml'), xml);
    const r = await runGate(gate('mkdir -p reports && cp expected.xml reports/junit.xml && exit 1', { report: 'reports/junit.xml' }), {
      cwd,
      env: process.env,
    });
    expect(r.exitCode).toBe(1);
    expect(r.reportXml).toBe(xml);
  });

  it('deletes a stale report before the run, so it is never read', async () => {
    const cwd = freshDir();
    fs.mkdirSync(path.join(cwd, 'reports'));
    fs.writeFileSync(path.join(cwd, 'reports/junit.xml'), '<stale/>');
    // The command itself checks the file is already gone when it starts.
    const r = await runGate(gate('test ! -e reports/junit.xml', { report: 'reports/junit.xml' }), { cwd, env: process.env });
    expect(r.passed).toBe(true);
    expect(r.reportXml).toBeNull();
    expect(fs.existsSync(path.join(cwd, 'reports/junit.xml'))).toBe(false);
  });

  it('neither deletes nor reads a report path outside cwd, even one the command rewrote', async () => {
    const cwd = freshDir();
    const outside = path.join(root, `outside-${counter}.xml`);
    fs.writeFileSync(outside, '<old/>');
    const r = await runGate(gate('true', { report: path.relative(cwd, outside) }), { cwd, env: process.env });
    expect(fs.readFileSync(outside, 'utf8')).toBe('<old/>');
    expect(r.reportXml).toBeNull();
    const rewritten = await runGate(gate(`echo '<new/>' > ${JSON.stringify(outside)}`, { report: path.relative(cwd, outside) }), { cwd, env: process.env });
    expect(fs.readFileSync(outside, 'utf8')).toBe('<new/>\n');
    expect(rewritten.reportXml).toBeNull();
  });

  it('follows no link out of cwd: a linked reports folder is neither emptied before the gate nor read after it', async () => {
    const cwd = freshDir();
    const elsewhere = fs.mkdtempSync(path.join(root, 'elsewhere-'));
    fs.writeFileSync(path.join(elsewhere, 'junit.xml'), '<secret/>');
    fs.symlinkSync(elsewhere, path.join(cwd, 'reports'));
    // The command sees the file still there, and touches it so it is newer than the gate.
    const r = await runGate(gate('test -e reports/junit.xml && touch reports/junit.xml', { report: 'reports/junit.xml' }), { cwd, env: process.env });
    expect(r.passed).toBe(true);
    expect(fs.readFileSync(path.join(elsewhere, 'junit.xml'), 'utf8')).toBe('<secret/>');
    expect(r.reportXml).toBeNull();
  });

  it('removes a report that is a link (the link, not its target) and reads none that is one', async () => {
    const cwd = freshDir();
    const target = path.join(root, `target-${counter}.xml`);
    fs.writeFileSync(target, '<secret/>');
    fs.symlinkSync(target, path.join(cwd, 'junit.xml'));
    const before = await runGate(gate('test ! -e junit.xml && ! test -L junit.xml', { report: 'junit.xml' }), { cwd, env: process.env });
    expect(before.passed).toBe(true);
    expect(fs.readFileSync(target, 'utf8')).toBe('<secret/>');
    const after = await runGate(gate(`ln -s ${JSON.stringify(target)} junit.xml && touch junit.xml`, { report: 'junit.xml' }), { cwd, env: process.env });
    expect(after.passed).toBe(true);
    expect(after.reportXml).toBeNull();
  });

  it('takes a folder named ..x for what it is, a folder inside cwd: its stale report is removed and the new one read', async () => {
    const cwd = freshDir();
    fs.mkdirSync(path.join(cwd, '..x'));
    fs.writeFileSync(path.join(cwd, '..x/junit.xml'), '<stale/>');
    const r = await runGate(gate(`test ! -e ..x/junit.xml && echo '<fresh/>' > ..x/junit.xml`, { report: '..x/junit.xml' }), { cwd, env: process.env });
    expect(r.passed).toBe(true);
    expect(r.reportXml).toBe('<fresh/>\n');
  });

  it('returns quickly when a background child keeps the pipes open, and kills it', async () => {
    const cwd = freshDir();
    const started = Date.now();
    const r = await runGate(gate('sleep 100 & echo $! > bg.pid; echo started'), { cwd, env: process.env });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(r.passed).toBe(true);
    expect(r.exitCode).toBe(0);
    expect(r.output).toBe('started\n');
    await untilGone(readPid(path.join(cwd, 'bg.pid')));
  });

  it('cleans up a detached-from-output background process after the gate ends', async () => {
    const cwd = freshDir();
    const r = await runGate(gate('sleep 100 >/dev/null 2>&1 & echo $! > bg.pid'), { cwd, env: process.env });
    expect(r.passed).toBe(true);
    await untilGone(readPid(path.join(cwd, 'bg.pid')));
  });
});

describe('findMissingCommand', () => {
  let bin: string;
  let cwd: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(() => {
    cwd = freshDir();
    bin = path.join(cwd, 'bin');
    fs.mkdirSync(bin);
    for (const tool of ['npm', 'env', 'nice', 'timeout', 'nohup']) {
      fs.writeFileSync(path.join(bin, tool), '#!/bin/sh\n', { mode: 0o755 });
    }
    fs.writeFileSync(path.join(bin, 'not-executable'), '#!/bin/sh\n', { mode: 0o644 });
    fs.mkdirSync(path.join(bin, 'a-directory'));
    fs.mkdirSync(path.join(cwd, 'scripts'));
    fs.writeFileSync(path.join(cwd, 'scripts/test.sh'), '#!/bin/sh\n', { mode: 0o755 });
    // Only our stub directory: the answers must not depend on what this machine has installed.
    env = { PATH: bin, HOME: cwd };
  });

  const missing = (run: string): string | null => findMissingCommand(run, cwd, env);

  it('finds programs on PATH', () => {
    expect(missing('npm test')).toBeNull();
    expect(missing('npm')).toBeNull();
    expect(missing('npm run lint -- --fix')).toBeNull();
  });

  it('names the first program when it is not on PATH', () => {
    expect(missing('pnpm test')).toBe('pnpm');
    expect(missing('pnpm|grep x')).toBe('pnpm');
    expect(missing('pnpm install && npm test')).toBe('pnpm');
    expect(missing("'my tool' --flag")).toBe('my tool');
    expect(missing('py\\test')).toBe('pytest');
  });

  it('skips assignments and wrappers to reach the real program', () => {
    expect(missing('CI=1 NODE_ENV=test pnpm test')).toBe('pnpm');
    expect(missing('FOO="a b" BAR=$(date) pnpm test')).toBe('pnpm');
    expect(missing('env CI=1 pnpm test')).toBe('pnpm');
    expect(missing('env -u HOME pnpm test')).toBe('pnpm');
    expect(missing('exec pnpm test')).toBe('pnpm');
    expect(missing('time pnpm test')).toBe('pnpm');
    expect(missing('time -p npm test')).toBeNull();
    expect(missing('nice -n 5 pnpm test')).toBe('pnpm');
    expect(missing('timeout -k 5 60 pnpm test')).toBe('pnpm');
    expect(missing('nohup pnpm test')).toBe('pnpm');
    expect(missing('command pnpm test')).toBe('pnpm');
    expect(missing('! pnpm test')).toBe('pnpm');
    expect(missing('  # run the suite\n\npnpm test')).toBe('pnpm');
    expect(missing('CI=1 \\\n  pnpm test')).toBe('pnpm');
  });

  it('reports a missing wrapper itself', () => {
    expect(findMissingCommand('stdbuf -oL npm test', cwd, env)).toBe('stdbuf');
  });

  it('resolves names with a slash against cwd', () => {
    expect(missing('./scripts/test.sh --ci')).toBeNull();
    expect(missing('scripts/test.sh')).toBeNull();
    expect(missing('./scripts/missing.sh')).toBe('./scripts/missing.sh');
    expect(missing(`${cwd}/scripts/test.sh`)).toBeNull();
    expect(missing('~/scripts/test.sh')).toBeNull();
  });

  it('does not accept directories or non-executable files on PATH', () => {
    expect(missing('a-directory')).toBe('a-directory');
    expect(missing('not-executable')).toBe('not-executable');
  });

  it('treats builtins and keywords as existing', () => {
    for (const run of [
      'cd web && pnpm test',
      'echo hi',
      'source .env && pnpm test',
      '. ./env.sh',
      'if true; then pnpm test; fi',
      '[[ -f x ]] && pnpm test',
      '[ -f x ] && pnpm test',
      '{ pnpm test; }',
      'set -euo pipefail; pnpm test',
      'command -v pnpm',
      'true',
    ]) {
      expect(missing(run), run).toBeNull();
    }
  });

  it('gives up on commands it cannot analyse', () => {
    for (const run of [
      '$(which pnpm) test',
      '`which pnpm` test',
      '$RUNNER test',
      '"$PYTHON" -m pytest',
      '(cd web && pnpm test)',
      'PATH=./node_modules/.bin:$PATH vitest run',
      'env PATH=/opt/bin pnpm test',
      'run_all() { pnpm test; }; run_all',
      '*.sh',
      '',
      '   ',
      "echo 'unterminated",
    ]) {
      expect(missing(run), run).toBeNull();
    }
  });

  it('uses the given env, not this process', () => {
    expect(findMissingCommand('sh -c true', cwd, { PATH: bin })).toBe('sh');
    expect(findMissingCommand('sh -c true', cwd, { PATH: '/bin:/usr/bin' })).toBeNull();
  });
});
