// The attempt's diff with its base picked by the user: this attempt's own change (against the previous attempt), the step's change, or the run's cumulative change.
// Drawn by the review's diff view, read-only (files with counts, syntax colours, unified or split, virtualized), which
// loads with its highlighter on first use, outside the app's entry chunk.
import { useEffect, useMemo, useRef, useState } from 'react';
import { diffStats } from '../../../shared/unified-diff';
import { errorMessage } from '../lib/errors';
import { diffFiles } from '../lib/review-files';
import { useRunDetail } from '../stores/run-detail';
import { lazyScreen } from './LazyScreen';
import type { DiffTarget, ReviewDiffProps } from './ReviewDiff';
import { DiffLayoutToggle } from './DiffLayoutToggle';

const ReviewDiff = lazyScreen<ReviewDiffProps<never>>(() => import('./ReviewDiff').then((m) => m.ReviewDiff), 'Loading the diff…');

export type DiffBase = 'previous' | 'step' | 'run';

/** A running attempt's diff is read again at most this often as the agent works. */
const LIVE_REFRESH_MS = 2000;

/**
 * `stored` is the diff the engine kept with the attempt (against the step's start); the other bases are asked for.
 * While the attempt runs, the engine reads its change from the worktree; `progress` (the transcript's length) changing
 * reads it again. `onShown` reports the diff on screen, so failure locations link into what the user sees.
 */
export function AttemptDiff({
  runId,
  step,
  n,
  stored,
  running,
  target,
  onShown,
  progress = 0,
}: {
  runId: string;
  step: number;
  n: number;
  stored: string | null;
  running: boolean;
  /** A failure's place to show: a file of the diff on screen and its line. */
  target: DiffTarget | null;
  onShown?: (diff: string | null) => void;
  progress?: number;
}) {
  const [base, setBase] = useState<DiffBase>(n > 1 ? 'previous' : 'step');
  const [split, setSplit] = useState(false);
  const [fetched, setFetched] = useState<{ base: DiffBase; diff: string; fromAttempt: number | null; live: boolean } | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Reads of a running attempt's diff, throttled: the last one's time, and a read waiting its turn.
  const lastRead = useRef(0);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    if (!running) return;
    const wait = lastRead.current + LIVE_REFRESH_MS - Date.now();
    if (wait <= 0) {
      setTick((t) => t + 1);
      return;
    }
    const timer = setTimeout(() => setTick((t) => t + 1), wait);
    return () => clearTimeout(timer);
  }, [progress, running]);

  useEffect(() => {
    let live = true;
    lastRead.current = Date.now();
    setError(null);
    useRunDetail
      .getState()
      .attemptDiff(runId, step, n, base)
      .then((r) => live && setFetched({ base, diff: r.diff, fromAttempt: r.fromAttempt, live: r.live }))
      .catch((e: unknown) => live && setError(errorMessage(e)));
    return () => {
      live = false;
    };
  }, [runId, step, n, base, running, tick]);

  const diff = fetched?.base === base ? fetched.diff : base === 'step' && !running ? stored : null;
  const liveRead = fetched?.base === base && fetched.live;
  useEffect(() => onShown?.(diff), [diff, onShown]);
  // Parsed once per text: a live diff read again with the same text keeps its files (and the view its scroll).
  const files = useMemo(() => (diff ? diffFiles(diff) : []), [diff]);
  const stats = useMemo(() => diffStats(files.map((f) => f.file)), [files]);
  const options: Array<[DiffBase, string]> = [
    ...(n > 1 ? [['previous', `This attempt (since attempt ${n - 1})`] as [DiffBase, string]] : []),
    ['step', n > 1 ? "Since the step's start" : "This attempt's change"],
    ['run', 'Whole run'],
  ];
  return (
    <div className="attempt-diff">
      <div className="segmented segmented-wrap" role="radiogroup" aria-label="diff against">
        {options.map(([value, label]) => (
          <button
            key={value}
            type="button"
            role="radio"
            aria-checked={base === value}
            className={`small${base === value ? ' active' : ''}`}
            onClick={() => setBase(value)}
          >
            {label}
          </button>
        ))}
      </div>
      {error && (
        <p className="tone-bad small-text" role="alert">
          Could not load this diff: {error}
        </p>
      )}
      {liveRead && diff && (
        <p className="muted small-text" role="note">
          {running
            ? 'The change so far, read from the worktree as the agent works; it is saved when the attempt ends.'
            : 'What this attempt left in the worktree when its process stopped (not committed; resuming keeps it).'}
        </p>
      )}
      {diff === null && !error ? (
        <p className="muted small-text">Loading the diff…</p>
      ) : liveRead && !diff ? (
        <p className="muted small-text">
          {running ? 'No changes yet: the agent has not changed a file.' : 'No changes: the attempt stopped before it changed a file.'}
        </p>
      ) : files.length === 0 ? (
        <p className="muted small-text">{running ? 'The diff is taken when the agent is done.' : 'No changes in this attempt.'}</p>
      ) : (
        <div className="diff">
          <div className="attempt-diff-head">
            <p className="small-text muted">
              {stats.files} file{stats.files === 1 ? '' : 's'} changed, <span className="tone-good">+{stats.added}</span>{' '}
              <span className="tone-bad">−{stats.removed}</span>
            </p>
            <DiffLayoutToggle split={split} onChange={setSplit} />
          </div>
          <ReviewDiff files={files} split={split} target={target} label="attempt diff" maxHeight={420} />
        </div>
      )}
    </div>
  );
}
