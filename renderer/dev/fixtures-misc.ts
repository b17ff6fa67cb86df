// Fixtures for the other methods: resume info, dashboard stats and report, settings, repos, workflow, drafted plan.
import type { ImprovementDoc, MethodOutput, ResumeInfoDoc, Settings, StatsSummary } from '../../shared/contract';
import type { StatusDocument } from '../../shared/domain';
import { NO_TARGETS } from '../../shared/notify';
import { HOME, REPO } from './fixtures-runs';

export function makeResumeInfo(doc: StatusDocument, title: string, now: number): ResumeInfoDoc {
  const completed = doc.steps.filter((s) => s.commit).map((s) => ({ index: s.index, title: s.title, commit: s.commit as string }));
  const next = doc.steps.find((s) => s.status !== 'succeeded' && s.status !== 'skipped');
  const interrupted = doc.status === 'interrupted';
  return {
    runId: doc.id,
    title,
    worktree: doc.worktree,
    branch: doc.branch,
    status: doc.status,
    reason: doc.reason,
    lastSeen: new Date(now - 5400_000).toISOString(),
    steps: doc.steps.map((s) => ({
      index: s.index,
      title: s.title,
      status: s.status,
      commit: s.commit,
      phase: s.index <= 2 ? 'Schema' : 'Rollout',
      attempts: s.attempts.length,
    })),
    plan: {
      lastStatus: interrupted ? 'in_progress' : doc.status === 'failed' ? 'failed' : 'completed',
      nextStep: next?.index ?? null,
      action: next ? 'retry_step' : 'finish',
      reason: next
        ? `Step ${next.index} "${next.title}" was in progress when the process stopped; it is retried from its start (the partial work is kept).`
        : 'Every step is done.',
      canSkip: Boolean(next),
      phaseRollover: interrupted ? 'Rollout' : null,
      completed,
      required: interrupted
        ? [
            {
              code: 'dirty_tree',
              message: 'The worktree has uncommitted changes from the interrupted attempt; they are kept, never discarded',
              options: ['rescue_commit', 'stash', 'abort'],
              safeDefault: 'rescue_commit',
            },
            {
              code: 'wrong_branch',
              message: 'The worktree is on main, expected ' + doc.branch,
              options: ['checkout_branch', 'recreate_worktree', 'abort'],
              safeDefault: 'checkout_branch',
            },
          ]
        : [],
      blocked: false,
    },
    repeatedFailures: interrupted
      ? [
          {
            runId: 'r-0f11aa',
            n: 1,
            errorClass: 'compilation_error',
            message: "TS2307: Cannot find module 'zod/v4'",
            at: new Date(now - 3 * 86_400_000).toISOString(),
          },
          {
            runId: 'r-0f11aa',
            n: 2,
            errorClass: 'compilation_error',
            message: "TS2307: Cannot find module 'zod/v4'",
            at: new Date(now - 3 * 86_400_000 + 600_000).toISOString(),
          },
          {
            runId: doc.id,
            n: 1,
            errorClass: 'compilation_error',
            message: "TS2322: Type 'string | undefined' is not assignable to type 'string'",
            at: new Date(now - 6000_000).toISOString(),
          },
        ]
      : [],
    baseConflicts: interrupted ? ['src/config/load.ts', 'package.json'] : [],
  };
}

function days(now: number, n: number): StatsSummary['costPerDay'] {
  return Array.from({ length: n }, (_, i) => {
    const d = new Date(now - (n - 1 - i) * 86_400_000);
    const cost = Math.round((3 + Math.abs(Math.sin(i * 1.7)) * 14 + (i % 5 === 0 ? 9 : 0)) * 100) / 100;
    return { day: d.toISOString().slice(0, 10), costUsd: cost, retryCostUsd: Math.round(cost * (0.15 + (i % 3) * 0.09) * 100) / 100 };
  });
}

