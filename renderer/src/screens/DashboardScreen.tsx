// Dashboard, live: runs that need attention, success rate, attempts per success, retry breakdown and reasons, cost per day
// against the daily budget, the pull requests' CI and review rounds, the improvement suggestions, the what-if panel and
// the weekly report.
import { estimateRecordLine } from '../../../shared/estimate-text';
import { useEffect, useState } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ImprovementDoc, StatsSummary } from '../../../shared/contract';
import { costAxis, dayLabel, dayTicks, localDay, moneyTick, shortDay } from '../lib/chart-format';
import { errorClassLabel, percent, money } from '../lib/format';
import { suggestionsInWords } from '../lib/app-words';
import { useStats, type Days } from '../stores/stats';
import { Empty, ErrorState, Loading } from '../components/States';
import { NeedsAttention } from '../components/dashboard/NeedsAttention';
import { ReportDialog } from './ReportDialog';
import { WhatIfPanel } from '../components/WhatIfPanel';
import { TeamStats } from '../components/dashboard/TeamStats';
import { PullRequestStats } from '../components/dashboard/PullRequestStats';
import { useTeam } from '../stores/team';

export function DashboardScreen() {
  const days = useStats((s) => s.days);
  const setDays = useStats((s) => s.setDays);
  const slot = useStats((s) => s.summary[days]);
  const improvements = useStats((s) => s.improvements[days]);
  const load = useStats((s) => s.load);
  const [report, setReport] = useState(false);
  // With team runs in the period, "no runs" is about this machine's own (the Team section below has the others).
  const teamRuns = useTeam((s) => s.stats[days].data?.runs ?? 0);
  useEffect(() => {
    // The period on screen is fetched when first shown and again when an engine event marked it stale.
    const s = useStats.getState();
    if (s.summary[days].status === 'idle' || s.stale[days]) void load(days);
  }, [days, load]);

  return (
    <div className="screen dashboard">
      <header className="screen-header">
        <h1>Dashboard</h1>
        <div className="segmented" role="group" aria-label="period">
          {([7, 30] as Days[]).map((d) => (
            <button key={d} type="button" aria-pressed={days === d} className={days === d ? 'active' : ''} onClick={() => setDays(d)}>
              {d} days
            </button>
          ))}
        </div>
        <button type="button" onClick={() => setReport(true)}>
          {/* Named for its period, whichever it is (issue 34 item 10): not a bare "Report…" at 30 days. */}
          {days === 7 ? 'Weekly report…' : `${days}-day report…`}
        </button>
        <span className="muted small-text live-note" role="status">
          {slot.status === 'loading' && slot.data ? 'Updating…' : 'Updates live as runs progress'}
        </span>
      </header>
      <NeedsAttention />
      {slot.status === 'loading' && !slot.data && <Loading label="Loading statistics…" />}
      {slot.status === 'error' && <ErrorState title="Could not load the statistics" message={slot.error ?? ''} onRetry={() => void load(days)} />}
      {slot.data &&
        (slot.data.runs === 0 ? (
          <Empty title={teamRuns > 0 ? `No runs on this machine in the last ${days} days` : `No runs in the last ${days} days`}>
            Statistics appear once runs have finished.
          </Empty>
        ) : (
          <Stats s={slot.data} improvements={improvements.data} />
        ))}
      <TeamStats days={days} />
      {slot.data && slot.data.runs > 0 && <WhatIfPanel days={days} />}
      {report && <ReportDialog days={days} onClose={() => setReport(false)} />}
    </div>
  );
}

const AXIS = { fontSize: 11, fill: 'var(--muted)' };
/** The retry breakdown chart's y-axis width and right margin, which its table's first and last columns repeat so cells sit under bars. */
const BREAKDOWN_AXIS = 52;
const BREAKDOWN_RIGHT = 8;

