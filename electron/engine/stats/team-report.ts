// The weekly report's "Team" section: the team's runs, retries and spend for the period (team.stats), appended when a
// team is set. No team: no section at all; a team that did not answer: the section says so instead of printing zeros.
import type { TeamStatsDoc } from '../../../shared/contract';
import { errorClassLabel, plural } from '../../../shared/error-classes';
import { money } from '../../../shared/money';

const pct = (n: number, of: number) => (of ? `${((n / of) * 100).toFixed(1)} %` : 'n/a');

/** The section's Markdown for the team's numbers (starting with a blank line, as it follows the report). */
export function teamReportMarkdown(t: TeamStatsDoc): string {
  const finished = t.succeeded + t.failed;
  return [
    '',
    '## Team',
    '',
    `- **Team runs:** ${plural(t.runs, 'run')} (${t.succeeded} succeeded, ${t.failed} failed, ${t.open} open)`,
    `- **Success rate:** ${pct(t.succeeded, finished)} of ${plural(finished, 'finished run')}`,
    `- **Retries:** ${plural(t.retries, 'retry', 'retries')} of ${plural(t.attempts, 'attempt')}, ${t.retriesThatPassed} passed; they cost ${money(t.retryCostUsd)}`,
    `- **Cost:** ${money(t.costUsd)}`,
    `- **Today:** ${money(t.spentTodayUsd)} spent${t.dailyBudgetUsd !== null ? ` of the team's ${money(t.dailyBudgetUsd)} daily budget` : ' (no team daily budget)'}`,
    '',
    '### Failed attempts by reason',
    '',
    ...(t.reasons.length ? t.reasons.map((r) => `- ${errorClassLabel(r.errorClass)}: ${plural(r.attempts, 'attempt')}`) : ['None.']),
    '',
    '### By worker',
    '',
    ...(t.byWorker.length
      ? [
          '| worker | runs | succeeded | cost |',
          '| --- | --- | --- | --- |',
          ...t.byWorker.map((w) => `| ${w.worker} | ${w.runs} | ${w.succeeded} | ${money(w.costUsd)} |`),
        ]
      : ['No team runs in this period.']),
    '',
  ].join('\n');
}

/** The section for the report: '' without a team (`load` answers null), the numbers, or why the team database did not answer. */
export async function teamReportSection(load: () => Promise<TeamStatsDoc | null>): Promise<string> {
  try {
    const t = await load();
    return t ? teamReportMarkdown(t) : '';
  } catch (e) {
    return ['', '## Team', '', `The team database did not answer, so team runs are not in this report: ${(e as Error).message}`, ''].join('\n');
  }
}
