// A run's worktree environment: made ready when the run executes (copy, dependencies, setup, the gates' view of the code, the baseline check), setup again before gates when its inputs changed, gates' leftovers kept out of commits.
import { statSync } from 'node:fs';
import type { BaselineDoc } from '../../../shared/worktree-env';
import type { Failure } from '../failures/failure';
import type { BaselineFacts } from '../failures/classify-context';
import type { RunJail } from '../sandbox/os-sandbox';
import { RunEnvStore } from '../store/run-env';
import type { Store } from '../store/store';
import type { StepConfig, Workflow } from '../workflow/schema';
import { checkCheckoutLeaks } from './checkout-leaks';
import { baselineFacts, baselineGates, bringFromCheckout, gatesOf, initExcludes, pinned, setupPhase, untrackedPaths, type EnvTarget } from './prepare-worktree';
import { addRunExcludes } from '../git/run-excludes';
import { worktreeFiles } from './setup-inputs';

export interface RunEnvironmentInput {
  store: Store;
  runId: string;
  /** The user's checkout (the run's repository). */
  checkout: string;
  worktree: string;
  baseCommit: string;
  workflow: Workflow;
  /** The plan's steps (their gates are what the baseline runs). */
  steps: readonly StepConfig[];
  /** Whether the worktree is still at the base commit (no step completed): only then is the baseline checked. */
  atBase: boolean;
  /** A baseline that is not ready is said (a warning), not obeyed: the agent starts anyway. */
  runAnyway?: boolean;
  jail: RunJail;
  signal: AbortSignal;
  now: () => Date;
  resolveNetwork?: EnvTarget['resolveNetwork'];
}

/** What the step runner calls around an attempt's gates. */
export interface WorktreeEnvHooks {
  /** What the base commit already failed on (the run's stored baseline check), for the classifier; null when none ran. */
  baseline: BaselineFacts | null;
  /** Runs setup again when the agent changed one of its inputs; a failure is the environment's (never retried through the agent). */
  beforeGates(signal: AbortSignal): Promise<Failure | null>;
  /** Keeps what the gates left in the worktree out of every later commit, and says so. */
  afterGates(): Promise<void>;
}

export type RunEnvironment =
  { kind: 'ready'; jail: RunJail; baseline: BaselineDoc | null; hooks: WorktreeEnvHooks } | { kind: 'failed'; reason: string } | { kind: 'stopped' };

/** A jail whose commands get `env` changed (a value of undefined removes the variable). */
export function withEnv(jail: RunJail, changes: Record<string, string | undefined>): RunJail {
  if (!Object.keys(changes).length) return jail;
  const env: NodeJS.ProcessEnv = { ...jail.env, ...changes };
  for (const [k, v] of Object.entries(changes)) if (v === undefined) delete env[k];
  return { ...jail, env, wrap: (shell, command, o) => jail.wrap(shell, command, { ...o, env: o?.env ?? env }) };
}

function environmentFailure(message: string): Failure {
  return {
    errorClass: 'environment',
    message,
    hints: [],
    failures: [],
    gate: null,
    failedGates: [],
    outputs: {},
    agentFatal: false,
    retryAfterS: null,
  };
}

/**
 * Makes the run's worktree ready before its first step (a retry or resume does only what is left: copy and reuse
 * once, setup when its inputs changed or it did not finish, the baseline until it passed once).
 */
/**
 * Which folder this is, beyond its path: device, inode and birth time. The inode alone is not enough: a folder deleted
 * and made again at once often gets the same inode back (seen here), and would pass for the prepared one.
 */
export function worktreeIdentity(dir: string): string {
  const st = statSync(dir);
  return `${st.dev}:${st.ino}:${Math.round(st.birthtimeMs * 1000)}`;
}

/** Whether a stored identity names this folder; one stored before birth times were kept compares device and inode. */
export function sameWorktree(stored: string | null, now: string): boolean {
  if (stored === null) return false;
  return stored.split(':').length === 2 ? now.startsWith(`${stored}:`) : stored === now;
}

/** How a run the pre-run check stopped is started anyway. */
export const RUN_ANYWAY = 'To start the agent anyway, run again with --run-anyway.';

