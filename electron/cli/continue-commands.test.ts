import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StatusDocument } from '../../shared/domain';
import { startScriptedServer, type ScriptedServer } from '../scripted/server';
import { createEngine } from '../engine/engine';
import { byStep, setup } from '../engine/testing/recovery-fixtures';
import { tempDir } from '../engine/testing/temp-repo';
import { interruptedRun } from './testing/interrupted-run';
import { cli } from './testing/run-cli';
import { TEST_SANDBOX_MODE } from '../engine/testing/sandbox-mode';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A run of 3 steps whose process "died" during step 2, with its git state left "running". */
const interrupted = () => interruptedRun({ gitState: true });

describe('ratchet resume / retry / plan / recover', () => {
  it('`resume` with no id lists interrupted runs (task, step, how long ago); without a terminal it asks for the id', async () => {
    const { env, runId } = await interrupted();
    const r = await cli(['resume'], env);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`1\\. Step number 1 \\(Step 2/3 Step number 2\\) - \\d+ seconds ago  \\[${runId}\\]`));
    expect(r.err).toContain('ratchet resume <run-id>');
  });

  it('`resume <id> --yes --json` shows the resume plan, takes the safe defaults and finishes the run', async () => {
    const { env, runId } = await interrupted();
    const r = await cli(['resume', runId, '--yes', '--json'], env);
    expect(r.code).toBe(0);
    expect(r.err).toContain('Workflow Resume Plan');
    expect(r.err).toContain('✓ Step 1: Step number 1');
    expect(r.err).toContain('- Next step: 2/3 Step number 2');
    const doc = StatusDocument.parse(JSON.parse(r.out));
    expect(doc).toMatchObject({ id: runId, status: 'succeeded' });
    expect(doc.resumes).toHaveLength(1);
  });

  it('`run` on a repo and task with an interrupted run warns and points to resume', async () => {
    const { p, env } = await interrupted();
    await cli(['list'], env);
    const r = await cli(['run', p.repo, '--workflow', p.workflowFile, '--yes', '--json'], env);
    expect(r.err).toMatch(/Warning: this repository has an interrupted run of "Step number 1"/);
  });

  it('`run` of another task on a repository with an interrupted run warns too (issue 20 item 7: any interrupted run of the repository)', async () => {
    const { p, env } = await interrupted();
    const r = await cli(['run', p.repo, '--workflow', p.workflowFile, '--task', 'Something else entirely', '--yes', '--json'], env);
    expect(r.err).toMatch(/Warning: this repository has an interrupted run: "Step number 1" \(\w+\)/);
  });

  it("`resume <worktree path>` resumes the run working in that worktree, as seed 003's argument does (issue 20 item 7)", async () => {
    const { env, runId } = await interrupted();
    const engine = createEngine({ sandbox: TEST_SANDBOX_MODE, home: env.RATCHET_HOME, env: { ...process.env, ...env } });
    const worktree = engine.store.getRun(runId)!.worktree;
    engine.close();
    const r = await cli(['resume', `${worktree}/`, '--yes', '--json'], env);
    expect(r.code, r.err).toBe(0);
    expect(StatusDocument.parse(JSON.parse(r.out))).toMatchObject({ id: runId, status: 'succeeded' });
    const none = await cli(['resume', tempDir(), '--yes'], env);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/No run works in .*: give a run id or a run's worktree \(see `ratchet list`\)/);
  });

  it('`retry` refuses a run without completed steps with exit 2 and the seed 000 message', async () => {
    const p = setup(1);
    writeFileSync(p.workflowFile, `gates: { no: "false" }\nlimits: { unknown: 0 }\nsteps:\n  - title: only\n`);
    server = await startScriptedServer({ script: byStep });
    const env = { RATCHET_HOME: p.home, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url };
    const run = await cli(['run', p.repo, '--workflow', p.workflowFile, '--json'], env);
    const id = (JSON.parse(run.out) as { id: string }).id;
    const r = await cli(['retry', id, '--yes'], env);
    expect(r.code).toBe(2);
    expect(r.err).toContain('No completed steps found. Start the run again instead.');
  });

  it('`plan --edit` makes a new revision; `recover` rebuilds runs into an empty home', async () => {
    const { p, env, runId } = await interrupted();
    const file = join(tempDir(), 'plan.yml');
    writeFileSync(file, 'steps:\n  - title: Step number 1\n  - title: A new second step\n');
    const r = await cli(['plan', runId, '--edit', file], env);
    expect(r.code).toBe(0);
    expect(r.err).toContain('plan revision 2: 2 steps; kept commits of step(s) 1');
    expect(r.out).toContain('2. [pending] A new second step');
    const bad = join(tempDir(), 'bad.yml');
    writeFileSync(bad, 'steps:\n  - prompt: no title\n');
    expect((await cli(['plan', runId, '--edit', bad], env)).code).toBe(2);

    const other = { ...env, RATCHET_HOME: join(tempDir(), 'home') };
    const rec = await cli(['recover', p.repo], other);
    expect(rec.code).toBe(0);
    expect(rec.out).toContain(`rebuilt 1 run(s) from git: ${runId}`);
    const list = JSON.parse((await cli(['list', '--json'], other)).out) as Array<{ id: string; status: string }>;
    expect(list).toEqual([expect.objectContaining({ id: runId, status: 'interrupted' })]);
  });
});

