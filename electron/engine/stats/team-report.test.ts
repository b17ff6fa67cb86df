// The weekly report's Team section: the team's numbers when a team is set, nothing without one, and a sentence (not
// zeros) when the team database did not answer.
import { describe, expect, it } from 'vitest';
import type { TeamStatsDoc } from '../../../shared/contract';
import { teamReportMarkdown, teamReportSection } from './team-report';

const stats: TeamStatsDoc = {
  days: 7,
  runs: 4,
  succeeded: 2,
  failed: 1,
  open: 1,
  attempts: 7,
  retries: 3,
  retriesThatPassed: 2,
  retryCostUsd: 0.6,
  costUsd: 1.4,
  reasons: [{ errorClass: 'test_failure', attempts: 3 }],
  byWorker: [
    { worker: 'build-1', runs: 3, succeeded: 2, costUsd: 1.2 },
    { worker: 'build-2', runs: 1, succeeded: 0, costUsd: 0.2 },
  ],
  spentTodayUsd: 0.8,
  dailyBudgetUsd: 5,
};

describe('the weekly report’s Team section', () => {
  it('gives the team’s runs, success rate, retries, cost, reasons, workers and today’s spend against the team budget', () => {
    const md = teamReportMarkdown(stats);
    expect(md).toContain('## Team');
    expect(md).toContain('- **Team runs:** 4 runs (2 succeeded, 1 failed, 1 open)');
    expect(md).toContain('- **Success rate:** 66.7 % of 3 finished runs');
    expect(md).toContain('- **Retries:** 3 retries of 7 attempts, 2 passed; they cost $0.60');
    expect(md).toMatch(/- \*\*Today:\*\* \$0\.80 spent of the team's \$5\.00 daily budget/);
    expect(md).toContain('| build-1 | 3 | 2 | $1.20 |');
    expect(md).toMatch(/- Tests? fail\w*: 3 attempts/i);
  });

  it('is empty without a team, and says so when the team database did not answer', async () => {
    expect(await teamReportSection(async () => null)).toBe('');
    expect(await teamReportSection(async () => stats)).toBe(teamReportMarkdown(stats));
    const down = await teamReportSection(async () => {
      throw new Error('Could not use the team database at postgres://u:***@h/db: connection refused.');
    });
    expect(down).toContain('## Team');
    expect(down).toContain('did not answer, so team runs are not in this report: Could not use the team database');
    expect(down).not.toMatch(/Team runs:\*\* 0/);
  });
});
