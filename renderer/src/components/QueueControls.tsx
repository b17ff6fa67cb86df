// A queued run's place in the queue, with the runs list's controls (Run next, Cancel) and Start later.
import { useEffect, useState } from 'react';
import { errorMessage } from '../lib/errors';
import { useRunDetail } from '../stores/run-detail';
import { priorityToRunNext } from '../lib/queue-order';
import { useQueue } from '../stores/queue';
import { InlineError } from './States';

export function QueueControls({ runId }: { runId: string }) {
  const doc = useQueue((s) => s.doc);
  const load = useQueue((s) => s.load);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void load();
  }, [runId, load]);
  const entry = doc?.queued.find((q) => q.runId === runId) ?? null;
  if (!doc || !entry) return null;
  const act = async (fn: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
      await load();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  const slots = doc.active.length;
  const ahead = entry.position - 1;
  const next = priorityToRunNext(doc.queued, runId);
  const setPriority = (priority: number) => act(() => useQueue.getState().setPriority(runId, priority));
  return (
    <div className="queue-controls" role="group" aria-label="queue">
      <p>
        Queued: {ahead === 0 ? 'next to start' : `${ahead} ${ahead === 1 ? 'run' : 'runs'} ahead`}, {slots} of {doc.concurrency}{' '}
        {doc.concurrency === 1 ? 'slot' : 'slots'} in use (Settings › Runs at once). Priority {entry.priority}: higher starts first.
      </p>
      <div className="row">
        {next !== null && (
          <button type="button" disabled={busy} title="Start this run before the others that wait" onClick={() => void setPriority(next)}>
            Run next
          </button>
        )}
        <button
          type="button"
          disabled={busy || entry.priority <= -100}
          title="Let the runs queued after it start first"
          onClick={() => void setPriority(entry.priority - 1)}
        >
          Start later
        </button>
        <button
          type="button"
          className="danger-outline"
          disabled={busy}
          title="Take the run out of the queue: it does not start"
          onClick={() => void act(() => useRunDetail.getState().stop(runId))}
        >
          Cancel
        </button>
      </div>
      <InlineError message={error} />
    </div>
  );
}
