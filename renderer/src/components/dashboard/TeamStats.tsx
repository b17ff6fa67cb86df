// The dashboard's Team section (runs on team workers): the period's team runs, success rate, retries and what they bought,
// cost, failed attempts by reason, each worker's share, and today's team spend against the team's daily budget. Shown
// only when a team is set (team.stats answers null otherwise): no team, no section, never zeros standing for nothing.
import { useEffect } from 'react';
import { errorClassLabel, money, percent } from '../../lib/format';
import { useTeam } from '../../stores/team';

export function TeamStats({ days }: { days: 7 | 30 }) {
  const slot = useTeam((s) => s.stats[days]);
  useEffect(() => {
    void useTeam.getState().loadStats(days);
  }, [days]);

  if (slot.error)
    return (
      <section className="card team-stats" aria-labelledby="h-team-stats">
        <h2 id="h-team-stats">Team</h2>
        <p className="inline-error small-text">The team database did not answer, so team runs are not counted here: {slot.error}</p>
      </section>
    );
  const t = slot.data;
  if (!t) return null;
  const finished = t.succeeded + t.failed;
  const overBudget = t.dailyBudgetUsd !== null && t.spentTodayUsd >= t.dailyBudgetUsd;
  const failedAttempts = t.reasons.reduce((n, r) => n + r.attempts, 0);
  return (
    <section className="card team-stats" aria-labelledby="h-team-stats">
      <h2 id="h-team-stats">
        Team <span className="muted small-text">runs on team workers, last {days} days</span>
      </h2>
      <div className="kpis">
        <Kpi label="team runs" value={String(t.runs)} sub={`${t.succeeded} succeeded · ${t.failed} failed · ${t.open} open`} />
        <Kpi label="success rate" value={percent(finished ? t.succeeded / finished : null, 1)} sub={`${t.succeeded} of ${finished} finished runs`} />
        <Kpi
          label="retries"
          value={String(t.retries)}
          sub={`${t.retriesThatPassed} passed · cost ${money(t.retryCostUsd)} · ${t.attempts} attempt${t.attempts === 1 ? '' : 's'} in all`}
        />
        <Kpi
          label="team spend today"
          value={money(t.spentTodayUsd)}
          sub={t.dailyBudgetUsd === null ? 'no team daily budget' : `of the ${money(t.dailyBudgetUsd)} team daily budget${overBudget ? ' (reached)' : ''}`}
          tone={overBudget ? 'tone-bad' : undefined}
        />
      </div>
      <div className="charts">
        <div>
          <h3>Failed attempts by reason</h3>
          {t.reasons.length === 0 ? (
            <p className="muted small-text">No failed attempt.</p>
          ) : (
            <table className="compact numbers" aria-label="team failed attempts by reason">
              <thead>
                <tr>
                  <th>reason</th>
                  <th>attempts</th>
                  <th>share</th>
                </tr>
              </thead>
              <tbody>
                {t.reasons.map((r) => (
                  <tr key={r.errorClass}>
                    <td>{errorClassLabel(r.errorClass)}</td>
                    <td>{r.attempts}</td>
                    <td>{percent(r.attempts / failedAttempts)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
        <div>
          <h3>By worker</h3>
          {t.byWorker.length === 0 ? (
            <p className="muted small-text">No team run in this period.</p>
          ) : (
            <table className="compact numbers team-by-worker" aria-label="team runs by worker">
              <thead>
                <tr>
                  <th>worker</th>
                  <th>runs</th>
                  <th>share</th>
                  <th>succeeded</th>
                  <th>cost</th>
                </tr>
              </thead>
              <tbody>
                {t.byWorker.map((w) => (
                  <tr key={w.worker}>
                    <td className="mono" title={w.worker}>
                      {w.worker === '(none)' ? <span className="muted">not started yet</span> : w.worker}
                    </td>
                    <td>{w.runs}</td>
                    <td>{percent(t.runs ? w.runs / t.runs : null)}</td>
                    <td>{w.succeeded}</td>
                    <td>{money(w.costUsd)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      </div>
      <p className="muted small-text">Team cost in this period: {money(t.costUsd)}.</p>
    </section>
  );
}

function Kpi({ label, value, sub, tone }: { label: string; value: string; sub: string; tone?: string }) {
  return (
    <div className="kpi card">
      <div className="kpi-label">{label}</div>
      <div className={`kpi-value${tone ? ` ${tone}` : ''}`}>{value}</div>
      <div className="kpi-sub muted">{sub}</div>
    </div>
  );
}
