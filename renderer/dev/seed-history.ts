// Gives the fake runs an event history like the engine's (attempts started and finished, gates, decisions, commits), so timings and the activity log show.
import type { FakeBridge } from './fake-bridge';

export function seedHistory(fake: FakeBridge): void {
  let rowId = 500;
  for (const { doc, summary } of fake.runs.values()) {
    let t = Date.parse(summary.createdAt);
    const at = (addS: number) => {
      t += addS * 1000;
      return new Date(t).toISOString();
    };
    fake.record(
      doc.id,
      'run.created',
      { repo: doc.repo, branch: doc.branch, worktree: doc.worktree, baseCommit: doc.baseCommit, steps: doc.steps.length },
      at(0),
    );
    fake.record(doc.id, 'run.status', { status: 'running', reason: null, wakeAt: null }, at(2));
    for (const step of doc.steps) {
      if (step.attempts.length === 0) continue;
      fake.record(doc.id, 'step.started', { step: step.index, title: step.title }, at(1));
      for (const a of step.attempts) {
        const attemptId = ++rowId;
        fake.record(doc.id, 'attempt.started', { step: step.index, n: a.n, model: a.model, agent: 'anthropic' }, at(1));
        fake.record(doc.id, 'agent.transcript', { attemptId, kind: 'text', text: 'Reading the code first.' }, at(8));
        if (a.outcome === 'running') continue;
        if (a.outcome === 'interrupted') {
          fake.record(doc.id, 'log', { level: 'warn', message: 'the process stopped during this attempt' }, at(30));
          continue;
        }
        fake.record(doc.id, 'gate.started', { attemptId, gate: 'test', command: 'npm test' }, at(34 + step.index * 7 + a.n * 5));
        const passed = a.outcome === 'passed' || a.outcome === 'flaky';
        fake.record(
          doc.id,
          'gate.finished',
          { attemptId, gate: 'test', passed, exitCode: passed ? 0 : 1, timedOut: false, durationMs: 4120, failures: passed ? 0 : 1 },
          at(4),
        );
        fake.record(
          doc.id,
          'attempt.finished',
          { attemptId, outcome: a.outcome, errorClass: a.errorClass, summary: passed ? 'gates passed' : `${a.errorClass}: the gate failed` },
          at(1),
        );
        if (a.decision) {
          fake.record(doc.id, 'decision', { attemptId, step: step.index, n: a.n, ...a.decision, fingerprint: a.fingerprint }, at(0));
          t += a.decision.delayS * 1000;
        }
      }
      if (step.commit) fake.record(doc.id, 'step.committed', { step: step.index, commit: step.commit }, at(1));
    }
    if (doc.status !== 'running') fake.record(doc.id, 'run.status', { status: doc.status, reason: doc.reason, wakeAt: summary.wakeAt }, at(1));
  }
}

/** Makes the running run look alive: the agent keeps working on its current attempt. */
export function simulateLiveRun(fake: FakeBridge, runId: string): () => void {
  const run = fake.runs.get(runId);
  const attemptId = [...fake.history].reverse().find((e) => e.runId === runId && typeof e.payload.attemptId === 'number')?.payload.attemptId;
  if (!run || typeof attemptId !== 'number') return () => undefined;
  const lines = [
    { kind: 'tool_use', text: '', name: 'bash', input: { command: 'grep -rn "prefers-color-scheme" src/' } },
    { kind: 'tool_result', text: 'src/theme.css:3:@media (prefers-color-scheme: dark) {', name: 'bash' },
    { kind: 'text', text: 'The theme already follows the OS; the toggle needs to override it with a data attribute.' },
    { kind: 'tool_use', text: '', name: 'str_replace_based_edit_tool', input: { command: 'create', path: 'src/settings/ThemeToggle.tsx' } },
    { kind: 'tool_result', text: 'File created successfully at: src/settings/ThemeToggle.tsx', name: 'str_replace_based_edit_tool' },
  ];
  let i = 0;
  const timer = setInterval(() => {
    const entry = lines[i++ % lines.length]!;
    fake.engineEvent(runId, 'agent.transcript', { attemptId, ...entry });
    fake.engineEvent(runId, 'api.usage', {
      attemptId,
      model: 'claude-sonnet-5-5',
      inputTokens: 1200,
      outputTokens: 90,
      cacheReadTokens: 30_000,
      cacheWriteTokens: 0,
      costUsd: 0.0139,
    });
  }, 2500);
  return () => clearInterval(timer);
}
