// Integration: retry, plan revision, resume, recover — real git, real SQLite, the scripted server through the SDK.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StatusDocument } from '../../../shared/domain';
import { startScriptedServer, type ScriptedServer, type ScriptFn } from '../../scripted/server';
import { renderResumePlan } from '../../cli/resume-view';
import { createEngine, type Engine } from '../engine';
import { asIfDiedAtStep, byStep, gateFailingWhile, setup } from '../testing/recovery-fixtures';
import { sh } from '../testing/temp-repo';
import { TEST_SANDBOX_MODE } from '../testing/sandbox-mode';

let server: ScriptedServer | undefined;
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) e.close();
  await server?.close();
  server = undefined;
});

async function engineFor(home: string, script: ScriptFn = byStep) {
  server ??= await startScriptedServer({ script });
  const engine = createEngine({ sandbox: TEST_SANDBOX_MODE, home, env: { ...process.env, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url } });
  engines.push(engine);
  return engine;
}

/** A run that failed at step 2 (its gate was blocked). */
async function failedAtStep2(steps = 3, extra = '') {
  const p = setup(steps, extra);
  writeFileSync(p.flag, 'x');
  const engine = await engineFor(p.home);
  const runId = await engine.createRun(await engine.prepareRun({ repo: p.repo, workflowFile: p.workflowFile }));
  const doc = await engine.execute(runId, new AbortController().signal);
  expect(doc.status).toBe('failed');
  // The run's state is written to git once the execution has let go of it.
  await engine.settled();
  return { p, engine, runId, doc };
}

const signal = () => new AbortController().signal;

