// A team run on one worker: the two kinds of durable step the run's workflow is made of (team-worker.ts). `begin` makes
// the run here from its spec; `advance` runs its next step with the same engine, sandbox and policies as a local run
// (auto-progress one step at a time), then pushes the branch and the run's refs to the remote. Each starts from the
// remote: a worker that never saw the run, or saw it before another worker went on with it, brings it up to date from
// the branch and refs/ratchet/<run>/* first (the same rebuild as `ratchet recover`), so any worker can continue it.
import { join } from 'node:path';
import type { RunReasonCode, StatusDocument } from '../../../shared/domain';
import type { RunEvent } from '../run/run-machine';
import type { Engine } from '../engine';
import { RatchetError } from '../errors';
import { git } from '../git/repo-git';
import { readRunMeta, writeRunState } from '../git/run-refs';
import { adoptBranchTip, rebuildRun } from '../lifecycle/run-git-recover';
import { goesOn, type StepAnswer } from './team-run-life';
import { checkSpec, type TeamRunSpec } from './team-spec';
import type { WorkerAllowances } from './team-allow';
import { ensureClone, publicRemote, fetchRun, hasCommit, pushRun, refSha, serialized } from './team-git';

export type { StepAnswer } from './team-run-life';

export interface TeamRunnerOptions {
  engine: Engine;
  /** The worker's name, as the team's list shows it. */
  worker: string;
  /** What this worker's operator lets a submitted workflow have (team-allow.ts). */
  allow: WorkerAllowances;
  /** The signal a Stop of this run aborts (the worker watches the engine for cancelled runs). */
  signalFor(runId: string): AbortSignal;
  done(runId: string): void;
}

