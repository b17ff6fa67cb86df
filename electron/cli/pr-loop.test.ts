// `ratchet pr --watch` with CI and review failures as remote gates, end to end through the CLI against the scripted
// GitHub (its CI really runs the project's checks on each pushed commit): a real failure fixed in one round and merged;
// a runner lost → re-run, no agent; a flaky failure → recorded, no agent; a review of three comments → one round, three
// replies; a required check pending → no merge; the CI cap reached → needs you; the same failure after a fix → stops
// early; a check broken on the base → needs you.
// One scripted server and one project for the file; each test is its own run (its own branch and pull request).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrDoc } from '../../shared/pull-request';
import { sh, tempDir } from '../engine/testing/temp-repo';
import { startScriptedGithub, type ScriptedGithub } from '../scripted/github-server';
import { githubProject, pushBranch, TINY_PROJECT, type GithubFixture } from '../scripted/testing/github-fixture';
import { cli } from './testing/run-cli';

// CI's check `test` runs the local gate and one more test the local gate does not: notes broken last must be mended.
const CI_JS = `const fs = require('fs');
const t = fs.existsSync('notes.txt') ? fs.readFileSync('notes.txt', 'utf8') : '';
console.log('TAP version 14');
if (t.lastIndexOf('broken') > t.lastIndexOf('mended')) { console.log('not ok 1 - the notes are mended'); console.log('1..1'); process.exit(1); }
console.log('ok 1 - the notes are mended');
console.log('1..1');
`;

// The agent: a shell script that reads its prompt. A CI fix mends the notes (unless they are stubborn), a review round
// answers its three comments (two done, one declined), a first step writes notes as its task says.
const AGENT = `
      case "$1" in
        *"at fixing CI"*) if grep -q stubborn notes.txt; then echo tried >> notes.txt; else echo mended >> notes.txt; fi ;;
        *"comments on its diff"*) echo reviewed >> notes.txt; printf '[1] done: first line reworded\\n[2] done: second line reworded\\n[3] declined: the third line is what the task asked for\\n' ;;
        *"Break CI"*) echo broken >> notes.txt ;;
        *"Stubborn"*) printf 'broken\\nstubborn\\n' >> notes.txt ;;
        *) printf 'one\\ntwo\\nthree\\n' >> notes.txt ;;
      esac`;

const workflow = (limits = '') => `agent:
  kind: command
  command:
    - sh
    - -c
    - |${AGENT}
    - agent
    - "{prompt}"
gates:
  test: "node test.js"
max_retries: 0
backoff: { base_s: 0, max_s: 0, jitter: 0 }
forge: { repo: acme/widget }
${limits}`;

/** Each scenario is a sandboxed run, then a watch over real CI jobs (and a fix step): seconds each, more on a busy machine. */
const E2E_MS = 120_000;

let f: GithubFixture;
let gh: ScriptedGithub;
let env: NodeJS.ProcessEnv;
let capWorkflow: string;

beforeAll(async () => {
  f = githubProject({ ...TINY_PROJECT, 'ci.js': CI_JS, 'ratchet.yml': workflow() });
  gh = await startScriptedGithub({
    bare: f.bare,
    checks: [
      { name: 'test', command: 'node test.js && node ci.js' },
      { name: 'deploy', command: 'true' },
    ],
    scenario: { requiredChecks: ['test'] },
  });
  env = { RATCHET_HOME: tempDir(), GITHUB_TOKEN: 'test-token', RATCHET_GITHUB_API_URL: gh.url, RATCHET_PR_POLL_MS: '40' };
  capWorkflow = join(tempDir(), 'cap.yml');
  writeFileSync(capWorkflow, workflow('limits: { ci_failure: 1 }\n'));
}, 60_000);

afterAll(async () => {
  await gh.close();
  f.cleanup();
});

/** A succeeded run of the task; its id. */
async function run(task: string, extra: string[] = []): Promise<string> {
  const r = await cli(['run', f.work, '--yes', '--trust', '--json', '--task', task, ...extra], env);
  expect(r.code, r.err).toBe(0);
  return (JSON.parse(r.out) as { id: string }).id;
}

async function pr(runId: string, ...args: string[]): Promise<{ code: number; err: string; doc: { pr: PrDoc; status: string } }> {
  const r = await cli(['pr', runId, '--json', ...args], env);
  return { code: r.code, err: r.err, doc: JSON.parse(r.out || '{}') as { pr: PrDoc; status: string } };
}