describe('ratchet retry (seed 000)', () => {
  it('continues the same run from the next incomplete step, with the plan, the completed commits and a turn budget', async () => {
    const { p, engine, runId, doc: failed } = await failedAtStep2();
    const step1 = failed.steps[0]!.commit;
    expect(sh(p.repo, 'log', '--format=%s', '-1', failed.branch)).toMatch(/^rescue: step 2/);
    rmSync(p.flag);
    const before = server!.requests.length;
    const { doc } = await engine.retry(runId, { signal: signal() });
    const d = StatusDocument.parse(doc);
    expect(d).toMatchObject({ id: runId, status: 'succeeded', branch: failed.branch, worktree: failed.worktree });
    expect(d.steps[0]).toMatchObject({ commit: step1, attempts: [expect.objectContaining({ n: 1 })] });
    expect(d.steps[1]!.attempts.map((a) => a.outcome)).toEqual(['failed', 'passed']);
    const retryRequest = server!.requests[before]!;
    expect(retryRequest.lastUserText).toContain(`${step1!.slice(0, 10)} step 1: Step number 1`);
    expect(retryRequest.lastUserText).toContain('Continue from step 2.');
    // The retried step carries the error that stopped it.
    // The retry gives the step a new chance: its attempts count from the retry.
    expect(retryRequest.lastUserText).toContain('## Retry: this is attempt 1 of 1 since the run was retried or resumed');
    expect(retryRequest.lastUserText).toContain('blocked by flag');
    expect(retryRequest.lastUserText).toContain('<untrusted source="plan">');
    // The cached task context is byte for byte the one the run started with (a cache read, not a
    // new write); the progress travels with the continued step's prompt, and step 3's first request has none of it.
    type Body = { messages: Array<{ content: Array<{ text?: string; cache_control?: unknown }> }> };
    const contextOf = (i: number) => (server!.requests[i]!.body as Body).messages[0]!.content[0]!;
    expect(contextOf(before)).toEqual(contextOf(0));
    expect(contextOf(before).cache_control).toEqual({ type: 'ephemeral' });
    expect(contextOf(before).text).not.toContain('Continue from step');
    const step3 = server!.requests.slice(before).find((r) => r.lastUserText.includes('## Step 3 of'))!;
    expect(step3.lastUserText).not.toContain('## Progress');
    expect(d.resumes).toEqual([expect.objectContaining({ kind: 'retry', resumedFrom: { step: 2, status: 'failed' }, turnBudget: 27 })]);
    expect(d.resumes[0]!.inputTokens + d.resumes[0]!.cacheReadTokens + d.resumes[0]!.cacheWriteTokens).toBeGreaterThan(0);
    const subjects = sh(p.repo, 'log', '--format=%s', `${d.baseCommit}..${d.branch}`)
      .split('\n')
      .filter((s) => s.startsWith('step '));
    expect(subjects).toEqual(['step 3: Step number 3', 'step 2: Step number 2', 'step 1: Step number 1']);
  });

  it("refuses with seed 000's messages: no branch, no completed steps, no plan", async () => {
    const { p, engine, runId, doc } = await failedAtStep2();
    sh(p.repo, 'worktree', 'remove', '--force', doc.worktree);
    sh(p.repo, 'branch', '-D', doc.branch);
    await expect(engine.retry(runId, { signal: signal() })).rejects.toMatchObject({
      code: 'no_branch',
      message: 'Cannot retry — no branch from previous execution',
    });

    const q = setup(2);
    writeFileSync(q.flag, 'x');
    const engine2 = await engineFor(q.home);
    const wf = q.workflowFile;
    writeFileSync(
      wf,
      `gates:\n  guarded: ${JSON.stringify(gateFailingWhile(q.flag))}\nlimits: { test_failure: 0 }\nflaky_check: false\nsteps:\n  - title: only\n`,
    );
    const r2 = await engine2.createRun(await engine2.prepareRun({ repo: q.repo, workflowFile: wf }));
    expect((await engine2.execute(r2, signal())).status).toBe('failed');
    await expect(engine2.retry(r2, { signal: signal() })).rejects.toMatchObject({ message: 'No completed steps found. Start the run again instead.' });

    const { engine: engine3, runId: r3 } = await failedAtStep2();
    engine3.store.db.prepare('DELETE FROM plans').run();
    await expect(engine3.retry(r3, { signal: signal() })).rejects.toMatchObject({ message: 'No plan found.' });
  });

  it('warns when the base branch moved with conflicts, and proceeds; with the conflict left, the run pauses for you instead of succeeding', async () => {
    const { p, engine, runId, flag } = await failedAtStep2().then((x) => ({ ...x, flag: x.p.flag }));
    // The user commits a change to main that conflicts with the branch's steps/1.txt.
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(p.repo, 'steps'), { recursive: true });
    writeFileSync(join(p.repo, 'steps', '1.txt'), 'the user wrote this\n');
    sh(p.repo, 'add', '-A');
    sh(p.repo, 'commit', '-qm', 'user change');
    rmSync(flag);
    const { doc, notes } = await engine.retry(runId, { signal: signal() });
    expect(notes.join('\n')).toMatch(/base branch main moved .* conflict in: steps\/1\.txt/);
    expect(doc.steps.every((s) => s.status === 'succeeded')).toBe(true);
    expect(doc).toMatchObject({ status: 'paused', reasonCode: 'step_needs_you' });
  });

  it('a revised plan is used by the next retry; a completed step that still matches keeps its commit', async () => {
    const { p, engine, runId, doc: failed } = await failedAtStep2();
    const r = await engine.revisePlan(runId, [
      { title: 'Step number 1', prompt: '' },
      { title: 'Smaller step two', prompt: 'Do less.', gates: ['plain'] },
    ]);
    expect(r).toMatchObject({ revision: 2, kept: [1] });
    const before = server!.requests.length;
    const { doc } = await engine.retry(runId, { signal: signal() });
    expect(doc.status).toBe('succeeded');
    expect(doc.steps.map((s) => [s.index, s.title, s.status])).toEqual([
      [1, 'Step number 1', 'succeeded'],
      [2, 'Smaller step two', 'succeeded'],
      [3, 'Step number 3', 'skipped'],
    ]);
    expect(doc.steps[0]!.commit).toBe(failed.steps[0]!.commit);
    expect(server!.requests[before]!.lastUserText).toContain('Smaller step two');
    expect(existsSync(p.flag)).toBe(true);
  });
});

