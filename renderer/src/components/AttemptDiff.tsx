// The attempt's diff with its base picked by the user: this attempt's own change (against the previous attempt), the step's change, or the run's cumulative change.
import { useEffect, useState } from 'react';
import { errorMessage, getApi } from '../api/client';
import { DiffView } from './DiffView';
import type { LineTarget } from './VirtualLines';

export type DiffBase = 'previous' | 'step' | 'run';

/**
 * `stored` is the diff the engine kept with the attempt (against the step's start); the other bases are asked for.
 * `onShown` reports the diff on screen, so failure locations link into what the user sees.
 */
export function AttemptDiff({ runId, step, n, stored, running, target, onShown }: {
  runId: string; step: number; n: number; stored: string | null; running: boolean; target: LineTarget | null; onShown?: (diff: string | null) => void;
}) {
  const [base, setBase] = useState<DiffBase>(n > 1 ? 'previous' : 'step');
  const [fetched, setFetched] = useState<{ base: DiffBase; diff: string; fromAttempt: number | null } | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (running) return;
    let live = true;
    setError(null);
    getApi().call('runs.attemptDiff', { runId, step, n, against: base })
      .then((r) => live && setFetched({ base, diff: r.diff, fromAttempt: r.fromAttempt }))
      .catch((e: unknown) => live && setError(errorMessage(e)));
    return () => {
      live = false;
    };
  }, [runId, step, n, base, running]);

  const diff = running ? stored : fetched?.base === base ? fetched.diff : base === 'step' ? stored : null;
  useEffect(() => onShown?.(diff), [diff, onShown]);
  const options: Array<[DiffBase, string]> = [
    ...(n > 1 ? [['previous', `This attempt (since attempt ${n - 1})`] as [DiffBase, string]] : []),
    ['step', n > 1 ? "Since the step's start" : "This attempt's change"],
    ['run', 'Whole run'],
  ];
  return (
    <div className="attempt-diff">
      {!running && (
        <div className="segmented segmented-wrap" role="radiogroup" aria-label="diff against">
          {options.map(([value, label]) => (
            <button key={value} type="button" role="radio" aria-checked={base === value} className={`small${base === value ? ' active' : ''}`} onClick={() => setBase(value)}>
              {label}
            </button>
          ))}
        </div>
      )}
      {error && <p className="tone-bad small-text" role="alert">Could not load this diff: {error}</p>}
      {diff === null && !error ? <p className="muted small-text">Loading the diff…</p> : <DiffView diff={diff} running={running} target={target} />}
    </div>
  );
}
