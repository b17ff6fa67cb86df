// The baseline check: setup and gates once on the base commit before any agent money — in a run (stored, told to the agent, an unready environment stops the run) and for New task's "Check project".
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../engine';
import type { EngineEvent } from '../store/store';
import { makeRepo, tempDir } from '../testing/temp-repo';
import { closeEngine, envEngine, logLines, payloads, runWorkflow } from '../testing/worktree-env-fixtures';
import { WorkflowFile } from '../workflow/schema';
import type { BaselineProgress } from './baseline';

let engine: Engine;
afterEach(async () => {
  if (engine) await closeEngine(engine);
});

// Fails (a TAP test failure) until the agent has written w.txt.
const BROKEN_UNTIL_FIXED = `test -f w.txt || { echo 'not ok 1 - already broken'; exit 1; }; echo 'ok 1 - already broken'`;

describe('the baseline check in a run', () => {
  it('runs setup and the gates on the base commit before the first attempt; tests already failing are stored and told to the agent', async () => {
    engine = envEngine();
    const repo = makeRepo({ 'package.json': '{"name":"a"}\n' });
    const r = await runWorkflow(
      engine,
      repo,
      `
setup: "echo ready"
gates: { test: ${JSON.stringify(BROKEN_UNTIL_FIXED)} }
agent: { kind: command, command: ["sh", "-c", "printf %s \\"$1\\" > prompt.txt; date > w.txt", "agent", "{prompt}"] }
steps: [{ title: one }]
`,
    );
    expect(r.doc.status).toBe('succeeded');
    const baseline = r.doc.environment?.baseline;
    expect(baseline).toMatchObject({ ready: true, problem: null, commit: r.doc.baseCommit, failingTests: ['test: already broken'] });
    expect(baseline?.gates).toEqual([expect.objectContaining({ gate: 'test', passed: false, errorClass: 'test_failure', failingTests: ['already broken'] })]);
    const order = r.events.map((e) => e.type);
    expect(order.indexOf('baseline.finished')).toBeLessThan(order.indexOf('attempt.started'));
    expect(
      payloads(r.events, 'baseline.output')
        .map((p) => p.text)
        .join(''),
    ).toContain('not ok 1 - already broken');
    const prompt = readFileSync(join(r.worktree, 'prompt.txt'), 'utf8');
    expect(prompt).toContain('## Already failing before you started');
    expect(prompt).toContain('- test: already broken');
  });

  it("stops the run before the agent, as the environment's problem, when a gate cannot run on the base commit (a module that is not installed)", async () => {
    engine = envEngine();
    const repo = makeRepo({ 'package.json': '{"name":"a"}\n' });
    const r = await runWorkflow(
      engine,
      repo,
      `
setup: "true"
gates: { test: "node -e \\"require('left-pad-that-is-not-installed')\\"" }
agent: { kind: command, command: ["sh", "-c", "date > w.txt"] }
steps: [{ title: one }]
`,
    );
    expect(r.doc.status).toBe('failed');
    expect(r.doc.reason).toMatch(
      /^The project is not ready to test: on the base commit, before any change, gate `test` .* fails with missing dependency: .*left-pad-that-is-not-installed/,
    );
    expect(r.doc.reason).toContain('No agent attempt can fix the environment');
    expect(r.doc.reason).toContain('To start the agent anyway, run again with --run-anyway.');
    expect(r.doc.steps[0]!.attempts).toEqual([]);
    expect(r.doc.environment?.baseline).toMatchObject({ ready: false });
  });

  it('with runAnyway (--run-anyway), starts the agent on a project the check found not ready, saying so in the log', async () => {
    engine = envEngine();
    const repo = makeRepo({ 'package.json': '{"name":"a"}\n' });
    const file = join(tempDir('ratchet-env-wf-'), 'ratchet.yml');
    writeFileSync(
      file,
      `
setup: "true"
gates: { test: "node -e \\"require('left-pad-that-is-not-installed')\\"" }
agent: { kind: command, command: ["sh", "-c", "date > w.txt"] }
max_retries: 0
steps: [{ title: one }]
`,
    );
    const events: EngineEvent[] = [];
    engine.onEvent((e) => events.push(e));
    const runId = await engine.createRun(await engine.prepareRun({ repo, workflowFile: file }));
    const doc = await engine.execute(runId, new AbortController().signal, { runAnyway: true });
    expect(doc.environment?.baseline).toMatchObject({ ready: false });
    // The agent ran: an attempt, whose gate failed as on the base commit.
    expect(doc.steps[0]!.attempts.length).toBeGreaterThan(0);
    expect(logLines(events).some((l) => /^The project is not ready to test: .* The agent starts anyway, as asked\.$/.test(l))).toBe(true);
  });

  it('a run the check stopped is started anyway, the same run, by a resume with runAnyway (the app’s Run anyway)', async () => {
    engine = envEngine();
    const repo = makeRepo({ 'package.json': '{"name":"a"}\n' });
    const file = join(tempDir('ratchet-env-wf-'), 'ratchet.yml');
    writeFileSync(
      file,
      `
setup: "true"
gates: { test: "node -e \\"require('left-pad-that-is-not-installed')\\"" }
agent: { kind: command, command: ["sh", "-c", "date > w.txt"] }
max_retries: 0
steps: [{ title: one }]
`,
    );
    const runId = await engine.createRun(await engine.prepareRun({ repo, workflowFile: file }));
    const stopped = await engine.execute(runId, new AbortController().signal);
    expect(stopped).toMatchObject({ status: 'failed', reasonCode: 'environment_failed', environment: { baseline: { ready: false } } });
    expect(stopped.steps[0]!.attempts).toEqual([]);
    const { doc } = await engine.resume(runId, { signal: new AbortController().signal, runAnyway: true });
    expect(doc.id).toBe(runId);
    expect(doc.steps[0]!.attempts.length).toBeGreaterThan(0);
  });
});

