// runs.attemptDiff for an attempt with no saved tree: while it runs (or after its process died, until the run goes on)
// its change is what the worktree holds now, against the same bases a saved attempt is diffed against.
import { existsSync } from 'node:fs';
import type { Engine } from '../engine';
import { boundText } from '../gates/bounded-output';
import { worktreeDiff } from '../git/live-diff';
import { pinnedOrNull } from '../git/worktree-integrity';
import type { AttemptRow, RunRow } from '../store/store';

type Against = 'previous' | 'step' | 'run';

/** The live diff, or null when the worktree no longer holds this attempt's work (a later attempt ran, the run ended). */
export async function liveAttemptDiff(
  engine: Engine,
  run: RunRow,
  a: AttemptRow,
  stepRows: AttemptRow[],
  step: number,
  against: Against,
): Promise<{ diff: string; against: Against; fromAttempt: number | null; live: true } | null> {
  if (a.outcome !== 'running' && a.outcome !== 'interrupted') return null;
  if (['succeeded', 'cancelled'].includes(run.status) || !existsSync(run.worktree)) return null;
  const latest = engine.store.getAttempts(run.id).reduce((m, x) => (x.id > m ? x.id : m), 0);
  if (latest !== a.id) return null;
  const prev = against === 'previous' ? [...stepRows].reverse().find((x) => x.n < a.n && x.tree_sha) : undefined;
  const base = against === 'run' ? run.base_commit : (engine.store.getSteps(run.id).find((x) => x.step_index === step)?.pre_commit ?? null);
  const from = prev?.tree_sha ?? base;
  const pinned = pinnedOrNull(run.repo_path, run.worktree);
  if (!from || !pinned) return null;
  const diff = boundText(await worktreeDiff(pinned, from), 200_000);
  return { diff, against: prev ? 'previous' : against === 'run' ? 'run' : 'step', fromAttempt: prev?.n ?? null, live: true };
}
