// Toolchains installed by version managers run in the sandbox as in the user's shell: pnpm through corepack (its cache in the home), mise's and asdf's global versions (issue 29, 6).
import { spawnSync } from 'node:child_process';
import { mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { has } from '../testing/real-projects/real-project';
import { sh, tempDir } from '../testing/temp-repo';
import { NO_SANDBOX_REASON, SANDBOX_AVAILABLE } from '../testing/sandbox-mode';
import { baselineCheck } from '../worktree-env/baseline';
import { WorkflowFile } from '../workflow/schema';
import { createOsSandbox, type OsSandbox } from './os-sandbox';
import { corepackHome, toolchainEnv } from './toolchains';
import { runJailed } from './testing/run-jailed';

const PNPM = '9.15.9';
let userHome: string;
let sandbox: OsSandbox;
let worktree: string;
let repo: string;
/** Why pnpm could not be installed through corepack here (no corepack, or its registry unreachable), else null. */
let noCorepack: string | null = null;

beforeAll(() => {
  userHome = realpathSync(tempDir('ratchet-vm-home-'));
  repo = join(userHome, 'code', 'project');
  mkdirSync(repo, { recursive: true });
  sh(repo, 'init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'package.json'), `{"name":"p","private":true,"packageManager":"pnpm@${PNPM}"}\n`);
  sh(repo, 'add', '-A');
  sh(repo, 'commit', '-qm', 'initial');
  worktree = join(userHome, '.ratchet', 'worktrees', 'wt');
  mkdirSync(dirname(worktree), { recursive: true });
  sh(repo, 'worktree', 'add', '-q', '-b', 'task', worktree);
  const bin = join(userHome, 'bin');
  mkdirSync(bin);
  // Shims as asdf's and mise's work: the version chosen from the global file they find through HOME (or mise's variable).
  const put = (rel: string, text: string, mode = 0o644) => {
    mkdirSync(dirname(join(userHome, rel)), { recursive: true });
    writeFileSync(join(userHome, rel), text, { mode });
  };
  put('.tool-versions', 'nodejs 22.11.0\n');
  put('.asdf/shims/asdf-node', '#!/bin/sh\nexec cat "$HOME/.tool-versions"\n', 0o755);
  put('.config/mise/config.toml', '[tools]\npython = "3.12"\n');
  put('.local/share/mise/shims/mise-python', '#!/bin/sh\nexec cat "${MISE_CONFIG_DIR:-$HOME/.config/mise}/config.toml"\n', 0o755);
  // As the user did: `corepack enable`, then pnpm's first run downloads it into corepack's cache in the home.
  const userEnv: NodeJS.ProcessEnv = { ...process.env, COREPACK_ENABLE_DOWNLOAD_PROMPT: '0', HOME: userHome };
  userEnv.PATH = `${bin}:${userHome}/.asdf/shims:${userHome}/.local/share/mise/shims:${process.env.PATH}`;
  delete userEnv.XDG_CACHE_HOME;
  delete userEnv.COREPACK_HOME;
  if (!has('corepack', '--version')) noCorepack = 'corepack is not installed';
  else {
    spawnSync('corepack', ['enable', '--install-directory', bin, 'pnpm'], { env: userEnv, encoding: 'utf8' });
    // The registry this machine reaches may serve metadata without npm's signatures: checked as corepack's own option allows.
    let r = spawnSync('pnpm', ['--version'], { cwd: repo, env: userEnv, encoding: 'utf8', timeout: 120_000 });
    if (r.status !== 0 && /signature/i.test(`${r.stderr}`)) {
      userEnv.COREPACK_INTEGRITY_KEYS = '0';
      r = spawnSync('pnpm', ['--version'], { cwd: repo, env: userEnv, encoding: 'utf8', timeout: 120_000 });
    }
    if (r.status !== 0 || r.stdout.trim() !== PNPM)
      noCorepack = `pnpm could not be installed through corepack: ${`${r.stderr}${r.error?.message ?? ''}`.trim().split('\n').pop()}`;
  }
  // Ratchet started from that shell (the integrity option as the user has it, if they needed it).
  sandbox = createOsSandbox({ mode: 'auto', ratchetHome: join(userHome, '.ratchet'), env: { ...userEnv }, userHome });
}, 180_000);

afterAll(async () => {
  await sandbox?.dispose();
  rmSync(userHome, { recursive: true, force: true });
});

async function gate(command: string): Promise<{ output: string; code: number | null }> {
  const jail = await sandbox.forRun({ worktree, repo, network: [], envNames: [] });
  try {
    return await runJailed(jail, command, { cwd: worktree, timeoutMs: 60_000 });
  } finally {
    jail.release();
  }
}

describe('corepackHome', () => {
  it("is corepack's own default: the XDG cache, else ~/.cache, or ~/Library/Caches on macOS, then node/corepack", () => {
    expect(corepackHome({}, '/u', 'linux')).toBe('/u/.cache/node/corepack');
    expect(corepackHome({ XDG_CACHE_HOME: '/x/cache' }, '/u', 'linux')).toBe('/x/cache/node/corepack');
    expect(corepackHome({}, '/u', 'darwin')).toBe('/u/Library/Caches/node/corepack');
  });

  it('is set for the sandbox where it exists, unless the user set COREPACK_HOME', () => {
    const home = '/u';
    expect(toolchainEnv({}, home, (p) => p === '/u/.cache/node/corepack').COREPACK_HOME).toBe('/u/.cache/node/corepack');
    expect(toolchainEnv({}, home, () => false).COREPACK_HOME).toBeUndefined();
    expect(toolchainEnv({ COREPACK_HOME: '/c' }, home, () => true).COREPACK_HOME).toBe('/c');
  });
});

describe.skipIf(!SANDBOX_AVAILABLE)(SANDBOX_AVAILABLE ? 'version managers in the sandbox' : `version managers — skipped: ${NO_SANDBOX_REASON}`, () => {
  it("runs pnpm installed through corepack (its cache in the user's home), with no network", async (ctx) => {
    if (noCorepack) ctx.skip(noCorepack);
    const r = await gate('pnpm --version');
    expect(r.output.trim(), r.output).toBe(PNPM);
    expect(r.code).toBe(0);
  });

  it('the pre-run check does not call a project ready whose pnpm corepack cannot find: it names pnpm and what installs it, not the network', async (ctx) => {
    if (noCorepack) ctx.skip(noCorepack);
    // The base commit asks for a pnpm the user never installed.
    const other = realpathSync(tempDir('ratchet-vm-repo-'));
    sh(other, 'init', '-q', '-b', 'main');
    writeFileSync(join(other, 'package.json'), '{"name":"q","private":true,"packageManager":"pnpm@9.15.8"}\n');
    sh(other, 'add', '-A');
    sh(other, 'commit', '-qm', 'initial');
    try {
      const workflow = WorkflowFile.parse({ gates: { test: 'pnpm --version' }, steps: [{ title: 'one' }] });
      const doc = await baselineCheck({ repo: other, workflow, sandbox, env: process.env, worktreeRoot: userHome });
      expect(doc.ready).toBe(false);
      expect(doc.gates[0]).toMatchObject({ passed: false, errorClass: 'missing_dependency' });
      // corepack, given its cache read-only, cannot even make its download folder there (EROFS): pnpm is what is missing.
      expect(doc.problem).toContain('is not installed where corepack keeps it');
      expect(doc.problem).toContain('corepack install');
      expect(doc.problem).not.toMatch(/setup\.network|sandbox\.network/);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  }, 120_000);

  it("runs asdf's and mise's shims with the user's global versions", async () => {
    const r = await gate('asdf-node; mise-python');
    expect(r.output).toContain('nodejs 22.11.0');
    expect(r.output).toContain('python = "3.12"');
    expect(r.code).toBe(0);
  });
});
