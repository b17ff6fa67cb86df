// The pull requests' rounds over a period (pure over their `pr.rounds`): what CI fixes cost and bought, how often each
// check and each test was flaky, how many jobs were re-run for the infrastructure's sake, and the review rounds.
import type { PrRoundsStats } from '../../../shared/contract';
import type { PrDoc } from '../../../shared/pull-request';

const cents = (n: number) => Math.round(n * 1e6) / 1e6;

export function prRoundsStats(prs: readonly PrDoc[]): PrRoundsStats {
  const rounds = prs.flatMap((p) => p.rounds.map((r) => ({ ...r, merged: p.merged })));
  const fixes = rounds.filter((r) => r.kind === 'ci' && (r.attempts > 0 || r.outcome === 'pushed'));
  const reviews = rounds.filter((r) => r.kind === 'review' && r.attempts > 0);
  const ci = rounds.filter((r) => r.kind === 'ci');
  const checks = new Map<string, { rounds: number; flaky: number }>();
  const tests = new Map<string, { check: string; test: string; count: number }>();
  for (const r of ci) {
    const c = checks.get(r.trigger) ?? { rounds: 0, flaky: 0 };
    c.rounds++;
    if (r.outcome === 'flaky') {
      c.flaky++;
      for (const t of r.tests ?? []) {
        const key = `${r.trigger}\n${t}`;
        const v = tests.get(key) ?? { check: r.trigger, test: t, count: 0 };
        v.count++;
        tests.set(key, v);
      }
    }
    checks.set(r.trigger, c);
  }
  const cost = (rs: typeof rounds) => cents(rs.reduce((s, r) => s + (r.costUsd ?? 0), 0));
  return {
    pullRequests: prs.length,
    merged: prs.filter((p) => p.merged).length,
    ciFixRounds: fixes.length,
    ciFixesPushed: fixes.filter((r) => r.outcome === 'pushed').length,
    ciFixCostUsd: cost(fixes),
    ciFixUnknownCost: fixes.some((r) => r.costUsd === null),
    mergedAfterCiFix: prs.filter((p) => p.merged && p.rounds.some((r) => r.kind === 'ci' && r.outcome === 'pushed')).length,
    infrastructureReruns: ci.filter((r) => r.outcome === 'rerun').length,
    brokenOnBase: ci.filter((r) => r.outcome === 'broken_on_base').length,
    flakyByCheck: [...checks]
      .filter(([, c]) => c.flaky > 0)
      .map(([check, c]) => ({ check, flaky: c.flaky, rounds: c.rounds, rate: Math.round((c.flaky / c.rounds) * 1000) / 1000 }))
      .sort((a, b) => b.flaky - a.flaky || a.check.localeCompare(b.check)),
    flakyTests: [...tests.values()].sort((a, b) => b.count - a.count || a.test.localeCompare(b.test)),
    reviewRounds: reviews.length,
    reviewCostUsd: cost(reviews),
  };
}

/** The weekly report's section on pull requests (empty when the period had none). */
export function prRoundsMarkdown(s: PrRoundsStats): string {
  if (!s.pullRequests) return '';
  const usd = (n: number) => `$${n.toFixed(2)}`;
  const lines = [
    `${s.pullRequests} pull request${s.pullRequests === 1 ? '' : 's'} watched, ${s.merged} merged.`,
    `- CI fix rounds: ${s.ciFixRounds} (${s.ciFixesPushed} pushed), ${usd(s.ciFixCostUsd)}${s.ciFixUnknownCost ? ' (some unpriced)' : ''}; ${s.mergedAfterCiFix} pull request${s.mergedAfterCiFix === 1 ? '' : 's'} merged after one.`,
    `- Infrastructure re-runs (no agent call): ${s.infrastructureReruns}; checks broken on the base: ${s.brokenOnBase}.`,
    `- Review rounds: ${s.reviewRounds}, ${usd(s.reviewCostUsd)}.`,
  ];
  if (s.flakyByCheck.length)
    lines.push(`- Flaky checks: ${s.flakyByCheck.map((c) => `${c.check} ${c.flaky} of ${c.rounds} rounds (${Math.round(c.rate * 100)} %)`).join(', ')}.`);
  if (s.flakyTests.length) lines.push(`- Flaky tests: ${s.flakyTests.map((t) => `${t.test} (${t.check}) ×${t.count}`).join(', ')}.`);
  return lines.join('\n');
}