export function makeStats(now: number, n: 7 | 30): StatsSummary {
  const costPerDay = days(now, n);
  const total = costPerDay.reduce((t, d) => t + d.costUsd, 0);
  const retry = costPerDay.reduce((t, d) => t + d.retryCostUsd, 0);
  const k = n === 7 ? 1 : 4;
  return {
    days: n,
    runs: 23 * k,
    succeeded: 19 * k,
    failed: 3 * k,
    successRate: 19 / 23,
    avgAttemptsPerSuccess: 1.38,
    retryBreakdown: { r0: 41 * k, r1: 12 * k, r2: 5 * k, r3plus: 2 * k, failedAfterMax: 3 * k },
    retryReasons: [
      { errorClass: 'test_failure', count: 14 * k },
      { errorClass: 'compilation_error', count: 7 * k },
      { errorClass: 'timeout', count: 2 * k },
      { errorClass: 'rate_limit', count: 2 * k },
      { errorClass: 'crash', count: 1 * k },
    ],
    costPerDay,
    dailyBudgetUsd: 20,
    totalCostUsd: Math.round(total * 100) / 100,
    retryCostUsd: Math.round(retry * 100) / 100,
    savedByRetries: 17 * k,
    suggestions: [
      'compilation_error retries succeed 71 % of the time after one retry: a limit of 1 would save $2.10 a week.',
      '3 runs hit the same fingerprint 3 times in a row; on_repeat: stop saved $4.80.',
      'Daily cost went over the $20.00 budget on 1 day; consider raising it or using the minimal preset for large refactors.',
    ],
    // What the pull requests' CI and review rounds cost and bought (electron/engine/stats/pr-rounds.ts).
    pullRequests: {
      pullRequests: 6 * k,
      merged: 5 * k,
      ciFixRounds: 4 * k,
      ciFixesPushed: 3 * k,
      ciFixCostUsd: 1.84 * k,
      ciFixUnknownCost: false,
      mergedAfterCiFix: 3 * k,
      infrastructureReruns: 2 * k,
      brokenOnBase: 1,
      flakyByCheck: [
        { check: 'test (ubuntu-latest, node 22)', flaky: 3 * k, rounds: 9 * k, rate: 0.333 },
        { check: 'e2e', flaky: 1 * k, rounds: 4 * k, rate: 0.25 },
      ],
      flakyTests: [
        { check: 'test (ubuntu-latest, node 22)', test: 'settles before the deadline', count: 2 * k },
        { check: 'e2e', test: 'the dashboard follows a run live', count: 1 * k },
        { check: 'test (ubuntu-latest, node 22)', test: 'retries the lease after a crash', count: 1 * k },
      ],
      reviewRounds: 2 * k,
      reviewCostUsd: 0.61 * k,
    },
  };
}

/** Improvement suggestions as the engine words them (electron/engine/stats/improvements.ts). */
export function makeImprovements(s: StatsSummary): ImprovementDoc[] {
  const k = s.days === 7 ? 1 : 4;
  const over = s.costPerDay.filter((d) => d.costUsd > (s.dailyBudgetUsd ?? Infinity)).length;
  return [
    {
      finding: 'Test failures were retried 4.2 times on average and fixed 30 % of the time; every fix came within 2 retries',
      action: 'lower max retries for test_failure to 2',
      errorClass: 'test_failure',
    },
    {
      finding: `${3 * k} steps that failed on compilation errors were never fixed`,
      action: 'consider: add a build or typecheck gate before the tests, and say in the step prompt which files compile together',
      errorClass: 'compilation_error',
    },
    {
      finding: `The daily budget of $20.00 was exceeded on ${over} day${over === 1 ? '' : 's'}`,
      action: 'raise the daily budget in Settings, or use the minimal preset for large tasks',
      errorClass: null,
    },
  ];
}

export function makeReport(s: StatsSummary, improvements: ImprovementDoc[] = []): string {
  return (
    `# Ratchet — weekly report\n\n${s.runs} runs, ${s.succeeded} succeeded (${Math.round((s.successRate ?? 0) * 100)} %), ${s.failed} failed.\n\n` +
    `## Retries\n\n| retries | steps |\n| --- | --- |\n| 0 | ${s.retryBreakdown.r0} |\n| 1 | ${s.retryBreakdown.r1} |\n| 2 | ${s.retryBreakdown.r2} |\n| 3+ | ${s.retryBreakdown.r3plus} |\n| failed after max | ${s.retryBreakdown.failedAfterMax} |\n\n` +
    `Retries rescued **${s.savedByRetries} steps** for $${s.retryCostUsd.toFixed(2)} of $${s.totalCostUsd.toFixed(2)}.\n\n## Improvement suggestions\n\n${improvements.map((x) => `- ${x.finding} → ${x.action}`).join('\n')}\n`
  );
}

export function makeSettings(): Settings {
  return {
    apiKeySet: true,
    apiKeySource: 'safe_storage',
    apiKeyWarning:
      'This Linux session has no keyring: Electron keeps the key with the basic_text backend (obfuscated, not encrypted). Install gnome-keyring or kwallet to encrypt it.',
    defaultModel: 'claude-sonnet-5-5',
    preset: 'conservative',
    budget: { taskUsd: 5, dailyUsd: 20, alertAt: 0.8 },
    notifications: true,
    notify: { ...NO_TARGETS },
    worktreeFolder: null,
    concurrency: 2,
    sandbox: true,
    sandboxStatus: { state: 'on', message: null },
    pricing: {
      'claude-sonnet-5-5': { input: 3, output: 15, cache_write: 3.75, cache_read: 0.3 },
      'claude-opus-5-5': { input: 15, output: 75, cache_write: 18.75, cache_read: 1.5 },
      'claude-haiku-5-5': { input: 1, output: 5, cache_write: 1.25, cache_read: 0.1 },
    },
  };
}

