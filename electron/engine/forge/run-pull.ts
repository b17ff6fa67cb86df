// A run's pull request as the engine offers it to the hosts: open (or update) it, then watch its checks and reviews,
// keeping the run's `pr` current in the store. The hosts word the progress; the store stays behind the engine.
import type { Store } from '../store/store';
import { RunPrStore } from '../store/run-pr';
import type { Forge } from './forge';
import { forgeForRun, openPull, prChecks, prDocOf, type OpenPullResult } from './open-pull';
import { watchPull, type WatchEnd, type WatchLook } from './pr-watch';
import type { PullLoop, PullLoopEnd, PullLoopOptions } from './pr-loop';

export interface OpenRunPullOptions {
  env: NodeJS.ProcessEnv;
  /** --github-repo */
  repoFlag?: string | undefined;
  base?: string | undefined;
  draft: boolean;
  /** Told when GitHub's rate limits make the client wait. */
  onWait?: (seconds: number, why: string) => void;
}

export type OpenedPull = OpenPullResult & { forge: Forge };

export interface WatchRunPullOptions {
  /** The shortest wait between looks (tests); the longest is 8× it. Default: pr-watch's own. */
  minWaitMs?: number | undefined;
  signal?: AbortSignal;
  /** Told each look that differs from the one before (after the run's pr is saved). */
  onChange?: (look: WatchLook) => void;
}

export function runPulls(store: Store, loop: PullLoop, now: () => string = () => new Date().toISOString()) {
  const prs = new RunPrStore(store);
  const save = (runId: string, forge: Forge, look: WatchLook) => {
    const stored = prs.get(runId);
    prs.put(runId, `${forge.repo.owner}/${forge.repo.name}`, prDocOf(look.pr, prChecks(look.checks, look.required), stored?.rounds ?? []), now());
  };
  return {
    /** Pushes a succeeded run's branch and opens its pull request, or updates the one already open for that branch. */
    async open(runId: string, o: OpenRunPullOptions): Promise<OpenedPull> {
      const forge = await forgeForRun(store, runId, { env: o.env, repoFlag: o.repoFlag, ...(o.onWait ? { onWait: o.onWait } : {}) });
      const r = await openPull(store, forge, runId, { base: o.base, draft: o.draft, now });
      return { ...r, forge };
    },
    /**
     * Watches the opened pull request until it is decided, its failing checks and reviews sent back to the run as
     * rounds (`fix`), merged when safe (`merge`); the run's pr (its rounds too) is kept current on the way.
     */
    loop(runId: string, opened: OpenedPull, o: PullLoopOptions): Promise<PullLoopEnd> {
      return loop(runId, opened.forge, opened.pr.number, o);
    },
    /** Follows the opened pull request's checks and reviews until they decide; the run's pr is kept current on the way. */
    async watch(runId: string, opened: OpenedPull, o: WatchRunPullOptions = {}): Promise<WatchEnd> {
      const end = await watchPull(opened.forge, opened.pr.number, {
        ...(o.minWaitMs ? { minWaitMs: o.minWaitMs, maxWaitMs: o.minWaitMs * 8 } : {}),
        sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
        now: () => Date.now(),
        ...(o.signal ? { signal: o.signal } : {}),
        onChange: (look) => {
          save(runId, opened.forge, look);
          o.onChange?.(look);
        },
      });
      save(runId, opened.forge, end.look);
      return end;
    },
  };
}
