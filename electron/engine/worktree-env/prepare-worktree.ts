// Makes a worktree ready to test, as a run or the baseline check needs it: the run's exclude file, files copied and dependencies reused from the checkout, setup when its inputs changed, and the gates once on the base commit.
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineEventType, EventPayloadIn } from '../../../shared/engine-events';
import type { BaselineDoc, BaselineGateDoc, ReusedDoc, SetupDoc, WorktreeEnvDoc } from '../../../shared/worktree-env';
import { ranNoTests } from '../gates/count-tests';
import { parseFailures } from '../gates/parse-failures';
import { workspaceFolders } from '../gates/workspace-folders';
import { runGate } from '../gates/run-gate';
import { git, type PinnedWorktree } from '../git/repo-git';
import { pinWorktree } from '../git/worktree-integrity';
import { classifyGateFailure } from '../failures/classify';
import type { BaselineFacts } from '../failures/classify-context';
import { missingNames } from '../failures/classify-missing';
import { toolchainFix } from '../failures/classify-toolchain';
import { presetGateTimeout } from '../policy/policy';
import type { RunJail } from '../sandbox/os-sandbox';
import { WORKTREE_DENIED_PATHS } from '../fs/worktree-denies';
import type { StepConfig, Workflow } from '../workflow/schema';
import { copyFromCheckout } from './copy-files';
import { onlyInstallsNodeModules, reuseDependencies } from './reuse-deps';
import { addRunExcludes, initRunExcludes, userExcludesFile } from '../git/run-excludes';
import { runSetup, setupCommands } from './run-setup';
import { changedInputs, hashInputs, type InputHashes } from './setup-inputs';

export type Emit = <T extends EngineEventType>(type: T, payload: EventPayloadIn<T>) => void;

/** A worktree being made ready, and where its commands run. */
export interface EnvTarget {
  /** The user's checkout (the repository's root). */
  checkout: string;
  worktree: string;
  workflow: Workflow;
  /** The run's sandbox (setup and gates run in it). */
  jail?: RunJail;
  /** The environment commands get (the jail's). */
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  emit: Emit;
  now: () => Date;
  /**
   * Turns setup.network into hosts before setup runs. Unset (as in a run), the entries go to the jail as they are:
   * its wrap resolves `registry:<ecosystem>` from the user's own tool configuration (the sandbox's `resolveNetwork`,
   * outside the sandbox, with the user's environment rather than the sandbox's private HOME).
   */
  resolveNetwork?: (entries: readonly string[], env: NodeJS.ProcessEnv) => Promise<string[]>;
}

/** Classes of a gate failure on the base commit that say the environment is not ready (no agent attempt can fix them). */
export const NOT_READY_CLASSES = new Set(['environment', 'missing_dependency', 'permission_error', 'resource_exhaustion', 'sandbox_violation']);

const TAIL_LINES = 25;
const TAIL_CHARS = 4000;

/** The last lines of an output, bounded. */
export function tail(output: string, lines = TAIL_LINES): string {
  const t = output.replace(/\s+$/, '').split('\n').slice(-lines).join('\n');
  return t.length > TAIL_CHARS ? t.slice(-TAIL_CHARS) : t;
}

/** The run's exclude file, with the user's own global excludes folded in (made once). */
export async function initExcludes(checkout: string, worktree: string, env: NodeJS.ProcessEnv = process.env, sandboxed = false): Promise<void> {
  const configured = (
    await git(checkout)
      .raw(['config', '--path', '--get', 'core.excludesFile'])
      .catch(() => '')
  ).trim();
  initRunExcludes(worktree, userExcludesFile(configured || null, env), { sandboxed });
}

/**
 * Untracked, not ignored paths of the worktree (a wholly untracked folder once, ending in `/`). The sandbox's empty
 * placeholders at its denied names (held while another run's command still runs) are not the gates' leftovers: an
 * exclude naming one would make Ratchet's own `git add`, which keeps them out by pathspec, refuse an ignored path.
 */
