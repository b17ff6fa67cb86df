// The sandbox's built-in write protection applies to the run's worktree (the library computes it from process.cwd()): the agent cannot rewrite the worktree's .git file, .gitmodules, shell start-up files, .vscode…
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBashSession } from '../agents/tools/bash-tool';
import { commitAll, createWorktree, isDirty, snapshotTree } from '../git/repo-git';
import { pinWorktree } from '../git/worktree-integrity';
import { makeRepo, sh, tempDir } from '../testing/temp-repo';
import { NO_SANDBOX_REASON, SANDBOX_AVAILABLE } from '../testing/sandbox-mode';
import { createOsSandbox, type RunJail } from '../sandbox/os-sandbox';
import { runPolicy } from '../sandbox/sandbox-policy';
import { WORKTREE_DENIED_PATHS, worktreeMandatoryDenies } from './worktree-denies';

describe('worktreeMandatoryDenies', () => {
  it("is the library's list for a working directory, resolved against the worktree, with its .git file", () => {
    const d = worktreeMandatoryDenies('/w/run-1');
    for (const p of [
      '.git',
      '.gitmodules',
      '.gitconfig',
      '.bashrc',
      '.zshrc',
      '.profile',
      '.ripgreprc',
      '.mcp.json',
      '.vscode',
      '.idea',
      '.claude/commands',
      '.claude/agents',
      '.lfsconfig',
    ]) {
      expect(d).toContain(`/w/run-1/${p}`);
    }
    expect(WORKTREE_DENIED_PATHS).not.toContain('.git');
  });

  it("is the run policy's denyWrite", () => {
    const p = runPolicy({ worktree: '/w/run-1', privateDir: '/tmp/p', ratchetHome: '/h', userHome: '/u', network: [] });
    expect(p.filesystem.denyWrite).toEqual(worktreeMandatoryDenies('/w/run-1'));
  });
});

/** A repository with the protected files tracked, and a run's worktree of it. */
async function worktreeWithDotfiles() {
  const repo = realpathSync(
    makeRepo({
      'a.txt': 'a\n',
      '.gitmodules': '[submodule "x"]\n',
      '.bashrc': 'echo hi\n',
      '.vscode/settings.json': '{}\n',
      '.mcp.json': '{}\n',
      '.lfsconfig': '[lfs]\n',
    }),
  );
  const home = realpathSync(tempDir('ratchet-denies-home-'));
  const worktree = join(home, 'worktrees', 'wt');
  mkdirSync(join(home, 'worktrees'));
  await createWorktree(repo, worktree, 'ratchet/denies', sh(repo, 'rev-parse', 'HEAD'));
  return { repo, home, worktree, dotGit: readFileSync(join(worktree, '.git'), 'utf8') };
}

async function jailFor(home: string, worktree: string): Promise<RunJail> {
  return createOsSandbox({ mode: 'auto', ratchetHome: home, env: process.env }).forRun({ worktree, network: [], envNames: [] });
}

