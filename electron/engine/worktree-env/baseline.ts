// The baseline check: the workflow's setup and gates run once on the base commit, before any agent money is spent — is the project ready to test, and which tests already fail?
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BaselineDoc } from '../../../shared/worktree-env';
import { git, inspectRepo } from '../git/repo-git';
import type { OsSandbox } from '../sandbox/os-sandbox';
import type { Workflow } from '../workflow/schema';
import { checkCheckoutLeaks } from './checkout-leaks';
import { baselineGates, bringFromCheckout, gatesOf, initExcludes, pinned, setupPhase, type EnvTarget } from './prepare-worktree';
import { removeRunExcludes } from '../git/run-excludes';
import { withEnv } from './run-environment';
import { worktreeFiles } from './setup-inputs';
import { serialized } from '../git/repo-lock';

/** Live progress of a baseline check (the app's "Check project" shows it as it comes). */
export type BaselineProgress =
  | { kind: 'setup.started'; commands: string[] }
  | { kind: 'setup.output'; text: string }
  | { kind: 'setup.finished'; ok: boolean; durationMs: number }
  | { kind: 'gate.started'; gate: string; command: string }
  | { kind: 'gate.output'; gate: string; text: string }
  | { kind: 'gate.finished'; gate: string; passed: boolean; durationMs: number };

/** What "Check project" (New task) gives baselineCheck. */
export interface BaselineCheckOptions {
  /** The user's repository: its root or any folder inside it. */
  repo: string;
  /** The workflow to check (detected, the repository's own, or written in the app): its `setup`, `copy` and gates. */
  workflow: Workflow;
  /** The commit to check; default the repository's HEAD. */
  commit?: string;
  /** The engine's OS sandbox: setup and gates run in it exactly as in a run. */
  sandbox: OsSandbox;
  /** The engine's environment (the user's PATH and variables; the sandbox keeps only its allowlist). */
  env: NodeJS.ProcessEnv;
  /** Where the temporary worktree is made (it is removed at the end); default the system's temporary folder. */
  worktreeRoot?: string;
  signal?: AbortSignal;
  onProgress?: (p: BaselineProgress) => void;
}

/**
 * Makes a temporary worktree of the repository at `commit`, prepares it as a run would (`copy`, dependencies reused
 * from the checkout, `setup`, the gates' view of the code), runs every gate a step uses once, removes the worktree and
 * answers: ready or not (and why, with what to fix), setup's time, each gate's result, and the tests that already
 * fail. A failing setup or gate is the answer, not an error; an unusable repository throws its RatchetError.
 */
export async function baselineCheck(opts: BaselineCheckOptions): Promise<BaselineDoc> {
  const startedAt = performance.now();
  const repo = await inspectRepo(opts.repo);
  const commit = opts.commit ? (await git(repo.root).raw(['rev-parse', '--verify', `${opts.commit}^{commit}`])).trim() : repo.headCommit;
  const holder = mkdtempSync(path.join(opts.worktreeRoot ?? tmpdir(), 'ratchet-baseline-'));
  const worktree = path.join(holder, `${path.basename(repo.root)}-baseline`);
  const progress = opts.onProgress ?? (() => undefined);
  let gateQueue: string[] = [];
  const nextGate = () => {
    const g = gateQueue.shift();
    if (g) progress({ kind: 'gate.started', gate: g, command: opts.workflow.gates[g]?.run ?? '' });
  };
  const emit: EnvTarget['emit'] = (type, payload) => {
    const p = payload as Record<string, unknown>;
    if (type === 'baseline.started') {
      gateQueue = [...(p.gates as string[])];
      nextGate();
    }
    if (type === 'setup.started') progress({ kind: 'setup.started', commands: p.commands as string[] });
    else if (type === 'setup.output') progress({ kind: 'setup.output', text: p.text as string });
    else if (type === 'setup.finished')
      progress({ kind: 'setup.finished', ok: p.outcome === 'ok' || p.outcome === 'skipped', durationMs: p.durationMs as number });
    else if (type === 'baseline.output') progress({ kind: 'gate.output', gate: p.gate as string, text: p.text as string });
    else if (type === 'baseline.gate') {
      progress({ kind: 'gate.finished', gate: p.gate as string, passed: p.passed as boolean, durationMs: p.durationMs as number });
      nextGate();
    }
  };
  // Apart from the repository's other changes made here (a team worker's fetches into its clone: repo-lock.ts).
  await serialized(repo.root, () => git(repo.root).raw(['worktree', 'add', '--detach', worktree, commit]));
  try {
    const jail = await opts.sandbox.forRun({
      worktree,
      repo: repo.root,
      network: opts.workflow.sandbox?.network ?? [],
      envNames: opts.workflow.sandbox?.env ?? [],
      // The run's own limits: its cgroup bounds the baseline's gates as it will the run's.
      limits: opts.workflow.sandbox?.limits,
    });
    const t: EnvTarget = { checkout: repo.root, worktree, workflow: opts.workflow, jail, env: jail.env, signal: opts.signal, emit, now: () => new Date() };
    await initExcludes(repo.root, worktree, jail.env, jail.sandboxed);
    const wt = pinned(t);
    const files = await worktreeFiles(wt);
    const brought = await bringFromCheckout(t, files);
    const setup = await setupPhase(t, { files, stored: null, ranBefore: false, reusedNode: brought.reused.some((r) => r.path.endsWith('node_modules/')) });
    const at = () => new Date().toISOString();
    if (setup.doc?.outcome === 'failed') {
      return {
        commit,
        ready: false,
        problem: setup.doc.message,
        setup: setup.doc,
        gates: [],
        failingTests: [],
        durationMs: Math.round(performance.now() - startedAt),
        at: at(),
      };
    }
    const leaks = await checkCheckoutLeaks({ checkout: repo.root, worktree, files: await worktreeFiles(wt), env: jail.env, jail, signal: opts.signal });
    if (leaks.refusal) {
      return {
        commit,
        ready: false,
        problem: leaks.refusal,
        setup: setup.doc,
        gates: [],
        failingTests: [],
        durationMs: Math.round(performance.now() - startedAt),
        at: at(),
      };
    }
    const fixed = withEnv(jail, leaks.env);
    return await baselineGates({ ...t, jail: fixed, env: fixed.env }, gatesOf(opts.workflow, opts.workflow.steps), commit, setup.doc, startedAt);
  } finally {
    await git(repo.root)
      .raw(['worktree', 'remove', '--force', worktree])
      .catch(() => undefined);
    removeRunExcludes(worktree);
    rmSync(holder, { recursive: true, force: true });
    await git(repo.root)
      .raw(['worktree', 'prune'])
      .catch(() => undefined);
  }
}