describe("the classifier, told the run's baseline", () => {
  it('says a test that failed on the base commit already failed there', async () => {
    engine = envEngine();
    const repo = makeRepo({ 'package.json': '{"name":"a"}\n' });
    const r = await runWorkflow(
      engine,
      repo,
      `
setup: "true"
gates: { test: "echo 'not ok 1 - already broken'; exit 1" }
agent: { kind: command, command: ["sh", "-c", "date > w.txt"] }
max_retries: 0
backoff: { base_s: 0, max_s: 0, jitter: 0 }
steps: [{ title: one }]
`,
    );
    expect(r.doc.environment?.baseline).toMatchObject({ ready: true, failingTests: ['test: already broken'] });
    const first = r.doc.steps[0]!.attempts[0]!;
    expect(first.errorClass).toBe('test_failure');
    expect(first.message).toContain('(already broken already failed on the base commit)');
  });

  it("calls a module the base commit also lacks the environment's (missing_dependency, not retried), not the agent's code", async () => {
    engine = envEngine();
    // A test that imports a module nothing here provides: on the base commit that reads as a test importing what
    // the agent has yet to write (retried), so the baseline does not stop the run.
    const repo = makeRepo({ 'tests/test_calc.py': 'import calc_helpers_not_installed\n' });
    const r = await runWorkflow(
      engine,
      repo,
      `
setup: "true"
gates: { test: "python3 tests/test_calc.py" }
agent: { kind: command, command: ["sh", "-c", "date > w.txt"] }
backoff: { base_s: 0, max_s: 0, jitter: 0 }
steps: [{ title: one }]
`,
    );
    expect(r.doc.environment?.baseline).toMatchObject({ ready: true });
    expect(r.doc.environment?.baseline?.gates[0]).toMatchObject({ passed: false, missing: ['calc_helpers_not_installed'] });
    const attempts = r.doc.steps[0]!.attempts;
    expect(attempts[0]).toMatchObject({ errorClass: 'missing_dependency' });
    expect(attempts[0]!.message).toMatch(/^The base commit fails the same way: .*calc_helpers_not_installed/);
    expect(attempts).toHaveLength(1);
  });
});

describe('baselineCheck (New task\'s "Check project")', () => {
  const workflow = (setup: string) => WorkflowFile.parse({ setup, gates: { test: BROKEN_UNTIL_FIXED }, steps: [{ title: 'one' }] });

  it('answers ready with the tests that already fail, reporting progress, and leaves no worktree behind', async () => {
    engine = envEngine();
    const repo = makeRepo({ 'package.json': '{"name":"a"}\n' });
    const seen: BaselineProgress[] = [];
    const doc = await engine.baselineCheck({ repo, workflow: workflow('echo installing'), onProgress: (p) => seen.push(p) });
    expect(doc).toMatchObject({ ready: true, problem: null, failingTests: ['test: already broken'], setup: { outcome: 'ok' } });
    expect(doc.commit).toBe(execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim());
    expect(seen.map((p) => p.kind)).toEqual(
      expect.arrayContaining(['setup.started', 'setup.output', 'setup.finished', 'gate.started', 'gate.output', 'gate.finished']),
    );
    expect(seen.findIndex((p) => p.kind === 'gate.started')).toBeGreaterThan(seen.findIndex((p) => p.kind === 'setup.finished'));
    expect(execFileSync('git', ['worktree', 'list', '--porcelain'], { cwd: repo, encoding: 'utf8' }).match(/^worktree /gm)).toHaveLength(1);
  });

  it("answers not ready, with the setup's own sentence, when setup fails", async () => {
    engine = envEngine();
    const repo = makeRepo();
    const doc = await engine.baselineCheck({ repo, workflow: workflow('echo "no such registry" >&2; exit 1') });
    expect(doc.ready).toBe(false);
    expect(doc.problem).toMatch(/^Setup failed: `echo "no such registry" >&2; exit 1` exited with code 1 after .*no such registry/s);
    expect(doc.gates).toEqual([]);
  });
});
