// The contract's after-success methods (merge preview, merge, push) and the host's folder browser, over the engine's store and git.
import type { Handlers } from '../../../shared/contract';
import type { Engine } from '../engine';
import { RatchetError, runNotFound } from '../errors';
import { landRun, previewMerge, pullRequestUrl, pushRemote, pushRun, type MergeTarget } from '../git/run-merge';
import { browseFolders } from './repo-browse';
import type { RunRow } from '../store/store-rows';

type LandingHandlers = Pick<Handlers, 'repos.browse' | 'runs.mergePreview' | 'runs.merge' | 'runs.push' | 'runs.openWorktree'>;

export function landingHandlers(engine: Engine, host: 'electron' | 'headless'): LandingHandlers {
  function succeededRun(runId: string): RunRow & { base_branch: string } {
    const run = engine.store.getRun(runId);
    if (!run) throw runNotFound(runId);
    if (run.status !== 'succeeded')
      throw new RatchetError('bad_arguments', `Run ${runId} has not succeeded (it is ${run.status}); only a succeeded run is merged or pushed from here.`);
    if (!run.base_branch)
      throw new RatchetError(
        'no_branch',
        `Run ${runId} started from a detached HEAD, so it has no base branch to merge into; merge its branch ${run.branch} by hand.`,
      );
    return run as RunRow & { base_branch: string };
  }
  const target = (run: RunRow & { base_branch: string }): MergeTarget => ({ repo: run.repo_path, branch: run.branch, base: run.base_branch });

  return {
    'repos.browse': async (input) => browseFolders(input),
    'runs.mergePreview': async ({ runId }) => {
      const run = succeededRun(runId);
      const preview = await previewMerge(target(run));
      const remote = await pushRemote(run.repo_path, run.base_branch);
      return { ...preview, remote: remote ? { ...remote, pullRequestUrl: pullRequestUrl(remote.url, run.branch, run.base_branch) } : null };
    },
    'runs.merge': async ({ runId, mode, expectBaseTip }) => {
      const run = succeededRun(runId);
      const r = await landRun(target(run), mode, expectBaseTip);
      return { commit: r.commit, mode: r.mode, base: run.base_branch };
    },
    'runs.push': async ({ runId }) => {
      const run = succeededRun(runId);
      return pushRun(run.repo_path, run.branch, run.base_branch);
    },
    'runs.openWorktree': async ({ runId }) => {
      const run = engine.store.getRun(runId);
      if (!run) throw runNotFound(runId);
      // The desktop app replaces this handler (shell-handlers.ts); a browser page cannot open programs on this machine.
      throw new RatchetError(
        'not_available',
        `${host === 'headless' ? 'A browser cannot open a terminal or an editor' : 'Opening programs is not available here'}: run \`cd ${run.worktree}\` in your terminal.`,
      );
    },
  };
}
