// The dashboard's "Needs attention": runs paused, waiting for approval, interrupted, failed or waiting to retry, each linking to its run.
import { useEffect } from 'react';
import type { RunSummary } from '../../../../shared/contract';
import type { RunStatus } from '../../../../shared/domain';
import { runsNeedingYou } from '../../../../shared/run-groups';
import { RelativeTime } from '../RelativeTime';
import { reasonLine } from '../../lib/format';
import { hrefs } from '../../lib/route';
import { useRuns } from '../../stores/runs';
import { RunStatusBadge } from '../StatusBadge';

/** What each status asks of the user, in the order the list shows them. */
const ATTENTION: Partial<Record<RunStatus, string>> = {
  paused: 'Paused: open it to continue, raise its budget or revise the plan.',
  waiting_approval: 'Its plan waits for your approval.',
  interrupted: 'Its process stopped: resume it from the next step.',
  failed: 'Failed: see why on its page, then retry, revise the plan or start again.',
  waiting: 'Waits before its next retry; it goes on by itself.',
};
const ORDER = Object.keys(ATTENTION) as RunStatus[];

/** Pure: the runs that need attention (those that need you, and those waiting to retry), most urgent status first, then most recently updated. */
export function runsNeedingAttention(runs: readonly RunSummary[]): RunSummary[] {
  const needYou = new Set(runsNeedingYou(runs).map((r) => r.id));
  return runs
    .filter((r) => needYou.has(r.id) || r.status === 'waiting')
    .sort((a, b) => ORDER.indexOf(a.status) - ORDER.indexOf(b.status) || b.updatedAt.localeCompare(a.updatedAt));
}

export function NeedsAttention() {
  const runs = useRuns((s) => s.runs);
  useEffect(() => {
    if (useRuns.getState().runs.status === 'idle') void useRuns.getState().load();
  }, []);
  const list = runsNeedingAttention(runs.data);
  return (
    <section className="card needs-attention" aria-labelledby="h-attention">
      <h2 id="h-attention">Needs attention{list.length > 0 && <span className="count-pill">{list.length}</span>}</h2>
      {list.length === 0 ? (
        <p className="muted small-text">{runs.status === 'ready' ? 'No run is paused, failed, waiting or interrupted.' : 'Loading runs…'}</p>
      ) : (
        <ul className="attention-list">
          {list.map((r) => (
            <li key={r.id}>
              <a href={hrefs.run(r.id)} className="attention-title">
                {r.title}
              </a>
              <RunStatusBadge status={r.status} wakeAt={r.wakeAt} />
              <span className="muted small-text attention-why">{r.reason ? reasonLine(r.reason) : ATTENTION[r.status]}</span>
              <span className="muted small-text attention-when">
                <RelativeTime at={r.updatedAt} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
