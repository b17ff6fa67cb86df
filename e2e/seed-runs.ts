// e2e: many runs in every state, written into a RATCHET_HOME through the store's own methods before the host starts,
// with the reasons the engine itself writes (a budget pause, a failure with its attempts summary and next steps, an
// interruption found by the host), so the screenshot sweep sees a busy store, not three runs.
import { hostname } from 'node:os';
import { markInterrupted } from '../electron/engine/lifecycle/run-list';
import { attemptsSummary } from '../electron/engine/failures/attempt-summary';
import { checkBudget } from '../electron/engine/policy/budget';
import { runEndReason } from '../electron/engine/run/run-reasons';
import { openDatabase } from '../electron/engine/store/open-store';
import { BLANK_FINISH } from '../electron/engine/store/testing/blank-finish';
import { newId, Store } from '../electron/engine/store/store';
import { WorkflowFile } from '../electron/engine/workflow/schema';

type Fate =
  | 'succeeded'
  | 'failed'
  | 'paused'
  | 'interrupted'
  | 'cancelled'
  | 'waiting_approval'
  /** Test first: step 1's first attempt wrote a test that failed as it should (red: the module it calls is missing), the next passed. */
  | 'tdd'
  /** Test first, broken: the test attempts passed with the new test in place, twice; the run failed at step 1. */
  | 'tdd_violation'
  /** Stopped before step 1 ever started: nothing to resume or skip. */
  | 'cancelled_unstarted';

/** The seeded test-first runs (their step 1 is test first), for the screenshot sweep. */
export const TDD_TITLE = 'Slugify titles for URLs, test first';
export const TDD_VIOLATION_TITLE = 'Parse durations like 1h30m, test first';

/** The one seeded run started without checks (`--no-gates`): the rest have a gate, as runs do, so only it reads "unchecked". */
export const UNCHECKED_TITLE = 'Dark mode toggle that follows the OS';

const TASKS: Array<[repo: string, title: string, fate: Fate]> = [
  ['space-game', 'Add health to Player', 'succeeded'],
  ['space-game', 'Emit a died signal at zero health', 'failed'],
  ['space-game', 'Emit a died signal at zero health', 'succeeded'],
  ['space-game', 'Save games atomically, with a versioned schema', 'interrupted'],
  ['http-kit', 'Rate limiter for the API client, with a token bucket and jittered refill', 'paused'],
  ['http-kit', 'Fix the flaky websocket reconnect', 'failed'],
  ['http-kit', 'Surface 429s to the caller', 'succeeded'],
  ['http-kit', 'Retry idempotent requests once', 'cancelled'],
  ['ledger', 'Add CSV export to reports', 'waiting_approval'],
  ['ledger', 'Round money half to even everywhere', 'failed'],
  ['ledger', 'Paginate the transactions endpoint', 'succeeded'],
  ['ledger', 'Migrate the config loader to zod', 'interrupted'],
  ['dashboard-web', 'Upgrade to React 19', 'paused'],
  ['dashboard-web', 'Dark mode toggle that follows the OS', 'succeeded'],
  ['dashboard-web', 'Replace moment with date-fns', 'failed'],
  ['dashboard-web', 'Lazy-load the charts', 'succeeded'],
  ['parser', 'Report line and column in syntax errors', 'succeeded'],
  ['parser', 'Accept trailing commas in arrays and objects', 'interrupted'],
  ['parser', 'Fuzz the tokenizer for a minute in CI', 'cancelled'],
  ['parser', 'Speed up the lexer on long strings', 'succeeded'],
  ['space-game', 'Pause menu with resume and quit', 'succeeded'],
  ['http-kit', 'Stream response bodies', 'failed'],
  ['ledger', 'Import OFX statements', 'succeeded'],
  ['dashboard-web', 'Keyboard shortcuts for the main views', 'succeeded'],
  // A busier store (issue 34 item 10's tour: ~50 runs in every state): more of each, test-first runs, a run stopped
  // before it started.
  ['http-kit', TDD_TITLE, 'tdd'],
  ['parser', TDD_VIOLATION_TITLE, 'tdd_violation'],
  ['ledger', 'Reconcile bank feeds nightly', 'cancelled_unstarted'],
  ['space-game', 'Inventory with stackable items', 'succeeded'],
  ['space-game', 'Save slots with thumbnails', 'failed'],
  ['space-game', 'Gamepad rumble on damage', 'paused'],
  ['space-game', 'Frame-rate independent physics', 'interrupted'],
  ['http-kit', 'Connection pool with idle timeout', 'succeeded'],
  ['http-kit', 'Follow redirects up to a limit', 'succeeded'],
  ['http-kit', 'Gzip request bodies over 1 KB', 'waiting_approval'],
  ['http-kit', 'Proxy support from the environment', 'failed'],
  ['ledger', 'Multi-currency balances', 'succeeded'],
  ['ledger', 'Audit log for every edit', 'failed'],
  ['ledger', 'Budgets per category', 'cancelled'],
  ['ledger', 'Recurring transactions', 'succeeded'],
  ['dashboard-web', 'Sticky table headers', 'succeeded'],
  ['dashboard-web', 'Export a chart as PNG', 'interrupted'],
  ['dashboard-web', 'Empty states for every widget', 'succeeded'],
  ['dashboard-web', 'Remember the last filter', 'paused'],
  ['parser', 'Unicode escapes in strings', 'succeeded'],
  ['parser', 'Error recovery after a missing brace', 'failed'],
  ['parser', 'Pretty-print with stable key order', 'succeeded'],
  ['parser', 'Stream large inputs in chunks', 'waiting_approval'],
];