export async function untrackedPaths(p: PinnedWorktree): Promise<string[]> {
  const out = await git(p).raw(['ls-files', '-z', '--others', '--exclude-standard', '--directory', '--no-empty-directory']);
  return out
    .split('\0')
    .filter(Boolean)
    .filter((rel) => !isPlaceholder(p.worktree, rel));
}

/** Tracked files of the worktree whose content differs from the index (what a setup rewrote), relative. */
export async function trackedChanges(p: PinnedWorktree): Promise<string[]> {
  return (
    await git(p)
      .raw(['diff', '--name-only', '--no-ext-diff', '--no-textconv'])
      .catch(() => '')
  )
    .split('\n')
    .filter(Boolean);
}

/** The worktree of `t` pinned to its admin dir in the user's repository (never found through the worktree's `.git` file). */
export function pinned(t: Pick<EnvTarget, 'checkout' | 'worktree'>): PinnedWorktree {
  return pinWorktree(t.checkout, t.worktree);
}

function isPlaceholder(worktree: string, rel: string): boolean {
  if (!WORKTREE_DENIED_PATHS.includes(rel)) return false;
  try {
    const st = lstatSync(join(worktree, rel));
    return st.isFile() && st.size === 0;
  } catch {
    return false;
  }
}

/** Copies `copy:` files and reuses dependencies; everything it brought is excluded from Ratchet's commits. */
export async function bringFromCheckout(t: EnvTarget, files: readonly string[]): Promise<{ copied: string[]; reused: ReusedDoc[]; notes: string[] }> {
  const t0 = performance.now();
  const copy = copyFromCheckout(t.checkout, t.worktree, t.workflow.copy ?? []);
  const notes = copy.refused.map((g) => `copy: ${g} was not used: a pattern names files inside the repository (no absolute path, no ..)`);
  notes.push(...copy.outside.map((o) => `copy: ${o.path} was not copied: ${o.why}`));
  if (copy.copied.length) addRunExcludes(t.worktree, copy.copied, 'copied from your checkout (copy:)');
  const deps = await reuseDependencies(t.checkout, t.worktree, files, t.signal);
  notes.push(...deps.notes);
  if (deps.reused.length)
    addRunExcludes(
      t.worktree,
      deps.reused.map((r) => r.path),
      'dependencies copied from your checkout',
    );
  if (copy.copied.length || deps.reused.length) {
    t.emit('worktree.prepared', { copied: copy.copied, reused: deps.reused, durationMs: Math.round(performance.now() - t0) });
  }
  return { copied: copy.copied, reused: deps.reused, notes };
}

const NETWORK_TROUBLE =
  /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|getaddrinfo|Could not resolve host|Temporary failure in name resolution|Network is unreachable|network request .* failed|Failed to establish a new connection|Failed to connect to \S+ port|from versions: none|403 Forbidden|proxy/i;

/** A failed setup said as the environment's problem: what failed, the end of its output, what to fix. */
export function setupFailureMessage(
  r: { command: string; exitCode: number | null; signal: string | null; spawnError: string | null },
  timedOut: boolean,
  timeoutS: number,
  durationMs: number,
  output: string,
): string {
  const how = timedOut
    ? `did not finish within setup.timeout (${timeoutS} s)`
    : r.spawnError
      ? `could not start (${r.spawnError})`
      : r.exitCode !== null
        ? `exited with code ${r.exitCode}`
        : `was killed by ${r.signal ?? 'a signal'}`;
  const net = NETWORK_TROUBLE.test(output)
    ? ' It looks like it could not reach the network: a registry or host it needs goes in `setup.network` (e.g. registry:npm, registry:pypi).'
    : '';
  const shown = tail(output);
  return (
    `Setup failed: \`${r.command}\` ${how} after ${(durationMs / 1000).toFixed(1)} s.${net}` +
    `${shown ? ` The end of its output:\n${shown}\n` : ' It printed nothing. '}` +
    "This is the worktree's environment, not the code: no agent attempt can fix it. Fix the setup in the workflow (its commands, `setup.network`, `setup.timeout`) or the project, then retry the run (or start it again when no step was committed yet)."
  );
}