export function makeRecent(now: number): MethodOutput<'repos.recent'> {
  return [
    { path: REPO, name: 'space-game', lastUsed: new Date(now - 600_000).toISOString() },
    { path: '/home/dev/code/http-kit', name: 'http-kit', lastUsed: new Date(now - 86_400_000).toISOString() },
    { path: '/home/dev/code/ledger', name: 'ledger', lastUsed: new Date(now - 4 * 86_400_000).toISOString() },
  ];
}

export const WORKFLOW: MethodOutput<'workflow.load'> = {
  file: `${REPO}/ratchet.yml`,
  steps: [
    {
      title: 'Add a health field and damage()',
      prompt: 'Give Player a health field (max 100) and damage(n) that never goes below zero, with tests.',
      gates: ['test'],
    },
    { title: 'Add heal() capped at max health', prompt: 'Add heal(n), capped at maxHealth, with tests.', gates: ['test'] },
    { title: 'Emit a died signal at zero health', prompt: 'Emit `died` once when health reaches zero.' },
  ],
  gates: { test: 'npm test', build: 'npm run build' },
  problems: [],
  setup: { run: ['npm ci'], network: ['registry:npm'] },
  copy: [],
  trust: {
    trusted: false,
    sha256: '5f2b0c9d6e1a4b3c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c',
    commands: [
      { source: 'setup', command: 'npm ci' },
      { source: 'gate test', command: 'npm test' },
      { source: 'gate build', command: 'npm run build' },
      { source: 'agent', command: 'anthropic (model claude-sonnet-5-5)' },
      { source: 'sandbox.env', command: 'NPM_TOKEN', warning: "looks like a secret: its value would be given to the repository's code and the agent" },
    ],
  },
};

/** A repository without a workflow file (detection finds a Go module there). */
export const GO_REPO = '/home/dev/code/http-kit';

/** What detection answers for the fixture repository (npm) and for any other folder (a Go module). */
export function makeDetected(repo: string): MethodOutput<'project.detect'> {
  if (repo === REPO) {
    return {
      found: [{ ecosystem: 'node', label: 'npm', evidence: ['package.json', 'package-lock.json'] }],
      setup: [{ run: 'npm ci', why: 'package-lock.json: installs exactly the locked versions' }],
      network: [{ entry: 'registry:npm', why: 'npm installs packages from the registry your npm configuration names' }],
      gates: [{ name: 'test', run: 'npm test', why: 'package.json scripts.test: vitest run' }],
      copy: [{ glob: '.env', why: '.env.example is committed and your checkout has its own .env, which git ignores' }],
      notes: [],
    };
  }
  return {
    found: [{ ecosystem: 'go', label: 'Go modules', evidence: ['go.mod', 'go.sum'] }],
    setup: [{ run: 'go mod download', why: 'go.mod requires modules: downloaded once with the module proxy reachable, so the gate builds offline' }],
    network: [{ entry: 'registry:go', why: 'go downloads modules through the proxy `go env GOPROXY` names' }],
    gates: [{ name: 'test', run: 'go test ./...', why: "go.mod: every package's tests" }],
    copy: [],
    notes: [],
  };
}

/** A baseline check's answer: ready, with one test already failing on the base commit. */
export function makeBaseline(now: number): MethodOutput<'project.baseline'> {
  const at = new Date(now).toISOString();
  return {
    commit: '3c9e0b1f5a7d2e84c6b0a9f1d3e5c7b9a1f2e4d6',
    ready: true,
    problem: null,
    setup: { outcome: 'ok', durationMs: 14_200, at, note: 'the worktree was made', message: null, outputTail: 'added 212 packages in 13s' },
    gates: [
      {
        gate: 'test',
        command: 'npm test',
        passed: false,
        exitCode: 1,
        timedOut: false,
        durationMs: 3_100,
        errorClass: 'test_failure',
        message: '1 test failed',
        failingTests: ['player > heals up to max health'],
        outputTail: ' FAIL  test/player.test.ts > player > heals up to max health',
      },
    ],
    failingTests: ['test: player > heals up to max health'],
    durationMs: 17_900,
    at,
  };
}

export const DRAFT: MethodOutput<'plans.draft'> = {
  steps: [
    { title: 'Read the current save format', prompt: 'Find where the game state is serialised and list its fields.' },
    { title: 'Add a versioned save schema', prompt: 'Introduce SaveV2 with a version field and a migration from v1, with tests.' },
    { title: 'Write saves atomically', prompt: 'Write to a temp file and rename, so a crash never leaves a half-written save.' },
  ],
  markdown:
    '# Plan: versioned, atomic saves\n\n1. **Read the current save format** — find where the game state is serialised and list its fields.\n2. **Add a versioned save schema** — SaveV2 with a `version` field and a migration from v1, with tests.\n3. **Write saves atomically** — temp file + rename, so a crash never leaves a half-written save.\n',
};

export const APP_INFO: MethodOutput<'app.info'> = { version: '0.1.0', host: 'electron', demo: true, home: HOME };
