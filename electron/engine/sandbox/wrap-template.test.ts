// A run's sandboxed commands share one wrap of the library's: filled per command, wrapped again when what it was made from changes.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SandboxManager } from '@anthropic-ai/sandbox-runtime';
import { quote } from '@anthropic-ai/sandbox-runtime/dist/utils/shell-quote.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { until } from '../../../shared/testing/until';
import { makeRepo, sh, tempDir } from '../testing/temp-repo';
import { NO_SANDBOX_REASON, SANDBOX_AVAILABLE } from '../testing/sandbox-mode';
import { createOsSandbox, type OsSandbox, type OwnedRunJail, type WrappedCommand } from './os-sandbox';
import { fillTemplate, makeTemplate, standIn } from './wrap-template';

describe('makeTemplate', () => {
  const stand = standIn('abc123');
  const script = (command: string) => `SRT_ALLOW_NESTED_USERNS=0 /x/apply-seccomp /bin/bash -c ${quote([command])}`;
  const head = ['bwrap', '--ro-bind', '/', '/', '--ro-bind', '/dev/null', '/nowhere/.bashrc', '--', '/bin/bash', '-c'];

  it('fills in each command exactly as the library quotes it', () => {
    const t = makeTemplate(quote([...head, script(stand)]), stand)!;
    const command = "export TMPDIR='/t'\necho 'it''s' \"$HOME\" && exit 3";
    expect(fillTemplate(t, command)).toEqual({ file: 'bwrap', args: [...head.slice(1), script(command)] });
    // Without the seccomp helper the command is the shell's script itself.
    const bare = makeTemplate(quote([...head, stand]), stand)!;
    expect(fillTemplate(bare, command).args.at(-1)).toBe(command);
  });

  it('knows the placeholders bubblewrap will make: absent destinations of binds', () => {
    const t = makeTemplate(quote([...head, script(stand)]), stand)!;
    expect([...t.placeholders]).toEqual([['/nowhere/.bashrc', 'f']]);
    // A variable whose value reads like a bind is not one.
    const withEnv = makeTemplate(quote(['bwrap', '--setenv', 'X', '--ro-bind', '/dev/null', '/nowhere/.x', ...head.slice(1), script(stand)]), stand)!;
    expect([...withEnv.placeholders].map(([p]) => p)).toEqual(['/nowhere/.bashrc']);
    expect(t.paths).toContain('/nowhere/.bashrc');
  });

  it('refuses any other shape (the caller then wraps each command itself)', () => {
    expect(makeTemplate(quote([...head, script('other')]), stand)).toBeNull();
    expect(makeTemplate(quote([...head, `${script(stand)}; ${stand}`]), stand)).toBeNull();
    expect(makeTemplate(quote(['/bin/sh', '-c', 'exec 3<"$1"', ...head, script(stand)]), stand)).toBeNull();
    expect(makeTemplate(quote([...head, script(stand), 'extra']), stand)).toBeNull();
    expect(makeTemplate(`sandbox-exec -p x /bin/bash -c ${stand}`, stand)).toBeNull();
  });
});

