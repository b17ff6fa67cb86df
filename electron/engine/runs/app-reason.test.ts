// Terminal text in the app: every reason the engine writes with a `ratchet …` command reads, in the
// app, without the command — the app's action named instead — with its blocks kept apart and its times worded. The
// engine's text itself (what the CLI prints) is unchanged.
import { describe, expect, it } from 'vitest';
import { appReason, reasonHead } from '../../../shared/reason-text';
import { attemptsSummary } from './attempt-summary';
import { checkBudget } from './budget';
import { runEndReason } from './run-reasons';

const RUN = 'r-4f9c2a';
const noCommand = (text: string) => expect(text).not.toMatch(/ratchet (resume|retry|restart|plan|recover|trust)|`|<run-id>|<usd>/);

/** The reasons the engine writes that name a command (engine.ts, budget.ts, run-reasons.ts + attempt-summary.ts). */
const budget = checkBudget({ taskUsd: 0.004, dailyUsd: null, alertAt: 0.8, taskSpent: 0.0059, daySpent: 0, alerted: { task: true, daily: false }, runId: RUN });
const failedOutcome = {
  kind: 'fatal' as const,
  errorClass: 'test_failure' as const,
  reason: 'step 2 "Refuse a zero divisor" failed: test failure: limit of 1 retry reached',
  summary: attemptsSummary(
    [
      { n: 1, outcome: 'failed', errorClass: 'test_failure', message: '1 test failed', failedTests: ['test/div.test.mjs › refuses zero'] },
      { n: 2, outcome: 'failed', errorClass: 'test_failure', message: '1 test failed', failedTests: ['test/div.test.mjs › refuses zero'] },
    ],
    ['test_failure: refuses zero: Expected "Error", got 0'],
  ),
};
const failed = runEndReason(failedOutcome, '', { runId: RUN, committedSteps: 1 });
const failedAtOne = runEndReason(failedOutcome, '', { runId: RUN, committedSteps: 0 });
const APPROVAL = `The agent drafted this plan; nothing runs until you approve it (\`ratchet resume ${RUN} --approve\`, or Approve in the app).`;
const RECOVERED = 'Rebuilt from git by `ratchet recover`: completed steps come from the branch; resume to continue.';
const INTERRUPTED = 'The process running this run stopped during it (last seen 2026-11-22T11:59:00.000Z).';

describe('a reason as the app shows it', () => {
  it('a budget pause names Raise budget and continue, not the CLI command', () => {
    expect(budget.ok).toBe(false);
    const reason = (budget as { reason: string }).reason;
    expect(reason).toContain(`ratchet resume ${RUN} --budget <usd>`);
    const app = appReason(reason);
    noCommand(app.head);
    expect(app.head).toBe('task budget of $0.0040 reached ($0.0059 spent); nothing is lost: give the run more with Raise budget and continue');
    expect(app.actions).toEqual(['raise_budget']);
  });

  it('a failed run keeps its paragraphs: the sentence, the attempts, the remaining issues and the next steps, with no command', () => {
    expect(failed).toContain(`\`ratchet retry ${RUN}\``);
    const app = appReason(failed);
    expect(app.head).toMatch(/^Step 2 "Refuse a zero divisor" failed/);
    expect(app.blocks.map((b) => [b.heading, b.list])).toEqual([
      ['Attempts summary', 'ordered'],
      ['Remaining issues', 'bullets'],
      ['Next steps', 'ordered'],
    ]);
    expect(app.blocks[0]!.lines).toHaveLength(2);
    const next = app.blocks[2]!.lines;
    expect(next).toHaveLength(4);
    for (const line of [app.head, ...app.blocks.flatMap((b) => b.lines)]) noCommand(line);
    expect(next[2]).toBe('Update the task or the plan with more specific instructions');
    expect(next[3]).toBe('Retry the run: it continues from this step, which gets its retries afresh');
    expect(app.actions).toEqual(['revise_plan', 'retry']);
    // With no committed step, the next step is Start again (the CLI's `ratchet restart`).
    const atOne = appReason(failedAtOne);
    for (const line of atOne.blocks.flatMap((b) => b.lines)) noCommand(line);
    expect(atOne.actions).toEqual(['revise_plan', 'start_again']);
  });

  it('approval, recovery and interruption read without commands or raw times', () => {
    const approval = appReason(APPROVAL);
    expect(approval.head).toBe('The agent drafted this plan; nothing runs until you approve it.');
    expect(approval.actions).toEqual(['approve']);
    expect(appReason(RECOVERED).head).toBe('Rebuilt from git: completed steps come from the branch; resume to continue.');
    expect(reasonHead(INTERRUPTED, () => '1 min ago')).toBe('The process running this run stopped during it (last seen 1 min ago).');
  });

  it('leaves a reason with nothing of the terminal in it as it is', () => {
    const plain = 'Stopped by you during step 1. The work in progress stays in the worktree; resume to continue, or start again.';
    expect(appReason(plain)).toEqual({ head: plain, blocks: [], actions: [] });
  });
});
