// Tests the bash tool's sessions against real processes in a temporary worktree: cwd confinement, timeouts, output bounds, env scrubbing.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { until } from '../../../../shared/testing/until';
import { allowlistEnv } from '../../sandbox/sandbox-env';
import { createBashSession } from './bash-tool';
import type { BashSession } from './bash-tool';
import { AGENT_TOOLS, runTool } from './tool-definitions';

let base: string;
let root: string;
const sessions: BashSession[] = [];

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'ratchet-bash-')));
  root = path.join(base, 'wt');
  await mkdir(path.join(root, 'sub'), { recursive: true });
});

afterEach(async () => {
  for (const s of sessions.splice(0)) s.close();
  await rm(base, { recursive: true, force: true });
});

function session(extra: { timeoutS?: number; maxOutputBytes?: number; env?: NodeJS.ProcessEnv } = {}): BashSession {
  const s = createBashSession({
    cwd: root,
    env: extra.env ?? allowlistEnv(process.env, { home: base, tmpDir: base }),
    timeoutS: extra.timeoutS,
    maxOutputBytes: extra.maxOutputBytes,
  });
  sessions.push(s);
  return s;
}

/** Alive means signalable and not a zombie (a container's PID 1 may never reap orphans). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = `/proc/${pid}/stat`;
  if (existsSync(stat)) {
    const state = readFileSync(stat, 'utf8').split(') ')[1]?.[0];
    if (state === 'Z' || state === 'X') return false;
  }
  return true;
}

describe('bash session', () => {
  it('runs a command in the worktree root', async () => {
    const s = session();
    expect(await s.run({ command: 'echo hello; pwd' })).toEqual({ content: `hello\n${root}`, isError: false });
  });

  it('interleaves stdout and stderr in order', async () => {
    const out = await session().run({ command: 'echo one; echo two >&2; echo three' });
    expect(out.content).toBe('one\ntwo\nthree');
  });

  it('appends a non-zero exit code without marking the result an error', async () => {
    expect(await session().run({ command: 'echo nope; exit 3' })).toEqual({ content: 'nope\nexit code 3', isError: false });
    expect(await session().run({ command: 'false' })).toEqual({ content: 'exit code 1', isError: false });
  });

  it('reports a command with no output', async () => {
    expect(await session().run({ command: 'true' })).toEqual({ content: '(no output)', isError: false });
  });

  it('handles trailing comments and heredocs', async () => {
    const s = session();
    expect((await s.run({ command: 'cd sub # go deeper' })).isError).toBe(false);
    expect((await s.run({ command: 'pwd' })).content).toBe(path.join(root, 'sub'));
    expect((await s.run({ command: 'cat <<EOF\nline\nEOF' })).content).toBe('line');
  });

  it('keeps the working directory across commands', async () => {
    const s = session();
    await s.run({ command: 'mkdir -p sub/deeper && cd sub/deeper' });
    expect((await s.run({ command: 'pwd' })).content).toBe(path.join(root, 'sub', 'deeper'));
    await s.run({ command: 'cd ..' });
    expect((await s.run({ command: 'pwd' })).content).toBe(path.join(root, 'sub'));
  });

  it('runs concurrent calls one after the other so each sees the previous cwd', async () => {
    const s = session();
    const [first, second] = await Promise.all([s.run({ command: 'sleep 0.2; cd sub' }), s.run({ command: 'pwd' })]);
    expect(first.isError).toBe(false);
    expect(second.content).toBe(path.join(root, 'sub'));
  });

  it('resets the cwd to the root, with a note, when a command leaves the worktree', async () => {
    const s = session();
    const out = await s.run({ command: 'cd / && echo moved' });
    expect(out.isError).toBe(false);
    expect(out.content).toContain('moved');
    expect(out.content).toContain(`reset to the worktree root ${root}`);
    expect((await s.run({ command: 'pwd' })).content).toBe(root);

    await s.run({ command: 'cd sub' });
    expect((await s.run({ command: 'cd ../..' })).content).toContain('outside the worktree');
    expect((await s.run({ command: 'pwd' })).content).toBe(root);
  });

  it('falls back to the root when the cwd was deleted', async () => {
    const s = session();
    await s.run({ command: 'mkdir gone && cd gone' });
    await rm(path.join(root, 'gone'), { recursive: true });
    const out = await s.run({ command: 'pwd' });
    expect(out.content).toContain(root);
    expect(out.content).toContain('no longer exists');
    expect((await s.run({ command: 'pwd' })).content).toBe(root);
  });

  it('restart resets the cwd to the root', async () => {
    const s = session();
    await s.run({ command: 'cd sub' });
    const restarted = await s.run({ restart: true });
    expect(restarted.isError).toBe(false);
    expect(restarted.content).toContain('restarted');
    expect((await s.run({ command: 'pwd' })).content).toBe(root);
  });

  it('kills the whole process group on timeout, background grandchildren included', async () => {
    const s = session({ timeoutS: 1 });
    const started = Date.now();
    const out = await s.run({ command: 'sleep 30 & echo $! > gc.pid; echo started; sleep 30' });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(out.isError).toBe(true);
    expect(out.content).toContain('started');
    expect(out.content).toContain('timed out after 1 s');
    const pid = Number(await readFile(path.join(root, 'gc.pid'), 'utf8'));
    expect(pid).toBeGreaterThan(0);
    await until(() => !isAlive(pid), { ms: 4_000, describe: `process ${pid} to end` });
  });

  it('kills the command when the signal aborts', async () => {
    const s = session();
    const ac = new AbortController();
    // Abort once the command runs (it wrote its pid), not after a guessed delay.
    const pidFile = path.join(root, 'shell.pid');
    let abortedAt = 0;
    const abort = until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim(), { ms: 20_000, describe: 'the command to write shell.pid' }).then(
      () => {
        abortedAt = Date.now();
        ac.abort();
      },
    );
    const out = await s.run({ command: 'echo $$ > shell.pid; sleep 30' }, ac.signal);
    await abort;
    expect(Date.now() - abortedAt).toBeLessThan(5_000);
    expect(out.isError).toBe(true);
    expect(out.content).toContain('aborted');
    const pid = Number(await readFile(path.join(root, 'shell.pid'), 'utf8'));
    await until(() => !isAlive(pid), { ms: 4_000, describe: `process ${pid} to end` });
  });

  it('does not start a command when the signal is already aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    const out = await session().run({ command: 'touch ran' }, ac.signal);
    expect(out.isError).toBe(true);
    expect(existsSync(path.join(root, 'ran'))).toBe(false);
  });

  it('returns while a background job holds the output open, and stops it on close', async () => {
    const s = session();
    const started = Date.now();
    const out = await s.run({ command: 'sleep 30 & echo $! > bg.pid; echo launched' });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(out.isError).toBe(false);
    expect(out.content).toContain('launched');
    expect(out.content).toContain('background processes');
    const pid = Number(await readFile(path.join(root, 'bg.pid'), 'utf8'));
    expect(isAlive(pid)).toBe(true);
    s.close();
    await until(() => !isAlive(pid), { ms: 4_000, describe: `process ${pid} to end` });
  });

  it('bounds the output, keeping head and tail and saying how much was elided', async () => {
    const full = `${Array.from({ length: 10_000 }, (_, i) => String(i + 1)).join('\n')}\n`;
    const out = await session({ maxOutputBytes: 1_000 }).run({ command: 'seq 1 10000' });
    expect(out.isError).toBe(false);
    expect(out.content.startsWith('1\n2\n3\n')).toBe(true);
    expect(out.content.endsWith('9999\n10000')).toBe(true);
    expect(out.content).toContain(`(${full.length - 1_000} bytes) elided`);
    expect(out.content.length).toBeLessThan(1_300);
  });

  it('does not cut multi-byte characters when eliding', async () => {
    const out = await session({ maxOutputBytes: 102 }).run({ command: 'for i in $(seq 1 200); do printf "é"; done' });
    expect(out.content).not.toContain('\uFFFD');
    expect(out.content).toMatch(/^é+\n\[… \d+ bytes elided/);
  });

  it('reports a spawn failure as an error', async () => {
    const out = await session({ env: { PATH: path.join(base, 'no-such-bin') } }).run({ command: 'echo hi' });
    expect(out.isError).toBe(true);
    expect(out.content).toContain('Could not start bash');
  });

  it('refuses commands after close', async () => {
    const s = session();
    s.close();
    expect(await s.run({ command: 'echo hi' })).toEqual({ content: 'The bash session is closed; no command was run.', isError: true });
  });

  it.each([
    [null, 'expected a JSON object, got null'],
    [{}, '`command` is missing (expected a string)'],
    [{ command: 5 }, '`command` must be a string, got the number 5'],
    [{ command: '   ' }, '`command` is empty'],
    [{ restart: 'yes' }, '`restart` must be a boolean, got the string "yes"'],
  ])('rejects malformed input %j', async (input, expected) => {
    const out = await session().run(input);
    expect(out.isError).toBe(true);
    expect(out.content).toContain(expected);
  });
});

describe('allowlistEnv', () => {
  const dirty: NodeJS.ProcessEnv = {
    PATH: '/usr/bin:/bin',
    HOME: '/home/someone',
    LANG: 'C.UTF-8',
    LC_ALL: 'C',
    TERM: 'xterm',
    NODE_OPTIONS: '--max-old-space-size=512',
    ANTHROPIC_API_KEY: 'sk-ant-should-not-leak',
    AWS_ACCESS_KEY_ID: 'AKIA',
    PGPASSWORD: 'pg',
    DATABASE_URL: 'postgres://u:p@h/db',
    GH_PAT: 'ghp',
    NPM_CONFIG__AUTH: 'npm',
    SSH_AUTH_SOCK: '/tmp/ssh-agent',
    RATCHET_HOME: '/x',
    TMPDIR: '/tmp',
  };

  it('keeps PATH, LANG, LC_*, TERM and the names the workflow lists; sets HOME and TMPDIR to the sandbox', () => {
    expect(allowlistEnv(dirty, { home: '/sb/home', tmpDir: '/sb/tmp', names: ['NODE_OPTIONS'] })).toEqual({
      PATH: '/usr/bin:/bin',
      LANG: 'C.UTF-8',
      LC_ALL: 'C',
      TERM: 'xterm',
      NODE_OPTIONS: '--max-old-space-size=512',
      HOME: '/sb/home',
      TMPDIR: '/sb/tmp',
    });
    expect(dirty.ANTHROPIC_API_KEY).toBe('sk-ant-should-not-leak');
  });

  it('keeps secrets out of the agent shell', async () => {
    const env = { ...process.env, ...dirty, PATH: process.env.PATH };
    const probe = 'env | grep -E "ANTHROPIC|AWS_|PGPASSWORD|DATABASE_URL|GH_PAT|NPM_CONFIG|SSH_AUTH_SOCK|RATCHET"';
    // Control: handed the raw environment the command does see them, so the assertion below can fail.
    const leaky = await session({ env }).run({ command: probe });
    expect(leaky.content).toContain('sk-ant-should-not-leak');
    const out = await session({ env: allowlistEnv(env, { home: base, tmpDir: base }) }).run({ command: probe });
    expect(out).toEqual({ content: 'exit code 1', isError: false });
  });
});

// runTool lives in tool-definitions.ts; its dispatch is tested here because it needs a live bash session.
describe('runTool', () => {
  it('declares the schema-defined tools', () => {
    expect(AGENT_TOOLS).toEqual([
      { type: 'bash_20250124', name: 'bash' },
      { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' },
    ]);
  });

  it('dispatches bash and the text editor by name', async () => {
    const ctx = { root, bash: session() };
    expect(await runTool('bash', { command: 'echo via-dispatch > note.txt && cat note.txt' }, ctx)).toEqual({ content: 'via-dispatch', isError: false });
    const viewed = await runTool('str_replace_based_edit_tool', { command: 'view', path: 'note.txt' }, ctx);
    expect(viewed).toEqual({ content: "Here's the result of running `cat -n` on note.txt:\n     1\tvia-dispatch", isError: false });
  });

  it('passes maxCharacters on to the editor', async () => {
    const ctx = { root, bash: session(), maxCharacters: 80 };
    await runTool('bash', { command: 'seq 1 100 > n.txt' }, ctx);
    expect((await runTool('str_replace_based_edit_tool', { command: 'view', path: 'n.txt' }, ctx)).content).toContain('<response clipped');
  });

  it('answers an unknown tool name with an error naming the available tools', async () => {
    const out = await runTool('computer', { action: 'screenshot' }, { root, bash: session() });
    expect(out).toEqual({ content: 'Unknown tool "computer"; the available tools are bash, str_replace_based_edit_tool.', isError: true });
  });

  it('does not run anything once the signal has aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    const out = await runTool(
      'str_replace_based_edit_tool',
      { command: 'create', path: 'x.txt', file_text: 'x' },
      { root, bash: session(), signal: ac.signal },
    );
    expect(out.isError).toBe(true);
    expect(existsSync(path.join(root, 'x.txt'))).toBe(false);
  });
});