export interface SetupPhaseInput {
  files: readonly string[];
  /** The inputs' hashes when setup last succeeded; null: never, or it failed. */
  stored: InputHashes | null;
  /** Whether setup ever ran for this worktree (a failed or stopped one counts). */
  ranBefore: boolean;
  /** node_modules was copied from the checkout (this execution). */
  reusedNode: boolean;
}

export interface SetupPhase {
  /** Null when setup had nothing to do (its inputs are as when it last succeeded). */
  doc: SetupDoc | null;
  /** The inputs' hashes to keep (null when it failed or was stopped: it runs again next time). */
  inputs: InputHashes | null;
  output: string;
}

async function resolveHosts(t: EnvTarget, entries: readonly string[]): Promise<string[]> {
  // Dropping `registry:` entries here left setup with no registry at all: pip retried every package against a
  // refused index for minutes (the Python real-project run's slow setup).
  return t.resolveNetwork ? t.resolveNetwork(entries, t.env) : [...entries];
}

/**
 * Runs setup when it has something to do: the worktree is new, setup did not finish last time, or one of its inputs
 * changed. A new worktree whose node_modules was copied from the checkout with every input equal to the checkout's
 * skips a setup that only installs node_modules. What setup creates that git does not track is excluded from commits.
 */
export async function setupPhase(t: EnvTarget, p: SetupPhaseInput): Promise<SetupPhase> {
  const setup = t.workflow.setup;
  if (!setup) return { doc: null, inputs: null, output: '' };
  const inputs = await hashInputs(t.worktree, p.files, setup.inputs);
  const changed = p.stored ? changedInputs(p.stored, inputs) : [];
  if (p.stored && changed.length === 0) return { doc: null, inputs, output: '' };
  const reason = p.stored ? 'inputs' : p.ranBefore ? 'unfinished' : 'worktree';
  const commands = setupCommands(setup);
  if (reason === 'worktree' && p.reusedNode && onlyInstallsNodeModules(commands)) {
    const theirs = await hashInputs(t.checkout, Object.keys(inputs), setup.inputs);
    if (changedInputs(inputs, theirs).length === 0) {
      const doc: SetupDoc = {
        outcome: 'skipped',
        durationMs: 0,
        at: t.now().toISOString(),
        message: null,
        outputTail: '',
        note: `node_modules was copied from your checkout, whose ${Object.keys(inputs)
          .filter((f) => !f.includes('/'))
          .join(', ')} are the same; setup only installs it`,
      };
      t.emit('setup.finished', { outcome: doc.outcome, durationMs: 0, note: doc.note, message: null });
      return { doc, inputs, output: '' };
    }
  }
  t.emit('setup.started', { reason, changed, commands });
  const hosts = await resolveHosts(t, setup.network);
  const wt = pinned(t);
  const before = new Set(await untrackedPaths(wt));
  const r = await runSetup({
    worktree: t.worktree,
    setup,
    jail: t.jail,
    env: t.env,
    hosts,
    signal: t.signal,
    onOutput: (c) => t.emit('setup.output', { text: c.text, skippedBytes: c.skippedBytes, seq: c.seq }),
  });
  const note =
    reason === 'worktree'
      ? 'the worktree was made'
      : reason === 'inputs'
        ? `${changed.slice(0, 5).join(', ')}${changed.length > 5 ? '…' : ''} changed`
        : 'it did not finish last time';
  const at = t.now().toISOString();
  if (r.stopped) {
    const doc: SetupDoc = { outcome: 'stopped', durationMs: r.durationMs, at, note, message: 'stopped before it finished', outputTail: tail(r.output) };
    t.emit('setup.finished', { outcome: doc.outcome, durationMs: doc.durationMs, note, message: doc.message });
    return { doc, inputs: null, output: r.output };
  }
  if (!r.ok) {
    const message = setupFailureMessage(r.failed!, r.timedOut, setup.timeout, r.durationMs, r.output);
    const doc: SetupDoc = { outcome: 'failed', durationMs: r.durationMs, at, note, message, outputTail: tail(r.output) };
    t.emit('setup.finished', { outcome: doc.outcome, durationMs: doc.durationMs, note, message });
    return { doc, inputs: null, output: r.output };
  }
  t.emit('setup.finished', { outcome: 'ok', durationMs: r.durationMs, note, message: null });
  const made = (await untrackedPaths(wt)).filter((f) => !before.has(f));
  const excluded = made.length ? addRunExcludes(t.worktree, made, 'created by setup') : [];
  if (excluded.length) t.emit('log', { level: 'info', message: `setup created ${excluded.join(', ')}: never committed` });
  const touched = await trackedChanges(wt);
  if (touched.length) {
    t.emit('log', {
      level: 'warn',
      message: `setup changed files the project tracks: ${touched.slice(0, 10).join(', ')}${touched.length > 10 ? '…' : ''} (a lockfile rewritten by an install?); they count as the step's changes`,
    });
  }
  // The hashes after setup: an install that rewrote its own lockfile is not a change to set it off again.
  const after = await hashInputs(t.worktree, p.files, setup.inputs);
  return { doc: { outcome: 'ok', durationMs: r.durationMs, at, note, message: null, outputTail: tail(r.output) }, inputs: after, output: r.output };
}

