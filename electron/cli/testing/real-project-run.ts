// Test helper: one realistic project's bug fixed end to end through `ratchet run` (scripted agent, sandbox on), and what must hold after.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect, type TestContext } from 'vitest';
import { StatusDocument } from '../../../shared/domain';
import { startScriptedServer, type RecordedRequest } from '../../scripted/server';
import { queue, say } from '../../engine/testing/fixture-project';
import { checkoutState, Unavailable, type CheckoutState, type RealProject } from '../../engine/testing/real-projects/real-project';
import { sh, tempDir } from '../../engine/testing/temp-repo';
import { openDatabase } from '../../engine/store/open-store';
import { Store } from '../../engine/store/store';
import { runCli } from './run-cli';

/** Builds the fixture, or skips the test saying which tool or registry this machine lacks. */
export function realProject(ctx: TestContext, make: () => RealProject): RealProject {
  try {
    return make();
  } catch (err) {
    if (err instanceof Unavailable) ctx.skip(err.message);
    throw err;
  }
}

/** Where the project's part of the workflow came from: `ratchet init`'s detection, or (before there was one) the minimal file. */
export type WorkflowSource = 'ratchet init' | 'minimal';

/**
 * The project's part of the workflow (setup, gates, copy), as a new user gets it: what `ratchet init <repo>` detects
 * and writes, taken as it is (read, then removed from the checkout, so the run starts from the checkout as it was);
 * where the CLI has no `init` yet, the minimal file a new user writes, the project's own test command as the only gate.
 * Nothing else is added for a project.
 */
export async function projectWorkflow(p: RealProject): Promise<{ text: string; source: WorkflowSource }> {
  const initHome = tempDir('ratchet-real-init-');
  const init = await runCli(['init', p.repo, '--json'], { ...p.shellEnv, RATCHET_HOME: join(initHome, 'home') }).finally(() =>
    rmSync(initHome, { recursive: true, force: true }),
  );
  if (init.code !== 0 && /Unknown command `init`/.test(init.err)) {
    return { text: `gates:\n  test: ${JSON.stringify(p.testCommand)}\n`, source: 'minimal' };
  }
  if (init.code !== 0) throw new Error(`ratchet init ${p.repo} failed (exit ${init.code}):\n${init.err}${init.out}`);
  const { file } = JSON.parse(init.out) as { file: string };
  const text = readFileSync(file, 'utf8');
  rmSync(file);
  return { text: text.endsWith('\n') ? text : `${text}\n`, source: 'ratchet init' };
}

/** The whole workflow: the project's part, the bug report as the one step, and no backoff (the test does not wait a minute between attempts). */
export async function workflowFile(p: RealProject): Promise<{ file: string; source: WorkflowSource }> {
  const project = await projectWorkflow(p);
  const file = join(tempDir('ratchet-real-wf-'), 'ratchet.yml');
  writeFileSync(
    file,
    `${project.text}backoff: { base_s: 0, max_s: 0, jitter: 0 }
steps:
  - title: ${JSON.stringify(p.step.title)}
    prompt: ${JSON.stringify(p.step.prompt)}
`,
  );
  return { file, source: project.source };
}

export interface RealRun {
  code: number;
  out: string;
  err: string;
  doc: StatusDocument | null;
  requests: RecordedRequest[];
  before: CheckoutState;
  after: CheckoutState;
  /** Failing test names parsed from attempt 1's gate results, as stored. */
  attempt1Failures: string[];
  durationMs: number;
  workflowSource: WorkflowSource;
  /** Ratchet's home and the workflow's folder, for the caller to remove. */
  tempDirs: string[];
}

