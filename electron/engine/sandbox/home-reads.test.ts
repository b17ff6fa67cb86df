// The user's home inside the sandbox: denied except what builds need (PATH entries, toolchains, the repository's .git), with the credential list as a second wall.
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sh, tempDir } from '../testing/temp-repo';
import { NO_SANDBOX_REASON, SANDBOX_AVAILABLE } from '../testing/sandbox-mode';
import { createOsSandbox, type OsSandbox } from './os-sandbox';
import { runJailed } from './testing/run-jailed';

// Files a developer's home really holds secrets in, none of them on the old list.
const SECRETS = [
  '.claude/.credentials.json',
  '.claude.json',
  '.pgpass',
  '.m2/settings.xml',
  '.bash_history',
  '.zsh_history',
  '.codex/auth.json',
  '.gradle/gradle.properties',
  '.config/gcloud/credentials.db',
  '.cargo/credentials.toml',
  '.local/share/keyrings/login.keyring',
  '.password-store/bank.gpg',
  '.python_history',
  '.psql_history',
  '.local/share/fish/fish_history',
];

let userHome: string;
let sandbox: OsSandbox;
let worktree: string;
let repo: string;

function put(rel: string, content: string, mode = 0o644): void {
  const file = join(userHome, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
  chmodSync(file, mode);
}

beforeAll(() => {
  userHome = realpathSync(tempDir('ratchet-fake-home-'));
  for (const s of SECRETS) put(s, `SECRET ${s}\n`);
  put('Documents/private.txt', 'SECRET document\n');
  // What builds need: a tool on PATH under home and a toolchain folder.
  put('tools/bin/mytool', '#!/bin/sh\necho mytool ran\n', 0o755);
  put('.cargo/bin/cargo-like', '#!/bin/sh\necho cargo-like ran\n', 0o755);
  put('.pyenv/version', '3.11\n');
  put('.local/lib/python3.11/site-packages/userpkg.py', 'VALUE = "user site"\n');
  put('.local/share/fish/odd-tool', '#!/bin/sh\necho odd ran\n', 0o755);
  // Installed as most tools are: a link in ~/.local/bin to the real thing elsewhere in the home (Claude Code's native
  // installer: a versioned binary; pipx: a venv's bin; npm -g: a package's entry point beside its files).
  put('.local/share/claude/versions/1.0.0', '#!/bin/sh\necho claude-like ran\n', 0o755);
  // pipx writes the venv's own interpreter, by its absolute path, into each script it links.
  put('.local/pipx/venvs/pytool/bin/pytool', `#!/bin/sh\ncat "${userHome}/.local/pipx/venvs/pytool/data.txt"\n`, 0o755);
  put('.local/pipx/venvs/pytool/data.txt', 'pytool data\n');
  put('.npm-global/lib/node_modules/@scope/jstool/cli.sh', '#!/bin/sh\ncat "$(dirname "$(readlink -f "$0")")/package.json"\n', 0o755);
  put('.npm-global/lib/node_modules/@scope/jstool/package.json', '{"name":"jstool"}\n');
  mkdirSync(join(userHome, '.local', 'bin'), { recursive: true });
  symlinkSync(join(userHome, '.local/share/claude/versions/1.0.0'), join(userHome, '.local/bin/claude-like'));
  symlinkSync(join(userHome, '.local/pipx/venvs/pytool/bin/pytool'), join(userHome, '.local/bin/pytool'));
  symlinkSync(join(userHome, '.npm-global/lib/node_modules/@scope/jstool/cli.sh'), join(userHome, '.local/bin/jstool'));
  // The user's repository under home, and Ratchet's home (with the run's worktree) under home too.
  repo = join(userHome, 'code', 'project');
  mkdirSync(repo, { recursive: true });
  sh(repo, 'init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'a.txt'), 'checkout file\n');
  sh(repo, 'add', '-A');
  sh(repo, 'commit', '-qm', 'initial');
  const ratchetHome = join(userHome, '.ratchet');
  worktree = join(ratchetHome, 'worktrees', 'wt');
  mkdirSync(dirname(worktree), { recursive: true });
  sh(repo, 'worktree', 'add', '-q', '-b', 'task', worktree);
  const env = {
    ...process.env,
    HOME: userHome,
    PATH: `${userHome}/tools/bin:${userHome}/.cargo/bin:${userHome}/.local/bin:${userHome}/.local/share/fish:/usr/local/bin:/usr/bin:/bin`,
  };
  sandbox = createOsSandbox({ mode: 'auto', ratchetHome, env, userHome });
});

afterAll(async () => {
  await sandbox?.dispose();
  rmSync(userHome, { recursive: true, force: true });
});

async function gate(command: string): Promise<string> {
  const jail = await sandbox.forRun({ worktree, repo, network: [], envNames: [] });
  try {
    return (await runJailed(jail, command, { cwd: worktree })).output;
  } finally {
    jail.release();
  }
}

describe.skipIf(!SANDBOX_AVAILABLE)(SANDBOX_AVAILABLE ? "the user's home in the sandbox" : `the user's home — skipped: ${NO_SANDBOX_REASON}`, () => {
  it('control: outside the sandbox every secret is readable (so the test below can fail)', () => {
    for (const s of SECRETS) expect(readFileSync(join(userHome, s), 'utf8')).toContain('SECRET');
  });

  it('reads no credential file and nothing else of the home that builds do not need', async () => {
    const out = await gate([...SECRETS, 'Documents/private.txt', 'code/project/a.txt'].map((s) => `cat "${userHome}/${s}" 2>&1`).join('; ') + '; echo done');
    expect(out).toContain('done');
    expect(out).not.toContain('SECRET');
    expect(out).not.toContain('checkout file');
  });

  it('still runs tools from PATH entries and toolchain folders under home, and git reads the repository', async () => {
    const out = await gate(
      `mytool; cargo-like; claude-like; pytool; jstool; cat "${userHome}/.pyenv/version"; git log --oneline | wc -l; git status --short | wc -l; echo done`,
    );
    expect(out).toContain('mytool ran');
    expect(out).toContain('claude-like ran');
    expect(out).toContain('pytool data');
    expect(out).toContain('{"name":"jstool"}');
    expect(out).toContain('cargo-like ran');
    expect(out).toContain('3.11');
    expect(out).toMatch(/^1\n0\ndone/m);
  });

  it('a folder given back (here a PATH entry) still hides the credential stores inside it: the second wall', async () => {
    const out = await gate(
      `ls "${userHome}/.local/share/fish"; odd-tool; cat "${userHome}/.local/share/fish/fish_history"; cat "${userHome}/.local/lib/python3.11/site-packages/userpkg.py"; echo done`,
    );
    expect(out).toContain('odd-tool');
    expect(out).toContain('odd ran');
    expect(out).toContain('user site');
    expect(out).not.toContain('SECRET');
    expect(out).toContain('done');
  });

  it('a write into the home fails with EROFS, not silently into a throwaway layer', async () => {
    const out = await gate(`echo x > "${userHome}/planted" && echo wrote; echo x > "${userHome}/.ratchet/settings.json" && echo wrote; echo done`);
    expect(out.match(/Read-only file system/g)?.length).toBe(2);
    expect(out).not.toContain('wrote');
    expect(existsSync(join(userHome, 'planted'))).toBe(false);
  });
});