describe.skipIf(!SANDBOX_AVAILABLE)(SANDBOX_AVAILABLE ? 'inside the sandbox' : `inside the sandbox — skipped: ${NO_SANDBOX_REASON}`, () => {
  it("the agent cannot rewrite, replace or move the worktree's .git file, .gitmodules, .bashrc, .vscode/…; what it makes at an absent protected path (.zshrc, .idea, .claude/commands) is gone when the command ends; ordinary files it writes", async () => {
    const { worktree, home, dotGit } = await worktreeWithDotfiles();
    const jail = await jailFor(home, worktree);
    const s = createBashSession({ cwd: worktree, env: jail.env, jail, timeoutS: 30 });
    const tries = [
      'printf "gitdir: /elsewhere\\n" > .git',
      'rm -f .git',
      'mv .git .git-old',
      'printf x >> .gitmodules',
      'printf x >> .bashrc',
      'printf x > .vscode/settings.json',
      'printf x > .vscode/tasks.json',
      'mv .vscode vscode-old',
      'printf x > .mcp.json',
      'printf "[lfs]\\n\\turl = https://example.com/x\\n" > .lfsconfig',
      'rm -rf .git && mkdir .git',
    ];
    let out: string;
    try {
      out = (
        await s.run({
          command: `${tries.map((t) => `(${t}) 2>/dev/null && echo "WROTE: ${t.replace(/"/g, '\\"')}"`).join('\n')}\nprintf x > .zshrc; mkdir .idea; mkdir -p .claude/commands; ln -s /etc .ripgreprc\necho ordinary > ordinary.txt\necho done`,
        })
      ).content;
    } finally {
      s.close();
    }
    expect(out).toContain('done');
    expect(out).not.toContain('WROTE');
    expect(readFileSync(join(worktree, '.git'), 'utf8')).toBe(dotGit);
    expect(readFileSync(join(worktree, '.gitmodules'), 'utf8')).toBe('[submodule "x"]\n');
    expect(readFileSync(join(worktree, '.bashrc'), 'utf8')).toBe('echo hi\n');
    expect(readFileSync(join(worktree, '.vscode/settings.json'), 'utf8')).toBe('{}\n');
    expect(existsSync(join(worktree, '.vscode/tasks.json'))).toBe(false);
    expect(readFileSync(join(worktree, '.lfsconfig'), 'utf8')).toBe('[lfs]\n');
    expect(readFileSync(join(worktree, 'ordinary.txt'), 'utf8')).toBe('ordinary\n');
    // What it made at the absent ones is gone (a link removed, not followed): git sees only the agent's file.
    for (const p of ['.zshrc', '.idea', '.claude/commands', '.ripgreprc']) expect(existsSync(join(worktree, p)), p).toBe(false);
    expect(existsSync('/etc/hostname') || existsSync('/etc/passwd')).toBe(true);
    expect(sh(worktree, 'status', '--porcelain', '--untracked-files=all')).toBe('?? ordinary.txt');
  });

  it('leaves no file of its own in the worktree: a command lists the tree the checkout has, and a tool reading every file reads them all (issue 29, 7)', async () => {
    const repo = realpathSync(makeRepo({ 'a.json': '{}\n', 'src/b.ts': 'export {};\n' }));
    const home = realpathSync(tempDir('ratchet-denies-home-'));
    const worktree = join(home, 'worktrees', 'wt');
    mkdirSync(join(home, 'worktrees'));
    await createWorktree(repo, worktree, 'ratchet/denies', sh(repo, 'rev-parse', 'HEAD'));
    const jail = await jailFor(home, worktree);
    const s = createBashSession({ cwd: worktree, env: jail.env, jail, timeoutS: 30 });
    let out: string;
    try {
      // What prettier --check . does: every file below the folder, opened.
      out = (await s.run({ command: 'find . -path ./.git -prune -o -print | sort; find . -type f -not -name .git -exec cat {} + >/dev/null && echo READ-ALL' }))
        .content;
    } finally {
      s.close();
    }
    expect(out.split('\n').filter((l) => l.startsWith('.'))).toEqual(['.', './a.json', './src', './src/b.ts']);
    expect(out).toContain('READ-ALL');
  });

  it("keeps what a command made at a protected path out of Ratchet's snapshot while another command of the run still runs, and removes it when the run's last ends", async () => {
    const a = await worktreeWithDotfiles();
    const b = await worktreeWithDotfiles();
    const jailA = await jailFor(a.home, a.worktree);
    const jailB = await jailFor(b.home, b.worktree);
    /** A command waiting on a named pipe in `worktree` until the test lets it go. */
    const latched = async (jail: RunJail, worktree: string) => {
      const fifo = join(worktree, 'latch');
      execFileSync('mkfifo', [fifo]);
      const wrapped = await jail.wrap('sh', `read line < ${fifo}`);
      const child = spawn(wrapped.file, wrapped.args, { cwd: worktree, env: wrapped.env, stdio: 'ignore' });
      const ended = new Promise<void>((r) => child.on('close', () => r()));
      return async () => {
        writeFileSync(fifo, 'go\n');
        await ended;
        wrapped.done();
        rmSync(fifo);
      };
    };
    const run = async (jail: RunJail, worktree: string, command: string) => {
      const wrapped = await jail.wrap('sh', command);
      await new Promise<void>((r) => spawn(wrapped.file, wrapped.args, { cwd: worktree, env: wrapped.env, stdio: 'ignore' }).on('close', () => r()));
      wrapped.done();
    };
    const releaseA = await latched(jailA, a.worktree);
    const releaseB = await latched(jailB, b.worktree);
    try {
      await run(jailA, a.worktree, 'echo work > work.txt; echo z > .zshrc');
      // A's other command still runs: what this one made at .zshrc stays until it ends, and Ratchet's git leaves it out.
      expect(readFileSync(join(a.worktree, '.zshrc'), 'utf8')).toBe('z\n');
      const p = pinWorktree(a.repo, a.worktree);
      const tree = await snapshotTree(p);
      expect(sh(a.repo, 'ls-tree', '--name-only', tree).split('\n').sort()).toEqual([
        '.bashrc',
        '.gitmodules',
        '.lfsconfig',
        '.mcp.json',
        '.vscode',
        'a.txt',
        'work.txt',
      ]);
      // Nor in a commit, nor as uncommitted work (a rescue would otherwise commit them).
      await commitAll(p, 'step 1: work');
      expect(sh(a.repo, 'ls-tree', '--name-only', 'ratchet/denies').split('\n')).not.toContain('.zshrc');
      await expect(isDirty(p)).resolves.toBe(false);
      // A's last command ends: .zshrc goes, though another run's command (B's) still runs.
      await releaseA();
      expect(existsSync(join(a.worktree, '.zshrc'))).toBe(false);
      // No placeholder in B's worktree while its command runs; what B makes there stays until B's last command ends.
      expect(existsSync(join(b.worktree, '.zshrc'))).toBe(false);
      await run(jailB, b.worktree, 'echo x > .zshrc; echo y > .idea');
      expect(readFileSync(join(b.worktree, '.zshrc'), 'utf8')).toBe('x\n');
    } finally {
      await releaseB();
    }
    expect(existsSync(join(b.worktree, '.zshrc'))).toBe(false);
    expect(existsSync(join(b.worktree, '.idea'))).toBe(false);
    expect(sh(a.worktree, 'status', '--porcelain', '--untracked-files=all')).toBe('');
  });
});