describe.skipIf(!SANDBOX_AVAILABLE || process.platform !== 'linux')(
  SANDBOX_AVAILABLE ? "a run's sandboxed commands" : `a run's sandboxed commands — skipped: ${NO_SANDBOX_REASON}`,
  () => {
    let sandbox: OsSandbox;
    let jail: OwnedRunJail;
    let worktree: string;
    let home: string;
    beforeAll(async () => {
      home = tempDir('ratchet-home-');
      const repo = makeRepo();
      worktree = join(tempDir(), 'wt');
      sh(repo, 'worktree', 'add', '-q', '-b', 'task', worktree);
      sandbox = createOsSandbox({ mode: 'auto', ratchetHome: home, env: process.env });
      jail = await sandbox.forRun({ worktree, repo, network: [], envNames: [] });
    });
    afterEach(() => vi.restoreAllMocks());
    afterAll(async () => {
      jail?.release();
      await sandbox?.dispose();
    });
    const run = (w: WrappedCommand) => {
      const r = spawnSync(w.file, w.args, { cwd: worktree, env: w.env, encoding: 'utf8' });
      w.done();
      return { status: r.status, out: `${r.stdout}${r.stderr}` };
    };

    it("are wrapped by the library once, and each runs its own command in the run's sandbox", async () => {
      const wraps = vi.spyOn(SandboxManager, 'wrapWithSandbox');
      const outs = [];
      for (const n of [1, 2, 3]) outs.push(run(await jail.wrap('/bin/bash', `echo "run ${n} in $TMPDIR"; echo 'quote'"'"'s' > q${n}.txt; exit ${n}`)));
      expect(outs.map((o) => o.status)).toEqual([1, 2, 3]);
      expect(outs[1]!.out).toBe(`run 2 in ${jail.env.TMPDIR}\n`);
      expect(readFileSync(join(worktree, 'q3.txt'), 'utf8')).toBe("quote's\n");
      expect(wraps).toHaveBeenCalledTimes(1);
      // Still the sandbox: Ratchet's home cannot be written.
      expect(run(await jail.wrap('/bin/bash', `touch ${quote([join(home, 'escape')])} 2>/dev/null && echo wrote || echo refused`)).out).toBe('refused\n');
      expect(existsSync(join(home, 'escape'))).toBe(false);
    });

    it('is wrapped again when a path it was made from changes, and the new one protects it', async () => {
      run(await jail.wrap('/bin/bash', 'true'));
      const wraps = vi.spyOn(SandboxManager, 'wrapWithSandbox');
      // Something outside the sandbox (the user, an editor) makes a folder where the template held an absent denied path.
      mkdirSync(join(worktree, '.idea'));
      writeFileSync(join(worktree, '.idea', 'workspace.xml'), '<project/>\n');
      const r = run(await jail.wrap('/bin/bash', 'echo x 2>/dev/null > .idea/workspace.xml && echo wrote || echo refused'));
      expect(wraps).toHaveBeenCalledTimes(1);
      expect(r).toEqual({ status: 0, out: 'refused\n' });
      expect(readFileSync(join(worktree, '.idea', 'workspace.xml'), 'utf8')).toBe('<project/>\n');
      // And the run's commands go on on the new template.
      expect(run(await jail.wrap('/bin/bash', 'cat .idea/workspace.xml')).out).toBe('<project/>\n');
      expect(wraps).toHaveBeenCalledTimes(1);
    });

    it('leaves no placeholder behind once its commands ended', async () => {
      run(await jail.wrap('/bin/bash', 'true'));
      expect(existsSync(join(worktree, '.zshrc'))).toBe(false);
      expect(
        sh(worktree, 'status', '--porcelain', '--untracked-files=all')
          .split('\n')
          .filter((l) => /\.zshrc|\.mcp|\.gitconfig/.test(l)),
      ).toEqual([]);
    });

    it("leaves what a command made at a protected path while the run's command that reaches a host still runs, and removes it when that ends", async () => {
      const fifo = join(worktree, 'latch');
      execFileSync('mkfifo', [fifo]);
      const online = await jail.wrap('/bin/bash', `echo z > .zshrc; read line < ${fifo}`, { extraHosts: ['example.invalid'] });
      const child = spawn(online.file, online.args, { cwd: worktree, env: online.env, stdio: 'ignore' });
      const ended = new Promise<void>((r) => child.on('close', () => r()));
      try {
        await until(() => existsSync(join(worktree, '.zshrc')), { ms: 10_000, describe: "the command's sandbox to start" });
        run(await jail.wrap('/bin/bash', 'true'));
        expect(existsSync(join(worktree, '.zshrc'))).toBe(true);
      } finally {
        writeFileSync(fifo, 'go\n');
        await ended;
        online.done();
        rmSync(fifo);
      }
      expect(existsSync(join(worktree, '.zshrc'))).toBe(false);
    });

    it('a command that may reach a host is wrapped by the library itself, every time', async () => {
      const wraps = vi.spyOn(SandboxManager, 'wrapWithSandbox');
      for (let i = 0; i < 2; i++) run(await jail.wrap('/bin/bash', 'true', { extraHosts: ['example.invalid'] }));
      expect(wraps).toHaveBeenCalledTimes(2);
    });
  },
);
