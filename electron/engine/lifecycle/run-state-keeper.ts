// A run's state kept in git (refs/ratchet/<run>/state), written one after the other per run, so `ratchet recover`
// brings the run back as it was if the database is lost.
import { writeRunState, type RunState } from '../git/run-refs';
import type { Store } from '../store/store';

export type RunStateKeeper = ReturnType<typeof createRunStateKeeper>;

export function createRunStateKeeper(store: Store) {
  /** The writes of each run's state in git, one after the other: a new execution's "running" never lands before the last end. */
  const stateWrites = new Map<string, Promise<void>>();

  /** Writes the run's state (as `runStateOf` read it, or as it is now) to refs/ratchet/<run>/state in its repository (see run-refs.ts). */
  function keepRunState(runId: string, state: { repo: string; state: RunState } | null = runStateOf(runId)): Promise<void> {
    if (!state) return Promise.resolve();
    const write = (stateWrites.get(runId) ?? Promise.resolve()).catch(() => undefined).then(() => writeRunState(state.repo, runId, state.state));
    stateWrites.set(runId, write);
    return write.finally(() => {
      if (stateWrites.get(runId) === write) stateWrites.delete(runId);
    });
  }

  /** Resolves once every run state still being written to git is written (a CLI process waits for it before it exits). */
  async function settled(): Promise<void> {
    while (stateWrites.size) await Promise.allSettled([...stateWrites.values()]);
  }

  /**
   * The run's status, steps and attempts as they stand in the store now. `ifDiesNow`: as the run would be found if its
   * process died this moment (a team worker keeps this on the remote when an attempt starts): interrupted, with the
   * attempt under way kept as interrupted.
   */
  function runStateOf(runId: string, opts: { ifDiesNow?: boolean } = {}): { repo: string; state: RunState } | null {
    const run = store.getRun(runId);
    if (!run) return null;
    const dies = Boolean(opts.ifDiesNow) && !['succeeded', 'failed', 'cancelled', 'paused'].includes(run.status);
    return {
      repo: run.repo_path,
      state: {
        status: dies ? 'interrupted' : run.status,
        reason: dies ? null : run.reason,
        reasonCode: dies ? null : run.reason_code,
        finishedAt: run.finished_at,
        steps: store.getSteps(runId).map((s) => ({ index: s.step_index, status: s.status, commit: s.commit_sha })),
        attempts: store
          .getAttempts(runId)
          .filter((a) => a.outcome !== 'running' || dies)
          .map((a) => ({
            step: a.step_index,
            n: a.n,
            round: a.round,
            outcome: a.outcome === 'running' ? 'interrupted' : a.outcome,
            errorClass: a.error_class,
            errorMessage: a.outcome === 'running' ? 'the worker running it stopped during this attempt' : a.error_message,
            summary: a.summary,
            agentKind: a.agent_kind,
            model: a.model,
            treeRef: a.tree_ref,
            treeSha: a.tree_sha,
            failures: JSON.parse(a.failures_json) as unknown[],
            decision: a.decision_json ? (JSON.parse(a.decision_json) as unknown) : null,
            inputTokens: a.input_tokens,
            outputTokens: a.output_tokens,
            cacheReadTokens: a.cache_read_tokens,
            cacheWriteTokens: a.cache_write_tokens,
            costUsd: a.cost_known ? a.cost_usd : null,
            startedAt: a.started_at,
            finishedAt: a.finished_at,
          })),
      },
    };
  }

  return { keepRunState, settled, runStateOf };
}