function Stats({ s, improvements }: { s: StatsSummary; improvements: ImprovementDoc[] | null }) {
  // `tick` is the axis label (short, so five fit a half-width card at 1024 px); `name` is the table's header.
  const breakdown = [
    { name: '0 retries', tick: '0', steps: s.retryBreakdown.r0 },
    { name: '1 retry', tick: '1', steps: s.retryBreakdown.r1 },
    { name: '2 retries', tick: '2', steps: s.retryBreakdown.r2 },
    { name: '3+ retries', tick: '3+', steps: s.retryBreakdown.r3plus },
    { name: 'failed after max', tick: 'gave up', steps: s.retryBreakdown.failedAfterMax },
  ];
  const reasons = s.retryReasons.map((r) => ({ name: errorClassLabel(r.errorClass), count: r.count }));
  const perDay = s.costPerDay.map((d) => ({
    day: d.day,
    first: Math.round((d.costUsd - d.retryCostUsd) * 100) / 100,
    retries: d.retryCostUsd,
    total: d.costUsd,
  }));
  const peak = s.costPerDay.reduce<StatsSummary['costPerDay'][number] | null>((m, d) => (m === null || d.costUsd > m.costUsd ? d : m), null);
  const overBudget = s.dailyBudgetUsd === null ? 0 : s.costPerDay.filter((d) => d.costUsd > (s.dailyBudgetUsd ?? Infinity)).length;
  const finished = s.succeeded + s.failed;
  const axis = costAxis(peak?.costUsd ?? 0, s.dailyBudgetUsd);
  const today = localDay(new Date());

  return (
    <>
      <div className="kpis">
        <Kpi label="success rate" value={percent(s.successRate, 1)} sub={`${s.succeeded} of ${finished} finished runs · ${s.runs} started`} />
        <Kpi label="attempts per success" value={s.avgAttemptsPerSuccess === null ? '—' : s.avgAttemptsPerSuccess.toFixed(2)} sub="per step that succeeded" />
        <Kpi label="saved by retries" value={String(s.savedByRetries)} sub="steps that passed after a retry" />
        <Kpi
          label="total cost"
          value={money(s.totalCostUsd)}
          sub={`${money(s.retryCostUsd)} on retries (${percent(s.totalCostUsd ? s.retryCostUsd / s.totalCostUsd : null)})`}
        />
      </div>
      {s.estimates && s.estimates.runs > 0 && (
        <p className="muted small-text" aria-label="how the estimates held">
          {estimateRecordLine(s.estimates)}
        </p>
      )}

      <div className="charts">
        <section className="card chart-card" aria-labelledby="h-breakdown">
          <h2 id="h-breakdown">Retry breakdown</h2>
          <div className="chart" aria-hidden="true">
            <ResponsiveContainer width="100%" height={180}>
              <BarChart data={breakdown} margin={{ top: 8, right: BREAKDOWN_RIGHT, bottom: 0, left: 0 }}>
                <CartesianGrid stroke="var(--grid)" vertical={false} />
                <XAxis dataKey="tick" tick={AXIS} interval={0} />
                <YAxis tick={AXIS} allowDecimals={false} width={BREAKDOWN_AXIS} />
                <Tooltip contentStyle={{ background: 'var(--panel)', border: '1px solid var(--border)' }} cursor={{ fill: 'var(--hover)' }} />
                <Bar dataKey="steps" fill="var(--accent)" isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
          </div>
          {/* Its columns sit under the bars: the first is as wide as the chart's axis, the last as its right margin. */}
          <table className="compact breakdown-table">
            <caption className="sr-only">Steps by number of retries</caption>
            <colgroup>
              <col style={{ width: BREAKDOWN_AXIS }} />
              {breakdown.map((b) => (
                <col key={b.name} />
              ))}
              <col style={{ width: BREAKDOWN_RIGHT }} />
            </colgroup>
            <thead>
              <tr>
                <th scope="row">retries</th>
                {breakdown.map((b) => (
                  <th key={b.name} scope="col" title={b.name}>
                    {b.tick}
                  </th>
                ))}
                <td aria-hidden="true" />
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row">steps</th>
                {breakdown.map((b) => (
                  <td key={b.name} className="num">
                    {b.steps}
                  </td>
                ))}
                <td aria-hidden="true" />
              </tr>
            </tbody>
          </table>
          {s.reviewRounds && s.reviewRounds.rounds > 0 ? (
            <p className="small-text muted" aria-label="review rounds">
              Review rounds: {s.reviewRounds.rounds} ({s.reviewRounds.failed} failed) for {s.reviewRounds.comments} comment
              {s.reviewRounds.comments === 1 ? '' : 's'}, {money(s.reviewRounds.costUsd)};{' '}
              <span title={s.reviewRounds.declined.map((d) => `${d.file}:${d.line} ${d.body}${d.answer ? ` — ${d.answer}` : ''}`).join('\n')}>
                {s.reviewRounds.declinedCount} declined
              </span>
            </p>
          ) : null}
        </section>

        <section className="card chart-card" aria-labelledby="h-reasons">
          <h2 id="h-reasons">Retry reasons</h2>
          {reasons.length === 0 ? (
            <p className="muted small-text">No retries in this period.</p>
          ) : (
            <>
              <div className="chart" aria-hidden="true">
                <ResponsiveContainer width="100%" height={Math.max(90, reasons.length * 28)}>
                  <BarChart data={reasons} layout="vertical" margin={{ top: 0, right: 16, bottom: 0, left: 40 }}>
                    <CartesianGrid stroke="var(--grid)" horizontal={false} />
                    <XAxis type="number" tick={AXIS} allowDecimals={false} interval="preserveStartEnd" minTickGap={12} />
                    <YAxis type="category" dataKey="name" tick={AXIS} width={110} interval={0} />
                    <Bar dataKey="count" fill="var(--warn)" isAnimationActive={false} />
                  </BarChart>
                </ResponsiveContainer>
              </div>
              <table className="compact">
                <caption className="sr-only">Retries by error class</caption>
                <tbody>
                  {reasons.map((r) => (
                    <tr key={r.name}>
                      <th scope="row">{r.name}</th>
                      <td className="num">{r.count}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )}
        </section>

        <section className="card chart-card chart-wide" aria-labelledby="h-cost">
          <h2 id="h-cost">
            Cost per day
            {s.dailyBudgetUsd !== null && (
              <span className="muted">
                {' '}
                · daily budget {money(s.dailyBudgetUsd)}
                {overBudget > 0 && `, exceeded on ${overBudget} day${overBudget === 1 ? '' : 's'}`}
              </span>
            )}
          </h2>
          <div className="chart" aria-hidden="true">
            <ResponsiveContainer width="100%" height={220}>
              <BarChart data={perDay} margin={{ top: 12, right: s.dailyBudgetUsd === null ? 12 : 96, bottom: 0, left: 0 }}>
                <CartesianGrid stroke="var(--grid)" vertical={false} />
                {/* Short dates, as many as fit without overlapping (every day at 7 days, fewer at 30). */}
                {/* …counted back from today, which always has its mark (issue 34 item 10). */}
                <XAxis dataKey="day" tick={AXIS} ticks={dayTicks(perDay.map((d) => d.day))} interval={0} tickFormatter={(d) => dayLabel(String(d), today)} />
                {/* The axis always reaches the daily budget, so its line is drawn even on cheap days; its label sits right of the plot, clear of the bars. */}
                <YAxis tick={AXIS} width={52} domain={[0, axis.max]} ticks={axis.ticks} interval={0} tickFormatter={moneyTick} />
                <Tooltip
                  contentStyle={{ background: 'var(--panel)', border: '1px solid var(--border)' }}
                  cursor={{ fill: 'var(--hover)' }}
                  formatter={(v) => money(Number(v))}
                  labelFormatter={(d) => dayLabel(String(d), today)}
                />
                <Legend wrapperStyle={{ fontSize: 11 }} />
                <Bar dataKey="first" name="first attempts" stackId="c" fill="var(--accent)" isAnimationActive={false} />
                <Bar dataKey="retries" name="retries" stackId="c" fill="var(--warn)" isAnimationActive={false} />
                {s.dailyBudgetUsd !== null && (
                  <ReferenceLine
                    y={s.dailyBudgetUsd}
                    ifOverflow="extendDomain"
                    stroke="var(--bad)"
                    strokeDasharray="4 3"
                    label={{ value: `budget ${moneyTick(s.dailyBudgetUsd)}`, position: 'right', fontSize: 11, fill: 'var(--bad)' }}
                  />
                )}
              </BarChart>
            </ResponsiveContainer>
          </div>
          <p className="chart-caption small-text muted">
            {money(s.totalCostUsd)} over {s.days} days, {money(s.retryCostUsd)} of it on retries; highest{' '}
            {peak && peak.costUsd > 0 ? `${money(peak.costUsd)} on ${shortDay(peak.day)}` : '—'}.
          </p>
          <details className="numbers-details">
            <summary>Numbers</summary>
            <table className="compact numbers">
              <caption className="sr-only">Cost per day</caption>
              <thead>
                <tr>
                  <th scope="col">day</th>
                  <th scope="col" className="num">
                    total
                  </th>
                  <th scope="col" className="num">
                    retries
                  </th>
                  <th scope="col">budget</th>
                </tr>
              </thead>
              <tbody>
                {s.costPerDay.map((d) => (
                  <tr key={d.day}>
                    <td>{shortDay(d.day)}</td>
                    <td className="num">{money(d.costUsd)}</td>
                    <td className="num">{money(d.retryCostUsd)}</td>
                    <td className={s.dailyBudgetUsd !== null && d.costUsd > s.dailyBudgetUsd ? 'tone-bad' : 'muted'}>
                      {s.dailyBudgetUsd === null ? '—' : d.costUsd > s.dailyBudgetUsd ? 'over' : 'within'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        </section>
      </div>

      <PullRequestStats s={s.pullRequests} />
      <Improvements items={improvements} />
    </>
  );
}

/** The "Improvement suggestions": each finding, then what to change. */
function Improvements({ items }: { items: ImprovementDoc[] | null }) {
  if (items === null) return null;
  return (
    <section className="card suggestions" aria-labelledby="h-suggestions">
      <h2 id="h-suggestions">Improvement suggestions</h2>
      {items.length === 0 ? (
        <p className="muted small-text">Nothing stands out in this period: suggestions appear once a few steps have failed the same way.</p>
      ) : (
        <ul>
          {suggestionsInWords(items).map((x) => (
            <li key={`${x.finding}|${x.action}`}>
              {x.finding}
              {/* Advice, not a link: said in plain text after "Try:" (issue 34 item 10). */}
              <div className="suggestion-action">
                <span className="muted">Try:</span> {x.advice}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Kpi({ label, value, sub }: { label: string; value: string; sub: string }) {
  return (
    <div className="kpi card">
      <div className="kpi-label">{label}</div>
      <div className="kpi-value">{value}</div>
      <div className="kpi-sub muted">{sub}</div>
    </div>
  );
}