describe('ratchet restart (issue 20 item 4: the next step that works when step 1 failed)', () => {
  it('a run that failed at step 1 names `ratchet restart <id>`, which starts the task again as a new run and runs it', async () => {
    const { fixtureProject, queue, turn, create, say } = await import('../engine/testing/fixture-project');
    const p = fixtureProject(
      'gates: { test: "test -f ok.txt || { echo \'not ok 1 - ok exists\'; exit 1; }" }\nmax_retries: 0\nflaky_check: false\nsteps:\n  - title: make ok\n    gates: [test]\n',
    );
    server = await startScriptedServer({
      script: { rules: queue(turn(create('wrong.txt', 'no\n')), say('done'), turn(create('ok.txt', 'yes\n')), say('done')) },
    });
    const env = { RATCHET_HOME: p.home, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url };
    const first = await cli(['run', p.repo, '--workflow', p.workflowFile, '--yes', '--json'], env);
    expect(first.code).toBe(1);
    const failed = StatusDocument.parse(JSON.parse(first.out));
    expect(failed.reason).toContain(`\`ratchet restart ${failed.id}\``);
    expect(failed.reason).not.toContain('<run-id>');
    expect((await cli(['retry', failed.id, '--yes'], env)).err).toMatch(/No completed steps found/);
    const again = await cli(['restart', failed.id, '--yes', '--json'], env);
    expect(again.code, again.err).toBe(0);
    const doc = StatusDocument.parse(JSON.parse(again.out));
    expect(doc.id).not.toBe(failed.id);
    expect(doc.status).toBe('succeeded');
    expect(again.err).toContain(`started again from run ${failed.id}`);
  });
});

describe("a missing API key is the user's to fix, at once (issue 20 item 11)", () => {
  it('`retry` without ANTHROPIC_API_KEY refuses before any attempt (resume goes through the same check in execute) (exit 2), instead of five API errors with backoff', async () => {
    const { fixtureProject, queue, turn, create, say } = await import('../engine/testing/fixture-project');
    const p = fixtureProject(
      'gates: { test: "test -f two.txt || { echo \'not ok 1 - two exists\'; exit 1; }" }\nmax_retries: 0\nflaky_check: false\nsteps:\n  - title: one\n    gates: []\n  - title: two\n    gates: [test]\n',
    );
    server = await startScriptedServer({ script: { rules: queue(turn(create('one.txt', '1\n')), say('done'), turn(create('x.txt', 'x\n')), say('done')) } });
    const env = { RATCHET_HOME: p.home, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url };
    const failed = StatusDocument.parse(JSON.parse((await cli(['run', p.repo, '--workflow', p.workflowFile, '--yes', '--json', '--no-gates'], env)).out));
    expect(failed.status).toBe('failed');
    const requests = server.requests.length;
    const noKey = { RATCHET_HOME: p.home, ANTHROPIC_BASE_URL: server.url };
    const started = Date.now();
    const r = await cli(['retry', failed.id, '--yes', '--json'], noKey);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/ANTHROPIC_API_KEY is not set/);
    expect(Date.now() - started).toBeLessThan(10_000);
    const after = StatusDocument.parse(JSON.parse((await cli(['status', failed.id, '--json'], noKey)).out));
    expect(after.steps[1]!.attempts).toHaveLength(failed.steps[1]!.attempts.length);
    expect(after.status).toBe('failed');
    expect(server.requests.length).toBe(requests);
    // Refused before anything changed (issue 29 item 9): the step stays failed, no round is counted, its error stays in the resume plan.
    expect(after.steps[1]!.status).toBe(failed.steps[1]!.status);
    expect(after.resumes).toEqual(failed.resumes);
    const resumed = await cli(['resume', failed.id, '--yes', '--json'], noKey);
    expect(resumed.code).toBe(2);
    const still = StatusDocument.parse(JSON.parse((await cli(['status', failed.id, '--json'], noKey)).out));
    expect(still.steps.map((x) => x.status)).toEqual(failed.steps.map((x) => x.status));
    expect(still.resumes).toEqual(failed.resumes);
    const plan = await cli(['resume', failed.id, '--json'], env, [[/Proceed with resume\? \[Y\/n\] $/, 'n']]);
    expect(plan.err).toMatch(/not ok 1 - two exists|Test failure/);
  });
});
