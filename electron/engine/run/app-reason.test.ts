// Terminal text in the app: every reason the engine writes with a `ratchet …` command reads, in the
// app, without the command — the app's action named instead — with its blocks kept apart and its times worded. The
// engine's text itself (what the CLI prints) is unchanged.
import { describe, expect, it } from 'vitest';
import { RUN_REASON_CODES, type RunReasonCode } from '../../../shared/domain';
import { appReason, reasonActions, reasonHead } from '../../../shared/reason-text';
import { attemptsSummary } from '../failures/attempt-summary';
import { checkBudget } from '../policy/budget';
import { initialRunState, nextRun, runLife, type RunEvent, type RunLifeEvent, type RunStatusCommand } from './run-machine';
import { runEndReason } from './run-reasons';
import type { StepOutcome } from '../step/step-state';

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

/** The statuses the run machine sets for run RUN after these events (its reason text and its code). */
function machine(events: RunEvent[], auto?: 'step' | 'phase'): RunStatusCommand[] {
  let state = initialRunState(RUN, { auto });
  const out: RunStatusCommand[] = [];
  for (const e of events) {
    const t = nextRun(state, e, new Date(0));
    state = t.state;
    for (const c of t.commands) if (c.kind === 'setStatus') out.push(c);
  }
  return out;
}
const S = [
  { index: 1, title: 'one', phase: 'a' },
  { index: 2, title: 'two', phase: 'b' },
];
const go: RunEvent[] = [
  { type: 'reconciled', allDone: false },
  { type: 'prepared', ready: 'ready', pending: S, total: 2 },
];
const end = (outcome: StepOutcome, committedSteps = 1, userStop = false): RunEvent => ({
  type: 'stepFinished',
  outcome,
  userStop,
  leaseLost: false,
  committedSteps,
});
const budgetReason = (budget as { reason: string }).reason;

describe('the actions a run’s reason asks for (the page’s suggested buttons)', () => {
  it('come from the reason code; each code names the actions its own reason’s commands name', () => {
    const failedStatus = (committedSteps: number) => {
      const s = nextRun(
        nextRun(nextRun(initialRunState(RUN), go[0]!, new Date(0)).state, go[1]!, new Date(0)).state,
        end(failedOutcome, committedSteps),
        new Date(0),
      );
      return nextRun(s.state, { type: 'rescued', note: '' }, new Date(0)).commands.find((c): c is RunStatusCommand => c.kind === 'setStatus')!;
    };
    const life: RunLifeEvent[] = [
      { type: 'apiHoldStarted', until: 'T', holdReason: 'x', holdRunId: null },
      { type: 'backoffStarted', reason: 'gate failed; retrying in 4 s', wakeAt: 'T' },
      { type: 'planDrafted' },
      { type: 'planApproved' },
      { type: 'processLost', lastSeen: null },
      { type: 'stopRequested', status: 'waiting' },
      { type: 'queued', reason: 'Queued: waits for a free slot (1 run at a time).' },
      { type: 'dequeued', previous: 'paused' },
      { type: 'removedFromQueue', action: 'execute', previous: 'planning' },
    ];
    const cases: Array<[RunStatusCommand, boolean]> = [
      [failedStatus(1), true],
      [failedStatus(0), false],
      ...machine([...go, end({ kind: 'budget', budget: 'task', reason: budgetReason, wakeAt: null })]).map((c) => [c, true] as [RunStatusCommand, boolean]),
      ...[
        ...machine([...go, end({ kind: 'escalate', reason: 'step 1 needs you: same failure', summary: 'Attempts summary:' })]),
        ...machine([...go, end({ kind: 'budget', budget: 'daily', reason: 'daily budget of $1 reached', wakeAt: 'T' })]),
        ...machine([...go, end({ kind: 'parked', reason: 'rate limited', wakeAt: 'T' })]),
        ...machine([...go, end({ kind: 'stopped', reason: 'stopped during step 1' }, 1, true)]),
        ...machine([...go, end({ kind: 'stopped', reason: 'stopped during step 1' })]),
        ...machine([...go, end({ kind: 'done', commit: 'c' }, 1)], 'step'),
        ...machine([...go, end({ kind: 'done', commit: 'c' }, 1)], 'phase'),
        ...machine([go[0]!, { type: 'prepared', ready: 'failed', reason: 'setup failed: npm ci exited 1' }]),
        ...machine([...go, { type: 'crashed', message: 'boom' }]),
        ...life.flatMap((e) => runLife(RUN, e, new Date(0))),
      ].map((c) => [c, true] as [RunStatusCommand, boolean]),
    ];
    const seen = new Set<RunReasonCode>();
    for (const [c, committed] of cases) {
      if (!c.code) continue;
      seen.add(c.code);
      expect(reasonActions({ reason: null, reasonCode: c.code }, committed), c.code).toEqual(appReason(c.reason ?? '').actions);
    }
    expect(reasonActions({ reason: null, reasonCode: 'step_failed' }, true)).toEqual(['revise_plan', 'retry']);
    expect(reasonActions({ reason: null, reasonCode: 'step_failed' }, false)).toEqual(['revise_plan', 'start_again']);
    // Every code the machine sets is covered here (paused_by_user and rebuilt_from_git name no command either).
    const rest = RUN_REASON_CODES.filter((c) => !seen.has(c));
    expect(rest).toEqual(['paused_by_user', 'rebuilt_from_git']);
    for (const c of rest) expect(reasonActions({ reason: null, reasonCode: c }, true)).toEqual([]);
  });

  it('decide by the code, not the words: a reworded reason keeps its actions, commands in a coded reason add none; a run without a code is read', () => {
    expect(reasonActions({ reason: 'Le plan attend votre accord.', reasonCode: 'plan_awaiting_approval' }, false)).toEqual(['approve']);
    expect(reasonActions({ reason: `Boom. Try \`ratchet retry ${RUN}\``, reasonCode: 'internal_error' }, true)).toEqual([]);
    // A run written before reason codes (an old store): its text's commands, as before.
    expect(reasonActions({ reason: failed, reasonCode: null }, true)).toEqual(['revise_plan', 'retry']);
    expect(reasonActions({ reason: APPROVAL }, false)).toEqual(['approve']);
    expect(reasonActions({ reason: null, reasonCode: null }, true)).toEqual([]);
  });
});
