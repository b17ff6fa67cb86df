// A team run's engine events folded into its live attempts: each attempt with its worker, gates running then finished,
// the agent's transcript; two workers' attempt ids kept apart.
import { describe, expect, it } from 'vitest';
import type { EngineEventDoc } from '../../../shared/contract';
import { liveAttempts } from './team-live';

let id = 0;
const ev = (worker: string, type: string, payload: Record<string, unknown>) => ({
  worker,
  event: { id: ++id, runId: 'r', at: new Date(0).toISOString(), type, payload } satisfies EngineEventDoc,
});

describe('liveAttempts', () => {
  it('follows an attempt: started, the agent’s tool call, a gate running then failed, the outcome', () => {
    const events = [
      ev('w1', 'step.started', { step: 1 }),
      ev('w1', 'attempt.started', { attemptId: 7, step: 1, n: 1, model: 'claude-sonnet-5-5' }),
      ev('w1', 'agent.transcript', { attemptId: 7, kind: 'tool_use', text: '', name: 'bash', input: { command: 'ls' } }),
      ev('w1', 'gate.started', { attemptId: 7, gate: 'test', command: 'npm test' }),
    ];
    let [a] = liveAttempts(events);
    expect(a).toMatchObject({ step: 1, n: 1, worker: 'w1', model: 'claude-sonnet-5-5', outcome: null });
    expect(a!.transcript).toEqual([{ kind: 'tool_use', text: '', name: 'bash', input: { command: 'ls' } }]);
    expect(a!.gates).toEqual([{ gate: 'test', state: 'running', exitCode: null, durationMs: 0, timedOut: false }]);

    events.push(ev('w1', 'gate.finished', { attemptId: 7, gate: 'test', passed: false, exitCode: 1, durationMs: 1500 }));
    events.push(ev('w1', 'attempt.finished', { attemptId: 7, outcome: 'failed', errorClass: 'test_failure' }));
    [a] = liveAttempts(events);
    expect(a!.gates).toEqual([{ gate: 'test', state: 'failed', exitCode: 1, durationMs: 1500, timedOut: false }]);
    expect(a!.outcome).toBe('failed');
  });

  it('keeps the same attempt id on two workers apart (a run taken over after its worker died)', () => {
    const out = liveAttempts([
      ev('w1', 'attempt.started', { attemptId: 1, step: 2, n: 1 }),
      ev('w1', 'agent.transcript', { attemptId: 1, kind: 'text', text: 'from w1' }),
      ev('w2', 'attempt.started', { attemptId: 1, step: 2, n: 2 }),
      ev('w2', 'agent.transcript', { attemptId: 1, kind: 'text', text: 'from w2' }),
    ]);
    expect(out.map((a) => [a.worker, a.n, a.transcript.map((t) => t.text)])).toEqual([
      ['w1', 1, ['from w1']],
      ['w2', 2, ['from w2']],
    ]);
  });
});
