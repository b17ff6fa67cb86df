// The OS sandbox against real processes: the agent's shell and a gate may write only in the worktree and their temp folder, reach no host off the list, and see no secret.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBashSession } from '../agents/tools/bash-tool';
import { runGate } from '../gates/run-gate';
import { makeRepo, sh, tempDir } from '../testing/temp-repo';
import { NO_SANDBOX_REASON, SANDBOX_AVAILABLE } from '../testing/sandbox-mode';
import { createOsSandbox, type RunJail } from './os-sandbox';

const SECRETS = {
  ANTHROPIC_API_KEY: 'sk-ant-secret',
  AWS_ACCESS_KEY_ID: 'AKIASECRET',
  PGPASSWORD: 'pgsecret',
  DATABASE_URL: 'postgres://u:dbsecret@h/db',
  GH_PAT: 'ghpsecret',
  NPM_CONFIG__AUTH: 'npmsecret',
  SSH_AUTH_SOCK: '/tmp/agent.secret',
};

let repo: string;
let home: string;
let worktree: string;
let server: Server;
let port: number;
const probeInHome = join(homedir(), `ratchet-sandbox-probe-${process.pid}`);

beforeAll(async () => {
  repo = realpathSync(makeRepo({ 'a.txt': 'a\n' }));
  home = realpathSync(tempDir('ratchet-sbx-home-'));
  worktree = join(home, 'worktrees', 'wt');
  mkdirSync(join(home, 'worktrees'));
  sh(repo, 'worktree', 'add', '-q', '-b', 'task', worktree);
  writeFileSync(join(home, 'ratchet.db'), 'the database\n');
  server = createServer((_req, res) => res.end('reached'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => {
  server.close();
  rmSync(probeInHome, { force: true });
  rmSync(home, { recursive: true, force: true });
  rmSync(repo, { recursive: true, force: true });
});

async function jail(network: string[] = []): Promise<RunJail> {
  const sb = createOsSandbox({ mode: 'auto', ratchetHome: home, env: { ...process.env, ...SECRETS } });
  return sb.forRun({ worktree, network, envNames: [] });
}

async function shell(command: string, network: string[] = []): Promise<string> {
  const j = await jail(network);
  const s = createBashSession({ cwd: worktree, env: j.env, jail: j, timeoutS: 30 });
  try {
    return (await s.run({ command })).content;
  } finally {
    s.close();
  }
}

async function gate(run: string): Promise<{ passed: boolean; output: string }> {
  const j = await jail();
  const r = await runGate({ name: 'g', run, timeoutS: 30 }, { cwd: worktree, env: { ...process.env, ...SECRETS }, jail: j });
  return { passed: r.passed, output: r.output };
}

describe.skipIf(!SANDBOX_AVAILABLE)(SANDBOX_AVAILABLE ? 'the OS sandbox' : `the OS sandbox — skipped: ${NO_SANDBOX_REASON}`, () => {
  it('control: unsandboxed, the same commands do escape (so the tests below can fail)', async () => {
    const r = await runGate(
      { name: 'g', run: `echo x > ${repo}/escaped && curl -sS -m 5 http://127.0.0.1:${port}/`, timeoutS: 30 },
      { cwd: worktree, env: process.env },
    );
    expect(r.output).toContain('reached');
    expect(existsSync(join(repo, 'escaped'))).toBe(true);
    rmSync(join(repo, 'escaped'));
  });

  for (const [name, run] of [
    ['the bash tool', shell],
    ['a gate', async (c: string) => (await gate(c)).output],
  ] as const) {
    describe(name, () => {
      it("cannot write to the user's checkout or $HOME", async () => {
        const out = await run(`echo x > ${repo}/escaped; echo x > ${probeInHome}; echo done`);
        expect(out.match(/Read-only file system/g)?.length).toBe(2);
        expect(existsSync(join(repo, 'escaped'))).toBe(false);
        expect(existsSync(probeInHome)).toBe(false);
      });

      it('cannot read or change RATCHET_HOME (../../ratchet.db from the worktree)', async () => {
        const out = await run('cat ../../ratchet.db; echo rewritten > ../../ratchet.db; echo done');
        expect(out).toContain('No such file');
        expect(out).not.toContain('the database');
        expect(readFileSync(join(home, 'ratchet.db'), 'utf8')).toBe('the database\n');
      });

      it('a write into RATCHET_HOME fails with EROFS, not silently into a throwaway layer', async () => {
        const out = await run(
          `echo x >> ${home}/ratchet.db && echo appended; echo {} > ${home}/settings.json && echo wrote; mkdir ${home}/runs && echo made; echo done`,
        );
        expect(out.match(/Read-only file system/g)?.length).toBe(3);
        expect(out).not.toMatch(/appended|wrote|made/);
        expect(readFileSync(join(home, 'ratchet.db'), 'utf8')).toBe('the database\n');
        expect(existsSync(join(home, 'settings.json'))).toBe(false);
      });

      it('writes in the worktree and in TMPDIR', async () => {
        const out = await run('echo w > inside.txt && echo t > "$TMPDIR/t.txt" && cat inside.txt "$TMPDIR/t.txt"');
        expect(out).toContain('w\nt');
        expect(readFileSync(join(worktree, 'inside.txt'), 'utf8')).toBe('w\n');
        rmSync(join(worktree, 'inside.txt'));
      });

      it('sees no secret from the environment', async () => {
        const out = await run('env; echo end');
        for (const value of Object.values(SECRETS)) expect(out).not.toContain(value);
        expect(out).toContain('end');
      });

      it('reaches no host off the list: loopback neither directly nor through the proxy', async () => {
        const out = await run(`curl -sS -m 5 http://127.0.0.1:${port}/; curl -sS -m 5 --noproxy '' -x "$HTTP_PROXY" http://127.0.0.1:${port}/; echo done`);
        expect(out).not.toContain('reached');
        expect(out).toContain('done');
      });
    });
  }

  it('lets through a host on the list (ratchet.yml sandbox.network), through the proxy', async () => {
    const out = await shell(`curl -sS -m 5 --noproxy '' -x "$HTTP_PROXY" http://127.0.0.1:${port}/`, [`127.0.0.1:${port}`]);
    expect(out).toContain('reached');
  });

  it('reads the repository with git but cannot commit to it', async () => {
    writeFileSync(join(worktree, 'b.txt'), 'b\n');
    const out = await shell('git status --short; git log --oneline | wc -l; git diff --stat; git add b.txt; git commit -qm x; echo done');
    expect(out).toContain('?? b.txt');
    expect(out).toMatch(/Read-only file system/);
    expect(execFileSync('git', ['log', '--oneline'], { cwd: worktree, encoding: 'utf8' }).trim().split('\n')).toHaveLength(1);
    rmSync(join(worktree, 'b.txt'));
  });

  it("a gate's failure to escape is its own failure: the exit code shows", async () => {
    const r = await gate(`echo x > ${repo}/escaped`);
    expect(r.passed).toBe(false);
  });
});
