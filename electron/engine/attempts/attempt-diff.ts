// runs.attemptDiff: one attempt's change against the base the user picks (the step's previous attempt, the step's
// start, the run's start). Each attempt's tree is kept (refs/ratchet/<run>/<step>/<n>), so any two can be compared;
// an attempt with no saved tree yet is diffed live (live-attempt-diff.ts), else its stored diff is shown.
import type { MethodOutput } from '../../../shared/contract';
import { findAttempt } from './attempt-detail';
import type { Engine } from '../engine';
import { runNotFound } from '../errors';
import { boundText } from '../gates/bounded-output';
import { diffTrees } from '../git/repo-git';
import { liveAttemptDiff } from './live-attempt-diff';

export async function attemptDiff(
  engine: Engine,
  runId: string,
  step: number,
  n: number,
  against: 'previous' | 'step' | 'run',
): Promise<MethodOutput<'runs.attemptDiff'>> {
  const rows = engine.store.getAttempts(runId, step);
  const a = findAttempt(engine.store, runId, step, n, rows);
  const run = engine.store.getRun(runId);
  if (!run) throw runNotFound(runId);
  const stored = () => ({ diff: engine.store.getAttemptTexts(a.id).diff ?? '', against: 'step' as const, fromAttempt: null, live: false });
  if (!a.tree_sha) return (await liveAttemptDiff(engine, run, a, rows, step, against)) ?? stored();
  const prev = against === 'previous' ? [...rows].reverse().find((x) => x.n < n && x.tree_sha) : undefined;
  const base = against === 'run' ? run.base_commit : (engine.store.getSteps(runId).find((x) => x.step_index === step)?.pre_commit ?? null);
  const from = prev?.tree_sha ?? (base ? `${base}^{tree}` : null);
  if (!from) return stored();
  // Trees live in the repository's object store: diffed there, never through the worktree's .git file.
  const diff = boundText(await diffTrees(run.repo_path, from, a.tree_sha), 200_000);
  return { diff, against: prev ? 'previous' : against === 'run' ? 'run' : 'step', fromAttempt: prev?.n ?? null, live: false };
}