export function createTeamRunner(o: TeamRunnerOptions) {
  const { engine } = o;
  /**
   * The runs whose remote branch this process knows as it is (it began the run, or pushed its last step), and that commit:
   * their next step starts without a fetch. Safe by the lease: had another push landed meanwhile, this one is refused and
   * the step runs again, after a fetch (the entry is dropped).
   */
  const current = new Map<string, string | null>();

  /** The run here, up to date with the remote; made from the spec when no worker has begun it. */
  async function localRun(raw: unknown): Promise<{ spec: TeamRunSpec; clone: string; expected: string | null }> {
    const remote = (raw as { remote?: unknown })?.remote;
    if (typeof remote !== 'string') throw new RatchetError('bad_arguments', 'This team run names no remote.');
    // Its own credentials, whatever URL the run names (a spec written by an older submitter, or by hand, may carry some).
    const clone = await ensureClone(engine.home, publicRemote(remote));
    const runId = String((raw as { runId?: unknown }).runId);
    if (current.has(runId) && engine.store.getRun(runId)) {
      const { spec } = await checkSpec(raw, clone, o.allow);
      return { spec, clone, expected: current.get(runId) ?? null };
    }
    await fetchRun(clone, runId);
    const { spec, workflow } = await checkSpec(raw, clone, o.allow);
    if (!(await hasCommit(clone, spec.baseCommit)))
      throw new RatchetError(
        'team_git',
        `The commit run ${runId} starts from (${spec.baseCommit.slice(0, 10)}) is not on the remote; push it and retry the run.`,
      );
    return serialized(`run:${runId}`, async () => {
      const run = engine.store.getRun(runId);
      if (run) {
        // Known here: another worker may have gone on with it since (after a Stop and Resume, a takeover).
        const remoteHead = await refSha(clone, `refs/remotes/origin/${run.branch}`);
        const localHead = await refSha(clone, `refs/heads/${run.branch}`);
        if (remoteHead && remoteHead !== localHead) {
          // The remote is the truth of what is committed: this worker's copy of a step another push landed first is dropped.
          await adoptBranchTip(engine.store, run, remoteHead);
        }
        return { spec, clone, expected: remoteHead };
      }
      // This run's only (a worker's clone holds every team run's refs it ever fetched).
      const meta = await readRunMeta(clone, runId);
      if (meta) {
        const remoteHead = await refSha(clone, `refs/remotes/origin/${meta.branch}`);
        if (!remoteHead) throw new RatchetError('team_git', `Run ${runId}'s branch ${meta.branch} is not on the remote any more; nothing can continue it.`);
        const worktree = engine.worktreeFor(spec.repoName, runId);
        // Apart from the clone's fetches for its other runs (a fetch meeting a half-added worktree fails: repo-lock.ts).
        await serialized(clone, async () => {
          await git(clone).raw(['update-ref', `refs/heads/${meta.branch}`, remoteHead]);
          await git(clone).raw(['worktree', 'prune']);
          // The run's branch holds the agent's .gitattributes: its checkout runs no filter.
          await git(clone, [], {}, { filtersOff: true }).raw(['worktree', 'add', '--quiet', worktree, meta.branch]);
        });
        const took = await rebuildRun(
          engine.store,
          { root: clone, name: spec.repoName },
          { ...meta, worktree },
          {
            worktree,
            interrupted: {
              reason: `Taken over by ${o.worker}: the worker running it stopped; it continues from its last checkpoint.`,
              code: 'rebuilt_from_git',
            },
          },
        );
        if (!took) throw new RatchetError('team_git', `Run ${runId} cannot be rebuilt from the remote's refs (its workflow or branch is not usable).`);
        if (spec.trusted) engine.trustStore.trust(clone, join(clone, spec.trusted.file), spec.trusted.sha256, new Date().toISOString());
        return { spec, clone, expected: remoteHead };
      }
      if (spec.trusted) engine.trustStore.trust(clone, join(clone, spec.trusted.file), spec.trusted.sha256, new Date().toISOString());
      await engine.createRun(
        {
          repoRoot: clone,
          repoName: spec.repoName,
          headCommit: spec.baseCommit,
          baseBranch: spec.baseBranch,
          workflow,
          workflowFile: spec.trusted ? join(clone, spec.trusted.file) : '(a team run)',
          title: spec.title,
          description: spec.description,
          ...(spec.trusted ? { trustedWorkflow: { file: join(clone, spec.trusted.file), sha256: spec.trusted.sha256 } } : {}),
        },
        { runId },
      );
      return { spec, clone, expected: null };
    });
  }

  /** The durable step's answer: the outcome of the step it ran (the events its run machine was told, `outcome`), and the run here after it. */
  function answer(runId: string, outcome: RunEvent[], doc?: StatusDocument): StepAnswer {
    const run = engine.store.getRun(runId);
    if (!run) throw new RatchetError('run_not_found', `Run ${runId} is not on this worker.`);
    const d = doc ?? engine.status(runId);
    return {
      events: outcome,
      pending: engine.store
        .getSteps(runId)
        .filter((s) => s.status !== 'succeeded' && s.status !== 'skipped')
        .map((s) => ({ index: s.step_index, title: s.title, phase: s.phase })),
      status: run.status,
      code: (run.reason_code as RunReasonCode | null) ?? null,
      reason: run.reason,
      stepsDone: d.steps.filter((s) => s.status === 'succeeded' || s.status === 'skipped').length,
      stepsTotal: d.steps.length,
    };
  }

  /** Keeps on the remote how the run stands (its refs, and the branch if it moved), so another worker can go on with it. */
  /** `lease.sha`: the branch's commit on the remote as this worker last saw or pushed it; each push moves it on. */
  function push(runId: string, clone: string, lease: { sha: string | null }, opts: { ifDiesNow?: boolean } = {}): Promise<void> {
    // One after the other: the state an attempt's start kept never lands after the step's end.
    return serialized(`push:${runId}`, async () => {
      await engine.settled();
      const kept = engine.runState(runId, opts);
      if (kept) await writeRunState(kept.repo, runId, kept.state);
      const run = engine.store.getRun(runId);
      if (run) lease.sha = await pushRun(clone, runId, run.branch, lease.sha);
    });
  }

  /**
   * The first durable step: the run exists here, checked. Nothing is pushed yet (the first step pushes the branch): a
   * worker that dies before it leaves nothing on the remote, and the next one begins the run afresh.
   */
  async function begin(raw: unknown): Promise<StepAnswer> {
    const { spec, expected } = await localRun(raw);
    current.set(spec.runId, expected);
    return answer(spec.runId, []);
  }

  /** One durable step per Ratchet step: the next incomplete step of the run, then its branch and refs pushed. */
  async function advance(raw: unknown): Promise<StepAnswer> {
    const { spec, clone, expected } = await localRun(raw);
    const runId = spec.runId;
    const lease = { sha: expected };
    const signal = o.signalFor(runId);
    // An attempt that starts is kept on the remote as interrupted until its step ends: a worker that dies mid-step
    // leaves it as a local run's process would (the attempt interrupted), for whoever takes the run over.
    const off = engine.onEvent((e) => {
      if (e.runId === runId && e.type === 'attempt.started') void push(runId, clone, lease, { ifDiesNow: true }).catch(() => undefined);
    });
    let doc: StatusDocument;
    // What the run machine is told of the step (not how each durable step begins: the workflow's machine knows that).
    const outcome: RunEvent[] = [];
    const observe = (e: RunEvent) => {
      if (e.type === 'stepFinished' || e.type === 'rescued' || e.type === 'crashed') outcome.push(e);
      else if ((e.type === 'prepared' && e.ready !== 'ready') || (e.type === 'reconciled' && e.allDone)) outcome.push(e);
    };
    try {
      const status = engine.store.getRun(runId)?.status;
      doc =
        status === 'planning'
          ? await engine.execute(runId, signal, { auto: 'step', observe })
          : (await engine.resume(runId, { signal, auto: 'step', trust: true, observe })).doc;
    } finally {
      off();
      o.done(runId);
    }
    // A lease refused (team_lost_run: a push this worker did not make landed first — a dead worker's git finishing its
    // push) is thrown to the workflow, which runs this durable step again from the remote.
    current.delete(runId);
    await push(runId, clone, lease);
    const a = answer(runId, outcome, doc);
    // Known as it is only while this execution goes on with it: a later start here (a resume, a rewind) fetches first.
    if (goesOn(runId, a)) current.set(runId, lease.sha);
    return a;
  }

  return { begin, advance, answer };
}
