// The dashboard's "Needs you": the five runs that waited for the user most recently (local and team), each linking to its
// run, and the way to all of them in the runs list; its name and count are the runs list's and the window title's.
import { useEffect } from 'react';
import type { RunStatus } from '../../../../shared/domain';
import { RUN_GROUP_LABEL } from '../../../../shared/run-groups';
import { RelativeTime } from '../RelativeTime';
import { reasonLine, sentence } from '../../lib/format';
import { hrefs, navigate } from '../../lib/route';
import { useNeedsYou } from '../../lib/needs-you';
import { usePoll } from '../../lib/use-poll';
import { useRuns } from '../../stores/runs';
import { TEAM_POLL_MS, useTeam } from '../../stores/team';
import { useUi } from '../../stores/ui';
import { useTeamSet } from '../../screens/NewTaskTeam';
import { RunStatusBadge } from '../StatusBadge';

/** What each status asks of the user, when the run gives no reason of its own. */
const ATTENTION: Partial<Record<RunStatus, string>> = {
  paused: 'Paused: open it to continue, raise its budget or revise the plan.',
  waiting_approval: 'Its plan waits for your approval.',
  interrupted: 'Its process stopped: resume it from the next step.',
  failed: 'Failed: see why on its page, then retry, revise the plan or start again.',
};

/** How many the dashboard lists; the rest are one click away in the runs list. */
export const NEEDS_YOU_SHOWN = 5;

export function NeedsAttention() {
  const status = useRuns((s) => s.runs.status);
  useEffect(() => {
    if (useRuns.getState().runs.status === 'idle') void useRuns.getState().load();
  }, []);
  const teamSet = useTeamSet();
  usePoll(() => useTeam.getState().loadRuns(), TEAM_POLL_MS, teamSet);
  const { runs: list, team } = useNeedsYou();
  const shown = list.slice(0, NEEDS_YOU_SHOWN);
  const showAll = () => {
    useUi.getState().setRunsFilter({ text: '', status: 'needs_you', repo: '' });
    navigate(hrefs.home());
  };
  return (
    <section className="card needs-attention" aria-labelledby="h-attention">
      <header className="card-header">
        <h2 id="h-attention">
          {RUN_GROUP_LABEL.needs_you}
          {list.length > 0 && (
            <span className="count-pill" aria-label={`${list.length} runs`}>
              {list.length}
            </span>
          )}
        </h2>
        {list.length > shown.length && (
          <button type="button" className="small" onClick={showAll}>
            Show all {list.length} in Runs
          </button>
        )}
      </header>
      {list.length === 0 ? (
        <p className="muted small-text">{status === 'ready' ? 'No run is paused, failed, waiting for approval or interrupted.' : 'Loading runs…'}</p>
      ) : (
        <ul className="attention-list">
          {shown.map((r) => (
            <li key={r.id}>
              <span className="attention-status">
                <RunStatusBadge status={r.status} wakeAt={r.wakeAt} />
              </span>
              <a href={team.has(r.id) ? hrefs.teamRun(r.id) : hrefs.run(r.id)} className="attention-title" title={r.title}>
                {r.title}
              </a>
              <span className="muted small-text attention-why">{r.reason ? sentence(reasonLine(r.reason)) : ATTENTION[r.status]}</span>
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