async function steps(runId: string): Promise<string[]> {
  const doc = JSON.parse((await cli(['status', runId, '--json'], env)).out) as { steps: { title: string; attempts: unknown[] }[] };
  return doc.steps.map((s) => `${s.title} (${s.attempts.length})`);
}

describe('ratchet pr --watch: CI and reviews as remote gates', () => {
  it(
    'a real CI failure is fixed in one round (local gates, then pushed), and --merge merges once every required check passed',
    async () => {
      const id = await run('Break CI');
      const r = await pr(id, '--watch', '--merge', 'squash');
      expect(r.code, r.err).toBe(0);
      expect(r.err).toMatch(/test failed on [0-9a-f]{8} \(1 failing test\): re-run once to tell flaky from real/);
      expect(r.err).toMatch(/fix round 1 of 2 \("Fix CI: test"\)/);
      expect(r.err).toMatch(/is merged \(squash\)/);
      expect(await steps(id)).toEqual(['Break CI (1)', 'Fix CI: test (1)']);
      expect(r.doc.pr.merged).toBe(true);
      expect(r.doc.pr.rounds).toEqual([
        expect.objectContaining({ kind: 'ci', trigger: 'test', outcome: 'pushed', attempts: 1, tests: ['the notes are mended'] }),
      ]);
      const pull = gh.state.pulls.find((p) => p.number === r.doc.pr.number)!;
      expect(pull.merged).toBe(true);
      // The fix's commit is what was pushed and merged: the notes say mended on the remote's main.
      expect(sh(f.bare, 'show', 'main:notes.txt')).toContain('mended');
      sh(f.work, 'pull', '-q', '--ff-only', 'origin', 'main');
    },
    E2E_MS,
  );

  it(
    'a runner lost (exit 143, no test output): its failed jobs re-run once, no agent call, then green',
    async () => {
      gh.setScenario({ requiredChecks: ['test'], infrastructureLossOnce: ['test'] });
      const id = await run('Infrastructure note');
      const r = await pr(id, '--watch');
      expect(r.code, r.err).toBe(0);
      expect(r.err).toMatch(/failed for the infrastructure's sake .*re-run, no agent call/);
      expect(await steps(id)).toEqual(['Infrastructure note (1)']);
      expect(r.doc.pr.rounds).toEqual([expect.objectContaining({ kind: 'ci', trigger: 'test', outcome: 'rerun', attempts: 0 })]);
    },
    E2E_MS,
  );

  it(
    'a flaky failure (failed, then passed on a re-run of the same commit) is recorded with its test’s name, no agent call',
    async () => {
      gh.setScenario({ requiredChecks: ['test'], flakyOnce: ['test'] });
      const id = await run('Flaky note');
      const r = await pr(id, '--watch');
      expect(r.code, r.err).toBe(0);
      expect(r.err).toMatch(/test is flaky on [0-9a-f]{8}: settles before the deadline failed, then passed on a re-run/);
      expect(await steps(id)).toEqual(['Flaky note (1)']);
      expect(r.doc.pr.rounds).toEqual([expect.objectContaining({ kind: 'ci', outcome: 'flaky', attempts: 0, tests: ['settles before the deadline'] })]);
    },
    E2E_MS,
  );

  it(
    'a review of three line comments is answered in one round: one step, one commit pushed, three replies, no thread resolved',
    async () => {
      gh.setScenario({ requiredChecks: ['test'] });
      const id = await run('Three lines');
      const opened = await pr(id);
      expect(opened.code, opened.err).toBe(0);
      // The three lines the run's step wrote (the notes' last three, whatever main held before).
      const head = gh.state.pulls.find((p) => p.number === opened.doc.pr.number)!.head;
      const n = sh(f.bare, 'show', `${head}:notes.txt`).split('\n').length;
      const review = await gh.submitReview(opened.doc.pr.number, {
        state: 'CHANGES_REQUESTED',
        comments: [n - 2, n - 1, n].map((line) => ({ path: 'notes.txt', line, body: `Line ${line} needs rewording.` })),
      });
      const r = await pr(id, '--fix', 'ci,review'); // --fix implies --watch
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(/review was answered on [0-9a-f]{8}; it still requests changes until they review again/);
      expect(await steps(id)).toEqual(['Three lines (1)', 'Address review of step 1 (3 comments) (1)']);
      const round = r.doc.pr.rounds.find((x) => x.kind === 'review')!;
      expect(round).toMatchObject({ trigger: `review ${review.id}`, outcome: 'answered', attempts: 1 });
      const asked = gh.state.reviewComments.filter((c) => c.reviewId === review.id);
      const replies = gh.state.reviewComments.filter((c) => asked.some((a) => a.id === c.inReplyToId));
      expect(replies.map((c) => c.inReplyToId).sort()).toEqual(asked.map((c) => c.id).sort());
      expect(replies.filter((c) => c.body.startsWith(`Addressed in ${round.commit}`))).toHaveLength(2);
      expect(replies.find((c) => c.inReplyToId === asked[2]!.id)?.body).toMatch(/^Not changed.*the third line is what the task asked for/);
      expect(sh(f.bare, 'rev-parse', gh.state.pulls.find((p) => p.number === r.doc.pr.number)!.head)).toBe(round.commit);
      expect(r.doc.pr.rounds.filter((x) => x.kind === 'review')).toHaveLength(1);
    },
    E2E_MS,
  );

  it(
    'a required check still pending is never green: --merge does not merge and says what it waits for',
    async () => {
      gh.setScenario({ requiredChecks: ['test', 'deploy'], pendingChecks: ['deploy'] });
      const id = await run('Pending note');
      const r = await pr(id, '--watch', '--merge', 'squash', '--max-wait', '1s');
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(/not merging yet: waiting for deploy \(queued\)/);
      expect(r.err).toMatch(/still waiting for deploy after \d+s; not merged/);
      expect(r.doc.pr.merged).toBe(false);
      expect(gh.state.pulls.find((p) => p.number === r.doc.pr.number)?.merged).toBe(false);
    },
    E2E_MS,
  );

  it(
    'the CI cap reached: a fix round that does not mend the check, then exit 2 with the reason (limits.ci_failure)',
    async () => {
      gh.setScenario({ requiredChecks: ['test'] });
      const id = await run('Stubborn', ['--workflow', capWorkflow]);
      const r = await pr(id, '--watch');
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(/fix round 1 of 1/);
      expect(r.err).toMatch(/needs you: test still fails on [0-9a-f]{8} after 1 fix round \(limits\.ci_failure = 1\)/);
      expect(await steps(id)).toEqual(['Stubborn (1)', 'Fix CI: test (1)']);
      expect(r.doc.pr.rounds.map((x) => x.outcome)).toEqual(['pushed', 'cap']);
      // Watched again (the app's panel opened, Check again, a host restarted): the same cap, said again, not counted twice.
      const again = await pr(id, '--watch');
      expect(again.code, again.err).toBe(2);
      expect(again.err).toMatch(/after 1 fix round \(limits\.ci_failure = 1\)/);
      expect(again.doc.pr.rounds.map((x) => x.outcome)).toEqual(['pushed', 'cap']);
    },
    E2E_MS,
  );

  it(
    'a fix round after which the same tests fail again stops early (repeat): no second round, exit 2',
    async () => {
      gh.setScenario({ requiredChecks: ['test'] });
      const id = await run('Stubborn again');
      const r = await pr(id, '--watch');
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(/needs you: test fails the same way after its fix round \(the notes are mended\)/);
      expect(await steps(id)).toEqual(['Stubborn again (1)', 'Fix CI: test (1)']);
      expect(r.doc.pr.rounds.map((x) => x.outcome)).toEqual(['pushed', 'repeat']);
    },
    E2E_MS,
  );

  it(
    'a check that fails on the base branch’s head too needs you (exit 2), never the agent',
    async () => {
      gh.setScenario({ requiredChecks: ['test'], brokenOnBase: ['test'] });
      pushBranch(f, 'main', { 'base.txt': 'moved on\n' }, 'main moves on');
      await gh.idle();
      const id = await run('Base note');
      const r = await pr(id, '--watch');
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(/needs you: test fails on main's head [0-9a-f]{8} too/);
      expect(await steps(id)).toEqual(['Base note (1)']);
      expect(r.doc.pr.rounds).toEqual([expect.objectContaining({ outcome: 'broken_on_base', attempts: 0 })]);
    },
    E2E_MS,
  );
});
