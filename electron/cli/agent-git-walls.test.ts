// The agent's files never steer Ratchet's own git (outside the sandbox). Each attack is a real
// `ratchet run` whose scripted agent (or gate) uses only a shell: a re-pointed .git file with a filter in its config,
// the .git file pointed at the user's own repository, and a nested repository with a filter and a touched file.
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StatusDocument } from '../../shared/domain';
import { startScriptedServer, type ScriptedServer } from '../scripted/server';
import { fixtureProject, queue, say, turn } from '../engine/testing/fixture-project';
import { NO_SANDBOX_REASON, SANDBOX_AVAILABLE } from '../engine/testing/sandbox-mode';
import { sh, tempDir } from '../engine/testing/temp-repo';
import { cli } from './testing/run-cli';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
/** The filter's command: it leaves `marker` behind if it ever runs (outside the worktree, where the sandbox cannot write). */
const filter = (marker: string) => `sh -c ${q(`touch ${marker}; cat`)}`;

/** Attack 1: a git dir of the agent's own with a clean filter, .gitattributes naming it, and the .git file pointed at it. */
const repointedGitDir = (marker: string) =>
  [
    'git init -q evil && mv evil/.git .evil && rmdir evil',
    `git --git-dir=.evil config filter.pwn.clean ${q(filter(marker))}`,
    "echo '* filter=pwn' > .gitattributes",
    'echo hello > hello.txt',
    'printf "gitdir: %s/.evil\\n" "$PWD" > .git',
  ].join('\n');

/** Attack 2: the worktree's .git file pointed at the user's own repository. */
const userRepoGitDir = (repo: string) => ['echo agent > agent.txt', `printf 'gitdir: %s/.git\\n' ${q(repo)} > .git`].join('\n');

/** Attack 3: a nested repository with a clean filter in its config, a commit, and a touched file git must re-read. */
const nestedRepo = (marker: string) =>
  [
    'git init -q vendor/lib && cd vendor/lib',
    'echo a > a.txt && git add a.txt && git -c user.name=a -c user.email=a@a commit -qm a',
    `git config filter.pwn.clean ${q(filter(marker))}`,
    "echo '* filter=pwn' > .gitattributes",
    'touch -d 2001-01-01 a.txt',
  ].join('\n');

interface Attack {
  /** The agent's one shell command (its only tool call). */
  agent?: string;
  /** A gate's command (it runs after the agent). */
  gate?: string;
  /** The gate fails after doing its work. */
  gateFails?: boolean;
  sandbox: boolean;
}

async function attack(make: (p: { repo: string; marker: string }) => Attack) {
  const marker = join(realpathSync(tempDir('ratchet-pwn-')), 'filter-ran');
  const p = fixtureProject();
  const userRepo = realpathSync(p.repo);
  const a = make({ repo: userRepo, marker });
  // A failing gate prints a failed test (a test failure, which max_retries: 0 ends as a failed run with its rescue commit).
  const gate = `(${a.gate ?? 'true'})\n${a.gateFails ? "echo 'not ok 1 - adds'; exit 1" : 'exit 0'}`;
  writeFileSync(
    p.workflowFile,
    `gates:
  check: ${JSON.stringify(gate)}
agent: { kind: anthropic, model: claude-sonnet-5-5, max_turns: 5 }
max_retries: 0
flaky_check: false
backoff: { base_s: 0, max_s: 0, jitter: 0 }
steps:
  - title: Do the work
`,
  );
  server = await startScriptedServer({
    script: { rules: queue(turn({ type: 'tool_use', name: 'bash', input: { command: `(${a.agent ?? 'true'})\necho work > work.txt` } }), say('done')) },
  });
  const userMain = sh(userRepo, 'rev-parse', 'main');
  const userIndex = sh(userRepo, 'ls-files', '-s');
  const env = { RATCHET_HOME: p.home, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url };
  const r = await cli(['run', userRepo, '--workflow', p.workflowFile, '--yes', '--json', ...(a.sandbox ? [] : ['--no-sandbox'])], env);
  // An internal error prints no document: the run's own is read back, so every assertion below still runs.
  const id = /run (\S+): /.exec(r.err)?.[1] ?? '';
  const doc = StatusDocument.parse(JSON.parse(r.out || (await cli(['status', id, '--json'], env)).out));
  const dotGit = readFileSync(join(doc.worktree, '.git'), 'utf8');
  return {
    doc,
    r,
    marker,
    repo: userRepo,
    /** The run's branch, from the user's repository (never through the worktree's .git file). */
    branchFiles: () => sh(userRepo, 'ls-tree', '-r', '--name-only', doc.branch).split('\n'),
    branchSubjects: () => sh(userRepo, 'log', '--format=%s', `${doc.baseCommit}..${doc.branch}`),
    userUnchanged: () => {
      expect(sh(userRepo, 'rev-parse', 'main')).toBe(userMain);
      expect(sh(userRepo, 'ls-files', '-s')).toBe(userIndex);
      expect(sh(userRepo, 'status', '--porcelain')).toBe('');
    },
    dotGit,
    /** What the agent's shell command printed (the tool result of its one call). */
    toolOutput: server.requests[1]?.lastUserText ?? '',
  };
}

