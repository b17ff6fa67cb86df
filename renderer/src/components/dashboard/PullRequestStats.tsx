// The dashboard's pull requests (issue 31 item 9), from stats.summary's `pullRequests`: what CI fix rounds cost and
// what they bought (pull requests merged after one), the infrastructure re-runs that needed no agent, the checks broken
// on the base, the review rounds, and the flaky rate per check and per test. Absent when the period watched none.
import type { PrRoundsStats } from '../../../../shared/contract';
import { money, percent, plural } from '../../lib/format';

export function PullRequestStats({ s }: { s: PrRoundsStats | undefined }) {
  if (!s || s.pullRequests === 0) return null;
  const facts: [string, string][] = [
    ['CI fix rounds', `${s.ciFixRounds} (${s.ciFixesPushed} pushed)`],
    ['CI fixes cost', `${money(s.ciFixCostUsd)}${s.ciFixUnknownCost ? ' (some unpriced)' : ''}`],
    ['Merged after a CI fix', String(s.mergedAfterCiFix)],
    ['Infrastructure re-runs', `${s.infrastructureReruns} (no agent call)`],
    ['Broken on the base', String(s.brokenOnBase)],
    ['Review rounds', `${s.reviewRounds}, ${money(s.reviewCostUsd)}`],
  ];
  return (
    <section className="card pr-stats" aria-labelledby="h-pull-requests">
      <h2 id="h-pull-requests">Pull requests</h2>
      <p className="small-text muted">
        {plural(s.pullRequests, 'pull request')} watched, {s.merged} merged
      </p>
      <div className="pr-stats-grid">
        <table className="compact">
          <caption className="sr-only">Pull request rounds</caption>
          <tbody>
            {facts.map(([name, value]) => (
              <tr key={name}>
                <th scope="row">{name}</th>
                <td className="num">{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div>
          <table className="compact">
            <caption className="next-label">Flaky rate per check</caption>
            <thead>
              <tr>
                <th scope="col">check</th>
                <th scope="col" className="num">
                  flaky
                </th>
                <th scope="col" className="num">
                  rate
                </th>
              </tr>
            </thead>
            <tbody>
              {s.flakyByCheck.length === 0 ? (
                <tr>
                  <td colSpan={3} className="muted">
                    No check was flaky in this period.
                  </td>
                </tr>
              ) : (
                s.flakyByCheck.map((c) => (
                  <tr key={c.check}>
                    <td className="mono pr-stats-name">{c.check}</td>
                    <td className="num">
                      {c.flaky} of {c.rounds}
                    </td>
                    <td className="num">{percent(c.rate)}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
          {s.flakyTests.length > 0 && (
            <table className="compact">
              <caption className="next-label">Flaky tests</caption>
              <thead>
                <tr>
                  <th scope="col">test</th>
                  <th scope="col">check</th>
                  <th scope="col" className="num">
                    times
                  </th>
                </tr>
              </thead>
              <tbody>
                {s.flakyTests.map((t) => (
                  <tr key={`${t.check}\n${t.test}`}>
                    <td className="pr-stats-name">{t.test}</td>
                    <td className="mono muted pr-stats-name">{t.check}</td>
                    <td className="num">{t.count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      </div>
    </section>
  );
}