/** Writes the runs into `home` (its store is created if needed); clocks run up to `end`, newest last. */
export function seedRuns(home: string, end = Date.now()): string[] {
  let t = end - TASKS.length * 40 * 60_000;
  const { db } = openDatabase(home);
  const store = new Store(db, () => new Date(t));
  const ids: string[] = [];
  const tick = (s: number) => (t += s * 1000);
  for (const [repoName, title, fate] of TASKS) {
    tick(30 * 60);
    const runId = newId();
    ids.push(runId);
    const slug = title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60);
    const steps = [{ title: 'Write the failing test first' }, { title: title.length > 40 ? 'Make it pass' : title }, { title: 'Document it' }];
    const testFirst = fate === 'tdd' || fate === 'tdd_violation';
    const worktree = `/tmp/ratchet-e2e-seeded/${runId}`;
    store.createRun({
      runId,
      repoPath: `/home/dev/code/${repoName}`,
      repoName,
      title,
      description: '',
      workflow: WorkflowFile.parse(
        title === UNCHECKED_TITLE
          ? { steps }
          : {
              gates: { test: 'npm test' },
              steps: testFirst ? steps.map((st, i) => (i === 0 ? { ...st, tdd: true } : st)) : steps,
              // A run paused at its budget had one: the header's meter says "of $0.05", not "no budget".
              ...(fate === 'paused' ? { budget: { task_usd: 0.05 } } : {}),
            },
      ),
      baseBranch: 'main',
      baseCommit: '3c9e0b1f5a7d2e84c6b0a9f1d3e5c7b9a1f2e4d6',
      branch: `ratchet/${slug}-${runId.slice(-6)}`,
      worktree,
    });
    if (fate === 'cancelled_unstarted') {
      store.setRunStatus(runId, 'cancelled', 'Stopped by you before step 1 started. Nothing was changed.', { finished: true, code: 'stopped_by_user' });
      continue;
    }
    store.setRunStatus(runId, 'running', null);
    const attempt = (step: number, n: number, cost: number) => {
      tick(20);
      const id = store.startAttempt({
        runId,
        stepIndex: step,
        n,
        agentKind: 'anthropic',
        model: 'claude-sonnet-5-5',
        prompt: `step ${step}`,
        preCommit: 'a'.repeat(40),
      });
      tick(40);
      store.recordApiCall(runId, id, {
        model: 'claude-sonnet-5-5',
        inputTokens: 4200,
        outputTokens: 610,
        cacheReadTokens: 9000,
        cacheWriteTokens: 1200,
        costUsd: cost,
      });
      return id;
    };
    const finish = BLANK_FINISH;
    const pass = (step: number, n: number, cost: number) =>
      store.checkpointStep(runId, attempt(step, n, cost), step, { ...finish, outcome: 'passed' }, 'c'.repeat(40));
    const gate = (id: number, passed: boolean, output: string, failures: unknown[]) =>
      store.recordGate(runId, id, {
        gate: 'test',
        command: 'npm test',
        passed,
        exitCode: passed ? 0 : 1,
        signal: null,
        timedOut: false,
        durationMs: 1840,
        output,
        outputBytes: output.length,
        failures,
      });
    if (fate === 'tdd') {
      // The test attempt: node's runner names a test file that cannot load by its absolute path; the cause is in the output.
      const red = attempt(1, 1, 0.0098);
      const file = `${worktree}/test/slug.test.mjs`;
      const output = [
        `✖ ${file} (38.5ms)`,
        `  Error: Cannot find module '${worktree}/src/slug.mjs' imported from ${file}`,
        '      at finalizeResolution (node:internal/modules/esm/resolve:265:11)',
        'ℹ tests 1',
        'ℹ pass 0',
        'ℹ fail 1',
        '',
      ].join('\n');
      const failures = [{ name: file, message: null, expected: null, actual: null, file, line: null }];
      gate(red, false, output, failures);
      store.finishAttempt(runId, red, { ...BLANK_FINISH, outcome: 'red', summary: 'test/slug.test.mjs fails as it should', failures });
      pass(1, 2, 0.0117);
      pass(2, 1, 0.0187);
      pass(3, 1, 0.0042);
      store.setRunStatus(runId, 'succeeded', null, { finished: true });
      continue;
    }
    if (fate === 'tdd_violation') {
      for (const n of [1, 2]) {
        const id = attempt(1, n, 0.0102);
        gate(id, true, 'ℹ tests 4\nℹ pass 4\nℹ fail 0\n', []);
        store.finishAttempt(runId, id, {
          ...BLANK_FINISH,
          outcome: 'failed',
          errorClass: 'tdd_violation',
          errorMessage:
            "test first: the gates passed with your new test in place (test/duration.test.mjs): the test must fail until the step's change is made — make it check what this step adds, and leave the implementation (revert it if you wrote it) for the next attempt",
        });
        store.recordDecision(
          runId,
          id,
          1,
          n,
          n === 1
            ? { action: 'retry', reason: 'tdd_violation: retry 1 of 1', delayS: 0, overrides: {} }
            : { action: 'fatal', reason: 'tdd_violation: limit of 1 retry reached', delayS: 0, overrides: {} },
        );
      }
      store.setStepStatus(runId, 1, 'failed');
      store.setRunStatus(
        runId,
        'failed',
        runEndReason(
          {
            kind: 'fatal',
            errorClass: 'tdd_violation',
            reason: `step 1 "${steps[0]!.title}" failed: TDD violation: limit of 1 retry reached`,
            summary: attemptsSummary(
              [1, 2].map((n) => ({
                n,
                outcome: 'failed',
                errorClass: 'tdd_violation',
                message: 'the gates passed with the new test in place',
                failedTests: [],
              })),
              [],
            ),
          },
          '',
          { runId, committedSteps: 0 },
        ),
        { finished: true, code: 'step_failed' },
      );
      continue;
    }
    pass(1, 1, 0.0123);
    if (fate === 'succeeded' || fate === 'cancelled') {
      if (fate === 'succeeded') {
        pass(2, 1, 0.0187);
        pass(3, 1, 0.0042);
        store.setRunStatus(runId, 'succeeded', null, { finished: true });
      } else
        store.setRunStatus(
          runId,
          'cancelled',
          'Stopped by you during step 2. The work in progress stays in the worktree; resume to continue, or start again.',
          { finished: true, code: 'stopped_by_user' },
        );
    } else if (fate === 'failed') {
      const tests = ['test/health.test.mjs › dies at zero health'];
      for (const n of [1, 2]) {
        const id = attempt(2, n, 0.0211);
        store.finishAttempt(runId, id, { ...finish, outcome: 'failed', errorClass: 'test_failure', errorMessage: '1 test failed', failures: [] });
        store.recordDecision(
          runId,
          id,
          2,
          n,
          n === 1
            ? { action: 'retry', reason: 'test_failure: retry 1 of 1', delayS: 0, overrides: {} }
            : { action: 'fatal', reason: 'test_failure: limit of 1 retry reached', delayS: 0, overrides: {} },
        );
      }
      store.setStepStatus(runId, 2, 'failed');
      const summary = attemptsSummary(
        [1, 2].map((n) => ({ n, outcome: 'failed', errorClass: 'test_failure', message: '1 test failed', failedTests: tests })),
        ['test_failure: dies at zero health: Expected 0, got 5'],
      );
      store.setRunStatus(
        runId,
        'failed',
        runEndReason(
          { kind: 'fatal', errorClass: 'test_failure', reason: `step 2 "${steps[1]!.title}" failed: test failure: limit of 1 retry reached`, summary },
          '',
          { runId, committedSteps: 1 },
        ),
        { finished: true, code: 'step_failed' },
      );
    } else if (fate === 'paused') {
      attempt(2, 1, 0.0311);
      const verdict = checkBudget({
        taskUsd: 0.05,
        dailyUsd: null,
        alertAt: 0.8,
        taskSpent: 0.0512,
        daySpent: 0,
        alerted: { task: true, daily: false },
        runId,
      });
      store.setRunStatus(runId, 'paused', verdict.ok ? 'paused' : verdict.reason, { code: 'task_budget' });
    } else if (fate === 'waiting_approval') {
      store.restoreRunStatus(
        runId,
        'waiting_approval',
        `The agent drafted this plan; nothing runs until you approve it (\`ratchet resume ${runId} --approve\`, or Approve in the app).`,
        { code: 'plan_awaiting_approval' },
      );
    } else {
      // Interrupted: its process died in step 2's attempt; the host finds it on its first list.
      attempt(2, 1, 0.0096);
      store.claimRun(runId, 2 ** 22 + 4242, hostname());
    }
  }
  tick(60);
  markInterrupted(store, { pid: process.pid, host: hostname() }, t);
  db.close();
  return ids;
}
