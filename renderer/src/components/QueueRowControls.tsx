// A queued run's controls in a row of the runs list: "Run next" (a priority above every other queued run's) and Cancel.
import { useState } from 'react';
import type { RunQueueDoc } from '../../../shared/contract';
import { errorMessage } from '../lib/errors';
import { useQueue } from '../stores/queue';
import { useRunDetail } from '../stores/run-detail';
import { priorityToRunNext } from '../lib/queue-order';
import { InlineError } from './States';

export function QueueRowControls({
  runId,
  title,
  queue,
  onChanged,
}: {
  runId: string;
  title: string;
  /** The queue as `runs.queue` answered; null while it loads (Cancel works without it). */
  queue: RunQueueDoc | null;
  onChanged: () => void;
}) {
  const [busy, setBusy] = useState<'next' | 'cancel' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const next = queue ? priorityToRunNext(queue.queued, runId) : null;

  const act = async (what: 'next' | 'cancel', fn: () => Promise<unknown>) => {
    setBusy(what);
    setError(null);
    try {
      await fn();
      onChanged();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };

  return (
    // The row opens the run on click: the controls keep their clicks to themselves.
    <div className="queue-row" role="group" aria-label={`queue controls for ${title}`} onClick={(e) => e.stopPropagation()}>
      {next !== null && (
        <button
          type="button"
          className="small"
          disabled={busy !== null}
          title="Start this run before the others that wait"
          onClick={() => void act('next', () => useQueue.getState().setPriority(runId, next))}
        >
          {busy === 'next' ? 'Moving…' : 'Run next'}
        </button>
      )}
      <button
        type="button"
        className="small danger-outline"
        disabled={busy !== null}
        title="Take the run out of the queue: it does not start"
        onClick={() => void act('cancel', () => useRunDetail.getState().stop(runId))}
      >
        {busy === 'cancel' ? 'Cancelling…' : 'Cancel'}
      </button>
      <InlineError message={error} />
    </div>
  );
}