/** Every gate a step of `steps` runs, in the workflow's order. */
export function gatesOf(workflow: Workflow, steps: readonly StepConfig[]): string[] {
  const used = new Set(steps.flatMap((s) => s.gates ?? Object.keys(workflow.gates)));
  return Object.keys(workflow.gates).filter((g) => used.has(g));
}

/** Runs each gate once on the worktree as it is (the base commit) and says whether the project is ready to test. */
export async function baselineGates(
  t: EnvTarget,
  gateNames: readonly string[],
  commit: string,
  setup: SetupDoc | null,
  startedAt: number,
): Promise<BaselineDoc> {
  t.emit('baseline.started', { commit, gates: [...gateNames] });
  const defaultTimeoutS = presetGateTimeout(t.workflow) ?? 300;
  const gates: BaselineGateDoc[] = [];
  // What installs a toolchain a gate's version manager could not find (see missingToolchain), by gate.
  const toolchainFixes = new Map<string, string>();
  for (const name of gateNames) {
    if (t.signal?.aborted) break;
    const gate = t.workflow.gates[name]!;
    const r = await runGate(
      { name, run: gate.run, timeoutS: gate.timeout ?? defaultTimeoutS, report: gate.report },
      { cwd: t.worktree, env: t.env, jail: t.jail, signal: t.signal, onOutput: (c) => t.emit('baseline.output', { gate: name, ...c }) },
    );
    if (t.signal?.aborted) break;
    const noTests = r.passed && !gate.allow_no_tests && ranNoTests(r.output, r.reportXml);
    const failures =
      r.passed || noTests ? [] : parseFailures({ output: r.output, reportXml: r.reportXml, workspaceFolders: () => workspaceFolders(t.worktree) });
    const c =
      r.passed && !noTests
        ? null
        : noTests
          ? { errorClass: 'test_failure' as const, message: 'the gate ran no tests' }
          : classifyGateFailure(r, failures, t.workflow.rules);
    const doc: BaselineGateDoc = {
      gate: name,
      command: gate.run,
      passed: c === null,
      exitCode: r.exitCode,
      timedOut: r.timedOut,
      durationMs: r.durationMs,
      errorClass: c?.errorClass ?? null,
      message: c?.message ?? null,
      failingTests: failures.map((f) => f.name),
      missing: c ? missingNames(r.output) : [],
      outputTail: c ? tail(r.output) : '',
    };
    gates.push(doc);
    const fix = c ? toolchainFix(r.output) : null;
    if (fix) toolchainFixes.set(name, fix);
    t.emit('baseline.gate', {
      gate: name,
      passed: doc.passed,
      exitCode: doc.exitCode,
      durationMs: doc.durationMs,
      errorClass: doc.errorClass,
      failingTests: doc.failingTests,
    });
  }
  const blocking = gates.find((g) => g.errorClass !== null && NOT_READY_CLASSES.has(g.errorClass));
  const setupFailed = setup?.outcome === 'failed';
  const problem = setupFailed
    ? setup.message
    : blocking
      ? `The project is not ready to test: on the base commit, before any change, gate \`${blocking.gate}\` (\`${blocking.command}\`) fails with ${blocking.errorClass!.replace(/_/g, ' ')}: ${blocking.message}. ` +
        (toolchainFixes.get(blocking.gate) ??
          'No agent attempt can fix the environment: install what is missing in `setup` (with `setup.network` for a registry it must reach), or fix PATH, then start the run again.')
      : null;
  const doc: BaselineDoc = {
    commit,
    ready: problem === null && !t.signal?.aborted,
    problem,
    setup,
    gates,
    failingTests: gates.flatMap((g) =>
      g.passed ? [] : g.failingTests.length ? g.failingTests.map((n) => `${g.gate}: ${n}`) : [`${g.gate}: fails (${g.message ?? 'no test named'})`],
    ),
    durationMs: Math.round(performance.now() - startedAt),
    at: t.now().toISOString(),
  };
  t.emit('baseline.finished', { ready: doc.ready, problem: doc.problem, failingTests: doc.failingTests, durationMs: doc.durationMs });
  return doc;
}

