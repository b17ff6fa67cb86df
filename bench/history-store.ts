// Builds benchmark stores quickly: runs written through the Store's own methods (rows, texts, events, summary triggers),
// all in one transaction, with realistic prompts, transcripts, diffs and gate logs.
import { WorkflowFile } from '../electron/engine/workflow/schema';
import { newId, type Store } from '../electron/engine/store/store';
import { realisticDiff, realisticGateLog, realisticPrompt, realisticTranscript } from './realistic';

/** Writes `runs` runs of `steps` steps (one failed attempt then a passing one every 4th step) spread over `days` days. */
export function fillRuns(
  store: Store,
  opts: { runs: number; steps?: number; days?: number; transcriptBytes?: number; setClock: (t: number) => void; end: number },
): void {
  const steps = opts.steps ?? 2;
  const days = opts.days ?? 30;
  const transcripts = Array.from({ length: 8 }, (_, k) => realisticTranscript(k, opts.transcriptBytes ?? 30_000));
  const diffs = Array.from({ length: 8 }, (_, k) => realisticDiff(k));
  const logs = Array.from({ length: 8 }, (_, k) => realisticGateLog(k));
  const prompts = Array.from({ length: 8 }, (_, k) => realisticPrompt(k));
  store.tx(() => {
    for (let r = 0; r < opts.runs; r++) {
      opts.setClock(opts.end - days * 86_400_000 + Math.floor((r * days * 86_400_000) / opts.runs));
      const runId = newId() + r.toString(36);
      store.createRun({
        runId,
        repoPath: `/repo/${r % 7}`,
        repoName: `repo${r % 7}`,
        title: `Task ${r}`,
        description: 'A task.',
        workflow: WorkflowFile.parse({
          gates: { test: 'npm test' },
          steps: Array.from({ length: steps }, (_, i) => ({ title: `step ${i + 1}`, gates: ['test'] })),
        }),
        baseBranch: 'main',
        baseCommit: '0'.repeat(40),
        branch: `ratchet/r-${runId}`,
        worktree: `/tmp/wt-${runId}`,
      });
      store.setRunStatus(runId, 'running', null);
      for (let s = 1; s <= steps; s++) {
        const tries = (r + s) % 4 === 0 ? 2 : 1;
        for (let n = 1; n <= tries; n++) {
          const k = (r + s + n) % 8;
          const id = store.startAttempt({
            runId,
            stepIndex: s,
            n,
            agentKind: 'anthropic',
            model: 'claude-sonnet-5-5',
            prompt: prompts[k] as string,
            preCommit: 'a'.repeat(40),
          });
          store.recordApiCall(runId, id, {
            model: 'claude-sonnet-5-5',
            inputTokens: 9000,
            outputTokens: 800,
            cacheReadTokens: 6000,
            cacheWriteTokens: 900,
            costUsd: 0.041,
          });
          const passed = n === tries;
          store.recordGate(runId, id, {
            gate: 'test',
            command: 'npm test',
            passed,
            exitCode: passed ? 0 : 1,
            signal: null,
            timedOut: false,
            durationMs: 1200,
            output: logs[k] as string,
            outputBytes: (logs[k] as string).length,
            failures: [],
          });
          const finish = {
            errorClass: null,
            errorMessage: null,
            summary: `step ${s}`,
            treeRef: null,
            treeSha: null,
            diff: diffs[k] as string,
            failures: [],
            transcript: transcripts[k] as unknown[],
            sessionId: null,
          };
          if (passed) store.checkpointStep(runId, id, s, { ...finish, outcome: 'passed' }, 'c'.repeat(40));
          else {
            store.finishAttempt(runId, id, { ...finish, outcome: 'failed', errorClass: 'test_failure', errorMessage: 'not ok 61' });
            store.recordDecision(runId, id, s, n, { action: 'retry', reason: 'test failure', delayS: 0, overrides: {} });
          }
        }
      }
      store.setRunStatus(runId, 'succeeded', null, { finished: true });
    }
  });
}