/** `ratchet run <repo> --workflow <file> --yes --json` from the developer's shell, against the scripted agent. */
export async function runRealProject(p: RealProject): Promise<RealRun> {
  // Past its two attempts the agent has nothing more to try: a third attempt changes nothing and the step ends there,
  // saying why, instead of spending the API error retries on a script that ran out.
  const server = await startScriptedServer({
    script: { rules: [...queue(...p.attempts[0], ...p.attempts[1]), { response: say('I have nothing more to change.') }] },
  });
  const homeDir = tempDir('ratchet-real-home-');
  const home = join(homeDir, 'home');
  const workflow = await workflowFile(p);
  const before = checkoutState(p.repo);
  const started = performance.now();
  try {
    const r = await runCli(['run', p.repo, '--workflow', workflow.file, '--yes', '--json'], {
      ...p.shellEnv,
      RATCHET_HOME: home,
      ANTHROPIC_API_KEY: 'sk-real-projects',
      ANTHROPIC_BASE_URL: server.url,
    });
    const durationMs = performance.now() - started;
    let doc: StatusDocument | null = null;
    try {
      doc = StatusDocument.parse(JSON.parse(r.out));
    } catch {
      // No status document: the assertions say what the CLI printed instead.
    }
    return {
      ...r,
      doc,
      requests: server.requests,
      before,
      after: checkoutState(p.repo),
      attempt1Failures: doc ? storedFailures(home, doc.id) : [],
      durationMs,
      workflowSource: workflow.source,
      tempDirs: [homeDir, dirname(workflow.file)],
    };
  } finally {
    await server.close();
  }
}

function storedFailures(home: string, runId: string): string[] {
  const opened = openDatabase(home);
  try {
    const store = new Store(opened.db);
    const first = store.getAttempts(runId, 1).find((a) => a.n === 1);
    if (!first) return [];
    return store.getGateResults(first.id).flatMap((g) => (g.failures as Array<{ name: string }>).map((f) => f.name));
  } finally {
    opened.db.close();
    opened.release();
  }
}

/**
 * What every realistic project must show: the run succeeds on attempt 2 of step 1, the retry that was told the
 * real tool's failure; the user's checkout is as it was; the step commit holds the fix and nothing the tools made.
 */
export function expectFixedOnRetry(p: RealProject, run: RealRun): void {
  const said = `workflow from ${run.workflowSource}; exit ${run.code}; status ${run.doc?.status}: ${run.doc?.reason}\n--- stderr (tail) ---\n${run.err.slice(-4000)}`;
  expect(run.doc?.status, said).toBe('succeeded');
  expect(run.code, said).toBe(0);
  const doc = run.doc!;
  const attempts = doc.steps[0]!.attempts;
  expect(attempts.map((a) => [a.n, a.outcome, a.errorClass])).toEqual([
    [1, 'failed', 'test_failure'],
    [2, 'passed', null],
  ]);
  // The stored failure names the test the wrong first change broke, as the project's own runner printed it.
  expect(
    run.attempt1Failures.some((name) => name.includes(p.attempt1FailingTest)),
    `stored failures: ${JSON.stringify(run.attempt1Failures)}`,
  ).toBe(true);
  // The retry was told: attempt 2, that test.
  const retry = run.requests[p.attempts[0].length]!;
  expect(retry.lastUserText).toContain('attempt 2 of');
  expect(retry.lastUserText).toContain(p.attempt1FailingTest);

  // The user's checkout: same branch, HEAD, status, and every file (ignored ones too) as before the run.
  expect(run.after.head).toBe(run.before.head);
  expect(run.after.branch).toBe(run.before.branch);
  expect(run.after.status).toBe(run.before.status);
  expect(run.after.files).toEqual(run.before.files);

  // The step commit: the fix, nothing else (no node_modules, venv, target, caches).
  const commit = doc.steps[0]!.commit!;
  expect(sh(p.repo, 'log', '--format=%s', `${doc.baseCommit}..${commit}`)).toBe(`step 1: ${p.step.title}`);
  expect(sh(p.repo, 'diff', '--name-only', doc.baseCommit, commit).split('\n')).toEqual(p.fixFiles);
  const tree = sh(p.repo, 'ls-tree', '-r', '--name-only', commit).split('\n');
  for (const dir of p.untrackedDirs) expect(tree.filter((f) => f.startsWith(`${dir}/`))).toEqual([]);
}

/**
 * The whole test for one realistic project: build it (or skip, saying what is missing), fix its bug through `ratchet
 * run`, check what must hold (`also` adds the project's own checks). A passing test removes the project and Ratchet's
 * home (a suite makes hundreds of MB of them); a failing one keeps them to look at (their paths are in its message).
 */
export async function expectRealProjectFixed(ctx: TestContext, make: () => RealProject, also?: (p: RealProject, run: RealRun) => void): Promise<void> {
  const p = realProject(ctx, make);
  const run = await runRealProject(p);
  expectFixedOnRetry(p, run);
  also?.(p, run);
  for (const dir of [p.repo, ...run.tempDirs]) rmSync(dir, { recursive: true, force: true });
}