/**
 * What the classifier weighs from the base commit's run: the tests that already failed there and what its gates said
 * was missing (read from the stored output's end for a run stored before gates kept `missing`). Null without a baseline.
 */
export function baselineFacts(b: BaselineDoc | null | undefined): BaselineFacts | null {
  if (!b) return null;
  const failed = b.gates.filter((g) => !g.passed);
  return {
    failingTests: [...new Set(failed.flatMap((g) => g.failingTests))],
    missing: [...new Set(failed.flatMap((g) => g.missing ?? missingNames(g.outputTail)))],
  };
}

/** What the agent is told about the base commit: the tests that failed there before any change. */
export function baselineNote(b: BaselineDoc | null): string {
  if (!b || b.failingTests.length === 0) return '';
  const list = b.failingTests
    .slice(0, 30)
    .map((f) => `- ${f}`)
    .join('\n');
  return (
    '\n\n## Already failing before you started\nThe gates ran once on the base commit, before any change, and these already failed there:\n' +
    `${list}${b.failingTests.length > 30 ? `\n- … and ${b.failingTests.length - 30} more` : ''}\n` +
    'They are not caused by your changes; the step is done when its gates pass.'
  );
}

/** `ratchet status`'s lines about the worktree's environment: what was brought, setup and its time, the baseline. */
export function environmentLines(env: WorktreeEnvDoc | undefined): string[] {
  if (!env) return [];
  const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const brought = [...env.copied, ...env.reused.map((r) => `${r.path} (${r.because}, ${secs(r.durationMs)})`)];
  return [
    ...(brought.length ? [`from your checkout: ${brought.join(', ')}`] : []),
    ...(env.setup
      ? [
          `setup ${env.setup.outcome}${env.setup.outcome === 'skipped' ? '' : ` in ${secs(env.setup.durationMs)}`}${env.setup.note ? ` (${env.setup.note})` : ''}`,
        ]
      : []),
    ...(env.baseline
      ? [
          `baseline ${env.baseline.ready ? 'ready' : 'not ready'} at ${env.baseline.commit.slice(0, 10)}${env.baseline.failingTests.length ? `, already failing: ${env.baseline.failingTests.slice(0, 5).join('; ')}${env.baseline.failingTests.length > 5 ? '…' : ''}` : ''}`,
        ]
      : []),
    ...env.fixes.map((f) => `so gates test the worktree: ${f}`),
  ];
}
