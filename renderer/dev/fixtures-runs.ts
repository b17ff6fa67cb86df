// Realistic status documents and run summaries for the fake bridge: a finished run whose step 2 failed once, a waiting, an interrupted, a failed run...
import type { RunSummary } from '../../shared/contract';
import type { AttemptDoc, StatusDocument } from '../../shared/domain';

export const REPO = '/home/dev/code/space-game';
export const HOME = '/home/dev/.config/ratchet';

export const RUN_IDS = {
  health: 'r-7f3a21',
  waiting: 'r-b91c07',
  interrupted: 'r-4d2e88',
  failed: 'r-e0a5f1',
  paused: 'r-19aa3c',
  approval: 'r-6b0d44',
  running: 'r-c3f0d9',
} as const;

const iso = (now: number, secondsAgo: number) => new Date(now - secondsAgo * 1000).toISOString();

export function attempt(n: number, outcome: AttemptDoc['outcome'], extra: Partial<AttemptDoc> = {}): AttemptDoc {
  return {
    n,
    outcome,
    errorClass: null,
    model: 'claude-sonnet-5-5',
    inputTokens: 18_400 + n * 2100,
    outputTokens: 2300 + n * 310,
    cacheReadTokens: n > 1 ? 41_200 : 0,
    cacheWriteTokens: n > 1 ? 0 : 39_800,
    costUsd: 0.1 + n * 0.031,
    decision: null,
    fingerprint: null,
    round: 0,
    ...extra,
  };
}

const retry60 = {
  action: 'retry' as const,
  reason: 'test_failure: retry 1 of 3 in 60 s, with the failing test and the diff in context',
  delayS: 60,
  overrides: {},
};