export async function prepareRunEnvironment(input: RunEnvironmentInput): Promise<RunEnvironment> {
  const { store, runId } = input;
  const envStore = new RunEnvStore(store);
  const emit: EnvTarget['emit'] = (type, payload) => store.event(runId, type, payload);
  const worktreeId = worktreeIdentity(input.worktree);
  if (envStore.get(runId).preparedAt && !sameWorktree(envStore.get(runId).worktreeId, worktreeId)) {
    envStore.forgetWorktree(runId);
    emit('log', { level: 'info', message: 'the worktree was made again: files are copied and setup runs again' });
  }
  const state = envStore.get(runId);
  const base: Omit<EnvTarget, 'jail' | 'env'> = {
    checkout: input.checkout,
    worktree: input.worktree,
    workflow: input.workflow,
    signal: input.signal,
    emit,
    now: input.now,
    resolveNetwork: input.resolveNetwork,
  };
  await initExcludes(input.checkout, input.worktree, input.jail.env, input.jail.sandboxed);
  const wt = pinned(input);
  let files = await worktreeFiles(wt);
  let reusedNode = false;
  if (!state.preparedAt) {
    const brought = await bringFromCheckout({ ...base, jail: input.jail, env: input.jail.env }, files);
    for (const n of brought.notes) emit('log', { level: 'info', message: n });
    if (input.signal.aborted) return { kind: 'stopped' };
    envStore.markPrepared(runId, input.now().toISOString(), brought.copied, brought.reused, worktreeId);
    reusedNode = brought.reused.some((r) => r.path.endsWith('node_modules/'));
  }

  const t: EnvTarget = { ...base, jail: input.jail, env: input.jail.env };
  // A worktree new to this run (made now, or again by a recovery) runs setup as a first time.
  let fresh = !state.preparedAt;
  const runSetupPhase = async (): Promise<string | null> => {
    const s = envStore.get(runId);
    const phase = await setupPhase(t, { files, stored: s.setupInputs, ranBefore: s.setup !== null && !fresh, reusedNode });
    fresh = false;
    if (phase.doc) envStore.recordSetup(runId, phase.doc, phase.inputs, phase.output);
    if (phase.doc?.outcome === 'failed') return phase.doc.message;
    return null;
  };
  const startedAt = performance.now();
  const setupFailed = await runSetupPhase();
  if (input.signal.aborted) return { kind: 'stopped' };
  if (setupFailed) return { kind: 'failed', reason: setupFailed };

  // The gates' view of the code: fixed where Ratchet can, refused where it cannot.
  files = await worktreeFiles(wt);
  const leaks = await checkCheckoutLeaks({
    checkout: input.checkout,
    worktree: input.worktree,
    files,
    env: input.jail.env,
    jail: input.jail,
    signal: input.signal,
  });
  if (input.signal.aborted) return { kind: 'stopped' };
  envStore.recordFixes(runId, leaks.fixes);
  for (const f of leaks.fixes) emit('log', { level: 'info', message: `so that gates test the worktree's code: ${f}` });
  if (leaks.refusal) return { kind: 'failed', reason: leaks.refusal };
  const jail = withEnv(input.jail, leaks.env);
  t.jail = jail;
  t.env = jail.env;

  let baseline = envStore.get(runId).baseline;
  if (input.workflow.setup && input.atBase && !baseline?.ready) {
    baseline = await baselineGates(t, gatesOf(input.workflow, input.steps), input.baseCommit, envStore.get(runId).setup, startedAt);
    if (input.signal.aborted) return { kind: 'stopped' };
    envStore.recordBaseline(runId, baseline);
    await keepLeftovers(t, 'the baseline check');
    if (!baseline.ready && !input.runAnyway) {
      return { kind: 'failed', reason: `${baseline.problem ?? 'The project is not ready to test.'} ${RUN_ANYWAY}` };
    }
    if (!baseline.ready)
      emit('log', { level: 'warn', message: `${baseline.problem ?? 'The project is not ready to test.'} The agent starts anyway, as asked.` });
  }

  const hooks: WorktreeEnvHooks = {
    baseline: baselineFacts(baseline),
    async beforeGates(signal) {
      if (!input.workflow.setup) return null;
      files = await worktreeFiles(wt);
      t.signal = signal;
      const failed = await runSetupPhase();
      return failed ? environmentFailure(failed) : null;
    },
    afterGates: () => keepLeftovers(t, 'the gates'),
  };
  return { kind: 'ready', jail, baseline, hooks };
}

/** Files gates left that the project does not track: excluded from Ratchet's commits from now on, and the user is told. */
async function keepLeftovers(t: EnvTarget, who: string): Promise<void> {
  const left = await untrackedPaths(pinned(t));
  if (!left.length) return;
  const fresh = addRunExcludes(t.worktree, left, `left by ${who}`);
  if (fresh.length) {
    t.emit('log', {
      level: 'warn',
      message: `${who} left files the project does not track: ${fresh.slice(0, 10).join(', ')}${fresh.length > 10 ? ` and ${fresh.length - 10} more` : ''}. Ratchet does not commit them; add them to .gitignore.`,
    });
  }
}