/** The shell's complaint when the sandbox refuses to write the worktree's .git file (Linux, macOS). */
const REFUSED_DOT_GIT = /\.git: (Read-only file system|Operation not permitted)/;

/** The worktree's .git file as `git worktree add` wrote it: naming the repository's admin entry for this worktree. */
const pointsAtAdminDir = (dotGit: string, repo: string) =>
  expect(dotGit).toMatch(new RegExp(`^gitdir: ${repo.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/\\.git/worktrees/[^/\\n]+\\n$`));

/** What every caught violation leaves: a failed run saying what the agent tried, nothing of it committed or run. */
function expectViolation(run: Awaited<ReturnType<typeof attack>>, said: RegExp) {
  expect(existsSync(run.marker)).toBe(false);
  expect(run.doc.status).toBe('failed');
  expect(run.doc.steps[0]!.attempts.map((x) => x.errorClass)).toEqual(['sandbox_violation']);
  expect(run.doc.reason).toMatch(said);
  // No step commit and no rescue commit: the branch is still the base.
  expect(run.branchSubjects()).toBe('');
  pointsAtAdminDir(run.dotGit, run.repo);
  run.userUnchanged();
}

describe.skipIf(!SANDBOX_AVAILABLE)(
  SANDBOX_AVAILABLE ? 'the agent with the sandbox on' : `the agent with the sandbox on — skipped: ${NO_SANDBOX_REASON}`,
  () => {
    it("cannot re-point the worktree's .git file at a git dir of its own: the filter in that dir's config never runs", async () => {
      const run = await attack(({ marker }) => ({ agent: repointedGitDir(marker), sandbox: true }));
      expect(existsSync(run.marker)).toBe(false);
      // The sandbox refused the write itself (the worktree's .git is among its denied paths), so nothing was there to catch.
      expect(run.toolOutput).toMatch(REFUSED_DOT_GIT);
      expect(run.doc.status).toBe('succeeded');
      pointsAtAdminDir(run.dotGit, run.repo);
      run.userUnchanged();
    });

    it("cannot point the worktree's .git file at the user's repository: the user's branch and index stay as they were", async () => {
      const run = await attack(({ repo }) => ({ agent: userRepoGitDir(repo), sandbox: true }));
      expect(run.toolOutput).toMatch(REFUSED_DOT_GIT);
      run.userUnchanged();
      pointsAtAdminDir(run.dotGit, run.repo);
      // What the run did commit is on its own branch.
      expect(run.branchFiles()).toContain('agent.txt');
    });

    it('a nested repository with a filter fails the attempt as sandbox_violation; the filter never runs and nothing of it is committed', async () => {
      const run = await attack(({ marker }) => ({ agent: nestedRepo(marker), sandbox: true }));
      expectViolation(run, /nested repository.*vendor\/lib\/\.git/);
    });

    it('…also when the gate fails after it (the rescue path): no status, no rescue commit runs the filter', async () => {
      const run = await attack(({ marker }) => ({ agent: nestedRepo(marker), gateFails: true, sandbox: true }));
      expectViolation(run, /nested repository.*vendor\/lib\/\.git/);
    });

    it("a gate cannot re-point the worktree's .git file either", async () => {
      const run = await attack(({ marker }) => ({ gate: repointedGitDir(marker), sandbox: true }));
      expect(existsSync(run.marker)).toBe(false);
      // Refused inside the gate's sandbox: had it been written, the check after the gates would have failed the run.
      expect(run.doc.status).toBe('succeeded');
      pointsAtAdminDir(run.dotGit, run.repo);
      run.userUnchanged();
    });

    it('a nested repository a gate made (passing or failing) fails the run as sandbox_violation, with nothing of it committed', async () => {
      for (const gateFails of [false, true]) {
        const run = await attack(({ marker }) => ({ gate: nestedRepo(marker), gateFails, sandbox: true }));
        expectViolation(run, /nested repository.*vendor\/lib\/\.git/);
        await server?.close();
        server = undefined;
      }
    });
  },
);

// With the sandbox off the agent can write anything the user can; these prove that Ratchet's own git still never
// reads a git dir the worktree's .git file names (the git dir is pinned on its own, not only by the sandbox's denies).
describe('the agent with the sandbox off (--no-sandbox): Ratchet pins its own git dir', () => {
  it("a re-pointed .git file is caught before Ratchet's git runs: sandbox_violation, the filter never runs, .git restored", async () => {
    const run = await attack(({ marker }) => ({ agent: repointedGitDir(marker), sandbox: false }));
    expectViolation(run, /\.git file.*\.evil/);
  });

  it("the .git file pointed at the user's repository: the run fails, the user's branch and index are untouched", async () => {
    const run = await attack(({ repo }) => ({ agent: userRepoGitDir(repo), sandbox: false }));
    expectViolation(run, /\.git file/);
  });

  it('a gate re-pointing the .git file is caught after the gates, before the commit', async () => {
    const run = await attack(({ marker }) => ({ gate: repointedGitDir(marker), sandbox: false }));
    expectViolation(run, /\.git file.*\.evil/);
  });

  it('a nested repository is caught the same way', async () => {
    const run = await attack(({ marker }) => ({ agent: nestedRepo(marker), gateFails: true, sandbox: false }));
    expectViolation(run, /nested repository.*vendor\/lib\/\.git/);
  });
});