export function makeRuns(now: number): Array<{ doc: StatusDocument; summary: RunSummary }> {
  const base = (id: string, title: string, slug: string, repo = REPO) => ({
    id,
    repo,
    branch: `ratchet/${slug}-${id.slice(2)}`,
    worktree: `${HOME}/worktrees/${repo.split('/').at(-1)}-${id.slice(2)}`,
    baseCommit: '3c9e0b1f5a7d2e84c6b0a9f1d3e5c7b9a1f2e4d6',
    title,
  });
  const mk = (
    b: ReturnType<typeof base>,
    doc: Omit<StatusDocument, 'id' | 'repo' | 'branch' | 'worktree' | 'baseCommit' | 'resumes'> & { resumes?: StatusDocument['resumes'] },
    createdAgo: number,
    updatedAgo: number,
    wakeAt: string | null = null,
  ) => {
    const full: StatusDocument = { id: b.id, repo: b.repo, branch: b.branch, worktree: b.worktree, baseCommit: b.baseCommit, resumes: [], ...doc };
    const summary: RunSummary = {
      id: b.id,
      status: full.status,
      repo: b.repo,
      branch: b.branch,
      createdAt: iso(now, createdAgo),
      title: b.title,
      reason: full.reason,
      reasonCode: full.reasonCode ?? null,
      wakeAt,
      updatedAt: iso(now, updatedAgo),
      stepsDone: full.steps.filter((s) => s.status === 'succeeded').length,
      stepsTotal: full.steps.length,
      costUsd: full.costUsd,
    };
    return { doc: full, summary };
  };
  const cost = (steps: StatusDocument['steps']) => Math.round(steps.flatMap((s) => s.attempts).reduce((t, a) => t + (a.costUsd ?? 0), 0) * 10_000) / 10_000;

  const healthSteps: StatusDocument['steps'] = [
    { index: 1, title: 'Add a health field and damage()', status: 'succeeded', commit: 'a41c9e27d0b5f3e1c8a2', attempts: [attempt(1, 'passed')] },
    {
      index: 2,
      title: 'Add heal() capped at max health',
      status: 'succeeded',
      commit: 'b7d20f4c91e3a6b8d5f0',
      attempts: [attempt(1, 'failed', { errorClass: 'test_failure', decision: retry60, fingerprint: 'fp-2c81d0' }), attempt(2, 'passed')],
    },
    { index: 3, title: 'Emit a died signal at zero health', status: 'succeeded', commit: 'c03e8a1b7f2d94c6e0a1', attempts: [attempt(1, 'passed')] },
  ];
  const waitingSteps: StatusDocument['steps'] = [
    { index: 1, title: 'Token bucket with refill rate', status: 'succeeded', commit: 'd91f0c2e', attempts: [attempt(1, 'passed')] },
    {
      index: 2,
      title: 'Wrap fetch() in the limiter',
      status: 'failed',
      commit: null,
      attempts: [
        attempt(1, 'failed', {
          errorClass: 'test_failure',
          fingerprint: 'fp-77aa01',
          decision: { action: 'retry', reason: 'test_failure: retry 1 of 3 in 60 s', delayS: 60, overrides: {} },
        }),
        attempt(2, 'failed', {
          errorClass: 'test_failure',
          fingerprint: 'fp-77aa01',
          decision: {
            action: 'retry',
            reason: 'test_failure: retry 2 of 3 in 120 s, escalating to claude-opus-5-5',
            delayS: 120,
            overrides: { agent: { model: 'claude-opus-5-5' }, session: 'new' },
          },
        }),
      ],
    },
    { index: 3, title: 'Surface 429s to the caller', status: 'pending', commit: null, attempts: [] },
  ];
  const interruptedSteps: StatusDocument['steps'] = [
    { index: 1, title: 'Describe the config schema with zod', status: 'succeeded', commit: 'e5a7c3d1', attempts: [attempt(1, 'passed')] },
    {
      index: 2,
      title: 'Load and validate config files',
      status: 'running',
      commit: null,
      attempts: [
        attempt(1, 'failed', {
          errorClass: 'compilation_error',
          decision: { action: 'retry', reason: 'compilation_error: retry 1 of 2', delayS: 0, overrides: {} },
        }),
        attempt(2, 'interrupted'),
      ],
    },
    { index: 3, title: 'Replace the old loader', status: 'pending', commit: null, attempts: [] },
    { index: 4, title: 'Document the config file', status: 'pending', commit: null, attempts: [] },
  ];
  const failedSteps: StatusDocument['steps'] = [
    {
      index: 1,
      title: 'Reconnect with jittered backoff',
      status: 'failed',
      commit: null,
      attempts: [
        attempt(1, 'failed', {
          errorClass: 'compilation_error',
          fingerprint: 'fp-91c3',
          decision: { action: 'retry', reason: 'compilation_error: retry 1 of 2', delayS: 0, overrides: {} },
        }),
        attempt(2, 'failed', {
          errorClass: 'compilation_error',
          fingerprint: 'fp-91c3',
          decision: { action: 'retry', reason: 'compilation_error: retry 2 of 2', delayS: 0, overrides: {} },
        }),
        attempt(3, 'failed', {
          errorClass: 'compilation_error',
          fingerprint: 'fp-91c3',
          decision: { action: 'fatal', reason: 'compilation_error: limit of 2 retries reached; the same failure came back 3 times', delayS: 0, overrides: {} },
        }),
      ],
    },
    { index: 2, title: 'Resubscribe channels after reconnect', status: 'pending', commit: null, attempts: [] },
  ];
  const pausedSteps: StatusDocument['steps'] = [
    { index: 1, title: 'Bump react and react-dom', status: 'succeeded', commit: 'f0e1d2c3', attempts: [attempt(1, 'passed', { costUsd: 1.92 })] },
    {
      index: 2,
      title: 'Replace ReactDOM.render',
      status: 'failed',
      commit: null,
      attempts: [
        attempt(1, 'failed', {
          errorClass: 'unknown',
          costUsd: 3.12,
          decision: { action: 'escalate', reason: 'unknown failure: the run waits for you', delayS: 0, overrides: {} },
        }),
      ],
    },
  ];
  const runningSteps: StatusDocument['steps'] = [
    { index: 1, title: 'Theme tokens as CSS variables', status: 'succeeded', commit: '0a1b2c3d', attempts: [attempt(1, 'passed')] },
    {
      index: 2,
      title: 'Toggle in the settings menu',
      status: 'running',
      commit: null,
      attempts: [attempt(1, 'running', { costUsd: 0.0412, outputTokens: 611 })],
    },
    { index: 3, title: 'Remember the choice', status: 'pending', commit: null, attempts: [] },
    { index: 4, title: 'Follow the OS by default', status: 'pending', commit: null, attempts: [] },
  ];

  return [
    mk(
      base(RUN_IDS.running, 'Add a dark mode toggle', 'dark-mode'),
      { status: 'running', reason: null, costUsd: cost(runningSteps), steps: runningSteps },
      540,
      4,
    ),
    mk(
      base(RUN_IDS.waiting, 'Rate limiter for the API client', 'rate-limiter', '/home/dev/code/http-kit'),
      {
        status: 'waiting',
        reason: 'test_failure: retry 2 of 3 in 120 s, escalating to claude-opus-5-5',
        reasonCode: 'retry_backoff',
        costUsd: cost(waitingSteps),
        steps: waitingSteps,
      },
      1800,
      30,
      new Date(now + 95_000).toISOString(),
    ),
    mk(
      base(RUN_IDS.approval, 'Add CSV export to reports', 'csv-export', '/home/dev/code/ledger'),
      {
        status: 'waiting_approval',
        reason: 'the drafted plan waits for approval',
        reasonCode: 'plan_awaiting_approval',
        costUsd: 0.0213,
        steps: [
          { index: 1, title: 'CSV writer with escaping', status: 'pending', commit: null, attempts: [] },
          { index: 2, title: 'Export button', status: 'pending', commit: null, attempts: [] },
        ],
      },
      3600,
      3500,
    ),
    mk(
      base(RUN_IDS.interrupted, 'Migrate the config loader to zod', 'config-zod'),
      {
        status: 'interrupted',
        reason: 'the process stopped during step 2',
        reasonCode: 'process_lost',
        costUsd: cost(interruptedSteps),
        steps: interruptedSteps,
      },
      7200,
      5400,
    ),
    mk(
      base(RUN_IDS.health, 'Add health to Player', 'add-health'),
      { status: 'succeeded', reason: null, costUsd: cost(healthSteps), steps: healthSteps },
      86_400,
      84_000,
    ),
    mk(
      base(RUN_IDS.paused, 'Upgrade to React 19', 'react-19', '/home/dev/code/dashboard-web'),
      {
        status: 'paused',
        reason: 'task budget $5.00 reached ($5.04 spent); raise it or retry with a new budget',
        reasonCode: 'task_budget',
        costUsd: cost(pausedSteps),
        steps: pausedSteps,
      },
      2 * 86_400,
      2 * 86_000,
    ),
    mk(
      base(RUN_IDS.failed, 'Fix the flaky websocket reconnect', 'ws-reconnect', '/home/dev/code/http-kit'),
      {
        status: 'failed',
        reason: 'step 1 "Reconnect with jittered backoff" failed: compilation_error: limit of 2 retries reached',
        reasonCode: 'step_failed',
        costUsd: cost(failedSteps),
        steps: failedSteps,
      },
      3 * 86_400,
      3 * 86_000,
    ),
  ];
}
