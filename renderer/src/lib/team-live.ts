// A followed team run's engine events (its workflow's stream) folded into what its screen shows live: each attempt with
// the worker that ran it, its gates as they start and finish, and the agent's transcript. Pure.
import type { EngineEventDoc } from '../../../shared/contract';
import { payloadOf } from '../../../shared/engine-events';

type Entry = { kind: 'text' | 'tool_use' | 'tool_result' | 'error' | 'info'; text: string; name?: string; input?: unknown; isError?: boolean };

export interface LiveGate {
  gate: string;
  state: 'running' | 'passed' | 'failed';
  exitCode: number | null;
  durationMs: number;
  timedOut: boolean;
}

export interface LiveAttempt {
  step: number;
  n: number;
  worker: string;
  model: string | null;
  gates: LiveGate[];
  transcript: Entry[];
  /** The attempt's outcome once it finished (passed, failed, …); null while it runs. */
  outcome: string | null;
}

export function liveAttempts(events: ReadonlyArray<{ worker: string; event: EngineEventDoc }>): LiveAttempt[] {
  const out: LiveAttempt[] = [];
  // An attempt's id is its worker's store's: the same number on two workers is two attempts.
  const byId = new Map<string, LiveAttempt>();
  const latest = new Map<string, LiveAttempt>();
  const of = (worker: string, attemptId: number | undefined): LiveAttempt | undefined =>
    (attemptId !== undefined ? byId.get(`${worker}:${attemptId}`) : undefined) ?? latest.get(worker);
  for (const { worker, event } of events) {
    const started = payloadOf('attempt.started', event);
    if (started) {
      const a: LiveAttempt = { step: started.step, n: started.n, worker, model: started.model, gates: [], transcript: [], outcome: null };
      out.push(a);
      latest.set(worker, a);
      if (started.attemptId !== undefined) byId.set(`${worker}:${started.attemptId}`, a);
      continue;
    }
    const said = payloadOf('agent.transcript', event);
    if (said) {
      const { attemptId, ...entry } = said;
      of(worker, attemptId)?.transcript.push(entry);
      continue;
    }
    const gs = payloadOf('gate.started', event);
    if (gs) {
      of(worker, gs.attemptId)?.gates.push({ gate: gs.gate, state: 'running', exitCode: null, durationMs: 0, timedOut: false });
      continue;
    }
    const gf = payloadOf('gate.finished', event);
    if (gf) {
      const a = of(worker, gf.attemptId);
      if (!a) continue;
      const done: LiveGate = { gate: gf.gate, state: gf.passed ? 'passed' : 'failed', exitCode: gf.exitCode, durationMs: gf.durationMs, timedOut: gf.timedOut };
      const i = a.gates.findLastIndex((g) => g.gate === gf.gate && g.state === 'running');
      if (i >= 0) a.gates[i] = done;
      else a.gates.push(done);
      continue;
    }
    const fin = payloadOf('attempt.finished', event);
    if (fin) {
      const a = of(worker, fin.attemptId);
      if (a) a.outcome = fin.outcome;
    }
  }
  return out;
}