describe('ratchet resume (seed 003)', () => {
  /** A run killed during step 2: status running with a dead owner, an attempt left running, uncommitted work. */
  async function interruptedAtStep2() {
    const p = setup(3);
    const engine = await engineFor(p.home);
    const runId = await engine.createRun(await engine.prepareRun({ repo: p.repo, workflowFile: p.workflowFile }));
    writeFileSync(p.flag, 'x');
    await engine.execute(runId, signal());
    rmSync(p.flag);
    const run = engine.store.getRun(runId)!;
    // Undo what the failure handling did, as if the process had died instead: no rescue commit, step 2 running.
    asIfDiedAtStep(engine.store, runId, 2, run.worktree);
    return { p, engine, runId, run };
  }

  it('detects the interrupted run, plans to retry the interrupted step, keeps the uncommitted work in a rescue commit, and finishes', async () => {
    const { p, engine, runId, run } = await interruptedAtStep2();
    const info = await engine.inspectResume(runId);
    expect(info.run.status).toBe('interrupted');
    expect(info.plan).toMatchObject({ lastStatus: 'in_progress', nextStep: 2, action: 'retry_step' });
    expect(info.plan.required.map((r) => r.code)).toEqual(['dirty_tree']);
    const { doc, notes } = await engine.resume(runId, { signal: signal() });
    expect(doc.status).toBe('succeeded');
    expect(notes[0]).toMatch(/rescue commit/);
    expect(doc.steps[1]!.attempts.map((a) => a.outcome)).toEqual(['interrupted', 'passed']);
    const subjects = sh(p.repo, 'log', '--format=%s', `${run.base_commit}..${run.branch}`).split('\n');
    expect(subjects.filter((s) => s.startsWith('step 2:'))).toHaveLength(1);
    expect(subjects.some((s) => s.startsWith('rescue:'))).toBe(true);
    expect(doc.resumes[0]).toMatchObject({ kind: 'resume', resumedFrom: { step: 2, status: 'interrupted' } });
  });

  it('adopts a step commit made just before the crash instead of redoing the step', async () => {
    const { engine, runId, run } = await interruptedAtStep2();
    sh(run.worktree, 'add', '-A');
    sh(run.worktree, 'commit', '-qm', 'step 2: Step number 2');
    const before = server!.requests.length;
    const { doc } = await engine.resume(runId, { signal: signal() });
    expect(doc.status).toBe('succeeded');
    expect(doc.steps[1]!.attempts.map((a) => a.outcome)).toEqual(['interrupted']);
    expect(doc.steps[1]!.commit).toBe(sh(run.worktree, 'rev-parse', 'HEAD~1'));
    // Only step 3 spoke to the model.
    expect(server!.requests.slice(before).every((r) => !r.lastUserText.includes('## Step 2 of 3'))).toBe(true);
  });

  it('checks out the right branch when the worktree is on another one, keeping its changes in a stash', async () => {
    const { engine, runId, run } = await interruptedAtStep2();
    sh(run.worktree, 'stash', '-q', '-u');
    sh(run.worktree, 'checkout', '-q', '-b', 'somewhere-else');
    writeFileSync(join(run.worktree, 'stray.txt'), 'stray\n');
    const info = await engine.inspectResume(runId);
    expect(info.plan.required.map((r) => [r.code, r.safeDefault])).toEqual([
      ['wrong_branch', 'checkout_branch'],
      ['dirty_tree', 'rescue_commit'],
    ]);
    const { doc, notes } = await engine.resume(runId, { signal: signal() });
    expect(doc.status).toBe('succeeded');
    expect(notes[0]).toMatch(/checked out ratchet\/.* \(its uncommitted changes are in stash/);
  });

  it('recreates a missing worktree from the branch', async () => {
    const { p, engine, runId, run } = await interruptedAtStep2();
    sh(p.repo, 'worktree', 'remove', '--force', run.worktree);
    const info = await engine.inspectResume(runId);
    expect(info.plan.required[0]).toMatchObject({ code: 'no_worktree', safeDefault: 'recreate_worktree' });
    const { doc } = await engine.resume(runId, { signal: signal() });
    expect(doc.status).toBe('succeeded');
    expect(existsSync(join(run.worktree, 'steps', '3.txt'))).toBe(true);
  });

  it('auto-progress "step" runs one step and pauses; the next resume goes on', async () => {
    const { engine, runId } = await interruptedAtStep2();
    const first = await engine.resume(runId, { signal: signal(), auto: 'step' });
    expect(first.doc.status).toBe('paused');
    expect(first.doc.reason).toBe('Paused after step 2, as you asked to go one step at a time. Resume to continue with step 3.');
    expect(first.doc.steps.map((s) => s.status)).toEqual(['succeeded', 'succeeded', 'pending']);
    const second = await engine.resume(runId, { signal: signal() });
    expect(second.doc.status).toBe('succeeded');
    expect(second.doc.resumes).toHaveLength(2);
  });

  it('warns when the same step failed 3+ times across runs', async () => {
    const p = setup(2, '');
    writeFileSync(p.flag, 'x');
    const engine = await engineFor(p.home);
    for (let i = 0; i < 3; i++) {
      const id = await engine.createRun(await engine.prepareRun({ repo: p.repo, workflowFile: p.workflowFile }));
      expect((await engine.execute(id, signal())).status).toBe('failed');
    }
    const last = engine.list()[0]!.id;
    const info = await engine.inspectResume(last);
    expect(info.repeatedFailures).toHaveLength(3);
    expect(info.plan.nextStep).toBe(2);
    // The recommended actions name this run, not a placeholder the reader has to fill in.
    const text = renderResumePlan(info);
    expect(text).toContain(`ratchet plan ${last} --edit <file>`);
    expect(text).not.toContain('<run-id>');
  });
});

describe('a retry when the base branch moved and conflicts (issue 20 item 9)', () => {
  it('tells the agent which files conflict with the moved base, asks it to resolve them, and does not call the run succeeded while they still conflict (issue 29 item 9)', async () => {
    const { p, engine, runId } = await failedAtStep2();
    rmSync(p.flag);
    // The user's main gets its own steps/1.txt: merging it into the run's branch (which added steps/1.txt) would conflict.
    writeFileSync(join(p.repo, 'steps.txt'), 'x');
    sh(p.repo, 'checkout', '-q', 'main');
    sh(p.repo, 'rm', '-q', '--cached', '--ignore-unmatch', 'steps.txt');
    execFileSync('mkdir', ['-p', join(p.repo, 'steps')]);
    writeFileSync(join(p.repo, 'steps', '1.txt'), 'the base has its own step 1\n');
    sh(p.repo, 'add', 'steps/1.txt');
    sh(p.repo, 'commit', '-q', '-m', 'main moves on');
    const before = server!.requests.length;
    const { doc, notes } = await engine.retry(runId, { signal: signal() });
    expect(notes.join('\n')).toMatch(/would conflict in: steps\/1\.txt/);
    const told = server!.requests.slice(before)[0]!;
    const text = JSON.stringify(told.body);
    expect(text).toContain('steps/1.txt');
    expect(text).toMatch(/base branch main moved/);
    expect(text).toMatch(/git diff [0-9a-f]{7,}\.\.main -- steps\/1\.txt/);
    expect(text).toMatch(/Resolve the conflict in this step/);
    // The scripted agent never touched steps/1.txt: the branch still conflicts with main, so the run is not a success.
    expect(doc.status).toBe('paused');
    expect(doc.reasonCode).toBe('step_needs_you');
    expect(doc.reason).toMatch(/still conflicts with main in: steps\/1\.txt/);
    expect(doc.steps.map((s) => s.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
  });
});

describe('ratchet recover', () => {
  it('rebuilds a run from the branch and its metadata after the database is lost, and resumes it', async () => {
    const { p, runId, doc } = await failedAtStep2();
    rmSync(p.flag);
    const fresh = join(mkdtempSync(join(tmpdir(), 'ratchet-home2-')), 'home');
    const engine = await engineFor(fresh);
    expect(engine.list()).toEqual([]);
    const r = await engine.recover(p.repo);
    expect(r.rebuilt).toEqual([runId]);
    const rebuilt = engine.status(runId);
    // As it was: failed, with its reason (words and code) and every attempt, not an "interrupted" run without history.
    expect(doc.reasonCode).toBe('step_failed');
    expect(rebuilt).toMatchObject({ status: 'failed', branch: doc.branch, reason: doc.reason, reasonCode: 'step_failed' });
    expect(rebuilt.steps.map((s) => s.status)).toEqual(['succeeded', 'failed', 'pending']);
    expect(rebuilt.steps[0]!.commit).toBe(doc.steps[0]!.commit);
    const was = (d: typeof doc) => d.steps.map((s) => s.attempts.map((a) => [a.n, a.outcome, a.errorClass, a.model]));
    expect(was(rebuilt)).toEqual(was(doc));
    expect(rebuilt.costUsd ?? 0).toBeCloseTo(doc.costUsd ?? 0, 6);
    const { doc: done } = await engine.retry(runId, { signal: signal() });
    expect(done.status).toBe('succeeded');
    expect((await engine.recover(p.repo)).known).toEqual([runId]);
  });

  it('brings a succeeded run back succeeded, with its attempt history (issue 20 item 7)', async () => {
    const { p, runId, engine: first } = await failedAtStep2();
    rmSync(p.flag);
    const { doc } = await first.retry(runId, { signal: signal() });
    expect(doc.status).toBe('succeeded');
    await first.settled();
    const fresh = join(mkdtempSync(join(tmpdir(), 'ratchet-home3-')), 'home');
    const engine = await engineFor(fresh);
    expect((await engine.recover(p.repo)).rebuilt).toEqual([runId]);
    const rebuilt = engine.status(runId);
    expect(rebuilt).toMatchObject({ status: 'succeeded', reason: doc.reason });
    expect(rebuilt.steps.map((s) => [s.status, s.commit])).toEqual(doc.steps.map((s) => [s.status, s.commit]));
    expect(rebuilt.steps.map((s) => s.attempts.map((a) => [a.n, a.round, a.outcome, a.errorClass]))).toEqual(
      doc.steps.map((s) => s.attempts.map((a) => [a.n, a.round, a.outcome, a.errorClass])),
    );
  });

  it('a run ended before Ratchet kept its state in git comes back interrupted, from the branch', async () => {
    const { p, runId, doc } = await failedAtStep2();
    sh(p.repo, 'update-ref', '-d', `refs/ratchet/${runId}/state`);
    const engine = await engineFor(join(mkdtempSync(join(tmpdir(), 'ratchet-home4-')), 'home'));
    await engine.recover(p.repo);
    expect(engine.status(runId)).toMatchObject({ status: 'interrupted', branch: doc.branch, reasonCode: 'rebuilt_from_git' });
  });
});

describe('ratchet recover with run metadata naming a folder that is not a worktree of the repository', () => {
  it("never adopts it (a forged record naming the user's checkout): the run is not rebuilt, the checkout is not touched", async () => {
    const { p, runId, doc } = await failedAtStep2();
    const meta = JSON.parse(sh(p.repo, 'cat-file', 'blob', `refs/ratchet/${runId}/meta`)) as Record<string, unknown>;
    // With --no-sandbox the agent can write refs: the run's record now names the user's own checkout as its worktree.
    const blob = join(mkdtempSync(join(tmpdir(), 'ratchet-meta-')), 'meta.json');
    writeFileSync(blob, JSON.stringify({ ...meta, worktree: p.repo }));
    sh(p.repo, 'update-ref', `refs/ratchet/${runId}/meta`, sh(p.repo, 'hash-object', '-w', blob));
    const engine = await engineFor(join(mkdtempSync(join(tmpdir(), 'ratchet-home3-')), 'home'));
    const r = await engine.recover(p.repo);
    expect(r.rebuilt).toEqual([]);
    expect(r.branchesWithoutMeta).toEqual([doc.branch]);
    expect(existsSync(join(p.repo, '.git'))).toBe(true);
    expect(sh(p.repo, 'status', '--porcelain')).toBe('');
  });
});

describe('a run whose branch was never made', () => {
  it('resumes by creating the branch from the base commit when no step was committed', async () => {
    const p = setup(2);
    const engine = await engineFor(p.home);
    const runId = await engine.createRun(await engine.prepareRun({ repo: p.repo, workflowFile: p.workflowFile }));
    const run = engine.store.getRun(runId)!;
    // As if the process had died before git made the worktree and the branch.
    sh(p.repo, 'worktree', 'remove', '--force', run.worktree);
    sh(p.repo, 'branch', '-D', run.branch);
    const info = await engine.inspectResume(runId);
    expect(info.plan.blocked).toBe(false);
    const { doc, notes } = await engine.resume(runId, { signal: signal() });
    expect(notes[0]).toContain('again from the base commit');
    expect(doc.status).toBe('succeeded');
  });
});
