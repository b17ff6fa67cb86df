// Inside the sandbox git sees the repository's config without its credentials: tokens in URLs, extra headers, credential helpers, ssh commands.
import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, sh, tempDir } from '../testing/temp-repo';
import { NO_SANDBOX_REASON, SANDBOX_AVAILABLE } from '../testing/sandbox-mode';
import { createOsSandbox, type OsSandbox } from './os-sandbox';
import { parseConfigList, sanitizeConfigEntries, formatConfig } from './git-config-view';
import { runJailed } from './testing/run-jailed';

const TOKEN = 'ghp_TOKENinTHEurl123';
const HEADER = 'AUTHORIZATION: basic SECRETheader456';

describe('the sanitised git config (pure)', () => {
  it('drops credentials, extra headers and ssh commands, strips userinfo from URLs in values and subsections, keeps the rest', () => {
    const listed = [
      'core.repositoryformatversion\n0',
      'core.bare\nfalse',
      'core.sshcommand\nssh -i /keys/deploy',
      `remote.origin.url\nhttps://x-access-token:${TOKEN}@example.com/o/r.git`,
      'remote.origin.fetch\n+refs/heads/*:refs/remotes/origin/*',
      `http.https://example.com/.extraheader\n${HEADER}`,
      `http.extraheader\n${HEADER}`,
      'credential.helper\nstore',
      'credential.https://example.com.username\nme',
      `url.https://me:${TOKEN}@example.com/.insteadof\nhttps://example.com/`,
      'http.proxy\nhttp://user:pw@proxy.example:3128',
      'branch.main.remote\norigin',
      'include.path\n/elsewhere',
      'extensions.worktreeconfig\ntrue',
      'weird.key',
      'odd."quoted" \\ sub.key\nline one\nline two\t"q"',
    ].join('\0');
    const kept = sanitizeConfigEntries(parseConfigList(`${listed}\0`));
    const text = formatConfig(kept);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('SECRETheader');
    expect(text).not.toContain('pw@');
    expect(text).not.toMatch(/sshcommand|credential|extraheader|include/i);
    expect(kept.map((e) => `${e.key}=${e.value}`)).toEqual([
      'core.repositoryformatversion=0',
      'core.bare=false',
      'remote.origin.url=https://example.com/o/r.git',
      'remote.origin.fetch=+refs/heads/*:refs/remotes/origin/*',
      'url.https://example.com/.insteadof=https://example.com/',
      'http.proxy=http://proxy.example:3128',
      'branch.main.remote=origin',
      'extensions.worktreeconfig=true',
      'weird.key=null',
      'odd."quoted" \\ sub.key=line one\nline two\t"q"',
    ]);
  });

  it('what it writes reads back as the same entries (git parses it)', () => {
    const dir = tempDir('ratchet-gitcfg-');
    try {
      const entries = parseConfigList(
        [
          'core.bare\nfalse',
          'weird.key',
          'a.b\n',
          'a.c\n x ',
          'a.d\nplain value',
          'odd."quoted" \\ sub.key\nline one\nline two\t"q" ; # x',
          'remote.origin.url\nhttps://example.com/r.git',
          '',
        ].join('\0'),
      );
      const file = join(dir, 'config');
      writeFileSync(file, formatConfig(entries));
      const back = parseConfigList(sh(dir, 'config', '--file', file, '--list', '-z') + '\0');
      expect(back).toEqual(entries);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

let repo: string;
let worktree: string;
let ratchetHome: string;
let sandbox: OsSandbox;

beforeAll(() => {
  repo = realpathSync(makeRepo({ 'a.txt': 'one\n' }));
  sh(repo, 'config', 'remote.origin.url', `https://x-access-token:${TOKEN}@example.com/o/r.git`);
  sh(repo, 'config', 'remote.origin.fetch', '+refs/heads/*:refs/remotes/origin/*');
  sh(repo, 'config', 'http.https://example.com/.extraheader', HEADER);
  sh(repo, 'config', 'credential.helper', 'store --file /somewhere/creds');
  sh(repo, 'config', 'core.sshCommand', 'ssh -i /keys/deploy');
  ratchetHome = realpathSync(tempDir('ratchet-home-'));
  // Named after its home: the run's private folder is named after the worktree, and other suites use `wt`.
  worktree = join(ratchetHome, 'worktrees', `wt-${basename(ratchetHome)}`);
  mkdirSync(dirname(worktree), { recursive: true });
  sh(repo, 'worktree', 'add', '-q', '-b', 'task', worktree);
  sandbox = createOsSandbox({ mode: 'auto', ratchetHome, env: process.env });
});

afterAll(async () => {
  await sandbox?.dispose();
  for (const d of [repo, ratchetHome]) if (d) rmSync(d, { recursive: true, force: true });
});

describe.skipIf(!SANDBOX_AVAILABLE)(
  SANDBOX_AVAILABLE ? "the repository's git config in the sandbox" : `the git config in the sandbox — skipped: ${NO_SANDBOX_REASON}`,
  () => {
    it('control: outside the sandbox the config holds the token and the extra header (so the test below can fail)', () => {
      const text = readFileSync(join(repo, '.git', 'config'), 'utf8');
      expect(text).toContain(TOKEN);
      expect(text).toContain('SECRETheader');
    });

    it('cat .git/config and git config --list show no token, extra header, credential helper or ssh command; git log and status still work', async () => {
      const jail = await sandbox.forRun({ worktree, repo, network: [], envNames: [] });
      try {
        // `git config --list` also shows the machine's /etc/gitconfig (not the repository's): the repository's own part is `--local`.
        const cmd = `cat "${repo}/.git/config"; git config --local --list; echo ---; git config --list; echo ---; git log --oneline | wc -l; git status --short | wc -l; git remote get-url origin; echo done`;
        const { output, code } = await runJailed(jail, cmd, { cwd: worktree });
        expect(code).toBe(0);
        expect(output).toContain('done');
        expect(output).not.toContain(TOKEN);
        expect(output).not.toContain('SECRETheader');
        expect(output.split('---')[0]).not.toMatch(/credential|sshcommand|extraheader/i);
        expect(output.split('---')[0]).toContain('remote.origin.fetch=+refs/heads/*:refs/remotes/origin/*');
        expect(output).toMatch(/^1\n0\nhttps:\/\/example\.com\/o\/r\.git\ndone/m);
        // Run again on the run's cached wrap, after Ratchet's own git changed the config: the view follows it.
        sh(repo, 'config', 'remote.second.url', `https://bob:${TOKEN}@example.org/x.git`);
        const again = await runJailed(jail, 'git remote get-url second; git config --list | grep -c . ; echo done', { cwd: worktree });
        expect(again.output).toContain('https://example.org/x.git');
        expect(again.output).not.toContain(TOKEN);
        // The sanitised copy cannot be rewritten from inside.
        const write = await runJailed(jail, `echo '[core]' > "${repo}/.git/config" && echo wrote; echo done`, { cwd: worktree });
        expect(write.output).not.toContain('wrote');
      } finally {
        jail.release();
      }
      expect(readFileSync(join(repo, '.git', 'config'), 'utf8')).toContain(TOKEN);
    });

    it("a submodule's git dir config (under .git/modules) is sanitised too", async () => {
      const gitdir = join(repo, '.git', 'modules', 'libs', 'one');
      mkdirSync(gitdir, { recursive: true });
      writeFileSync(join(gitdir, 'HEAD'), 'ref: refs/heads/main\n');
      writeFileSync(join(gitdir, 'config'), `[core]\n\tbare = false\n[remote "origin"]\n\turl = https://sub:${TOKEN}@example.com/lib.git\n`);
      const jail = await sandbox.forRun({ worktree, repo, network: [], envNames: [] });
      try {
        const { output } = await runJailed(jail, `cat "${gitdir}/config"; echo done`, { cwd: worktree });
        expect(output).toContain('url = https://example.com/lib.git');
        expect(output).not.toContain(TOKEN);
      } finally {
        jail.release();
        rmSync(join(repo, '.git', 'modules'), { recursive: true, force: true });
      }
    });

    it("with extensions.worktreeConfig, the worktree's config.worktree is sanitised too", async () => {
      sh(repo, 'config', 'extensions.worktreeConfig', 'true');
      sh(worktree, 'config', '--worktree', 'http.extraheader', HEADER);
      sh(worktree, 'config', '--worktree', 'remote.wt.url', `https://wt:${TOKEN}@example.net/y.git`);
      expect(sh(worktree, 'config', '--list')).toContain(TOKEN);
      const jail = await sandbox.forRun({ worktree, repo, network: [], envNames: [] });
      try {
        const { output } = await runJailed(
          jail,
          `cat "${repo}"/.git/worktrees/*/config.worktree; git config --list; git remote get-url wt; git log --oneline | wc -l; echo done`,
          {
            cwd: worktree,
          },
        );
        expect(output).toContain('https://example.net/y.git');
        expect(output).not.toContain(TOKEN);
        expect(output).not.toContain('SECRETheader');
        expect(output).toMatch(/^1\ndone/m);
      } finally {
        jail.release();
        sh(repo, 'config', '--unset', 'extensions.worktreeConfig');
      }
    });
  },
);
