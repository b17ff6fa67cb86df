// A running run's progress as the runs list says it ("step 2 · gate test · 1 min"), kept live from the engine's events.
import type { EngineEventDoc, RunSummary } from '../../../shared/contract';
import { payloadOf } from '../../../shared/engine-events';

/** What a running run is doing, as far as the events seen since the app opened tell. */
export interface RunLive {
  step: number;
  /** 'agent' while the agent works, a gate's name while it runs, null between the two. */
  doing: string | null;
  /** When the current step started (ISO). */
  since: string;
}

/** The map of live runs with the event applied (the same object when the event says nothing about progress). */
export function patchLive(live: Readonly<Record<string, RunLive>>, e: EngineEventDoc): Readonly<Record<string, RunLive>> {
  const was = live[e.runId];
  const put = (next: RunLive) => ({ ...live, [e.runId]: next });
  const step = payloadOf('step.started', e);
  if (step) return put({ step: step.step, doing: null, since: e.at });
  const attempt = payloadOf('attempt.started', e);
  if (attempt) return put({ step: attempt.step, doing: 'agent', since: was && was.step === attempt.step ? was.since : e.at });
  const gate = payloadOf('gate.started', e);
  if (gate && was) return put({ ...was, doing: `gate ${gate.gate}` });
  if ((payloadOf('gate.finished', e) || payloadOf('attempt.finished', e)) && was) return put({ ...was, doing: null });
  const status = payloadOf('run.status', e);
  if (status && status.status !== 'running' && was) {
    const rest = { ...live };
    delete rest[e.runId];
    return rest;
  }
  return live;
}

/** A span in the list's words: seconds under a minute, then whole minutes, then hours. */
function span(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  return m < 60 ? `${m} min` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

/**
 * "step 2 · gate test · 1 min": the step it is on, what runs in it (when an event said so), and for how long. Without a
 * live event the step is the first not done and the time counts from the run's last update (a step's commit).
 */
export function runProgress(r: Pick<RunSummary, 'status' | 'stepsDone' | 'stepsTotal' | 'updatedAt'>, live: RunLive | undefined, now: number): string | null {
  if (r.status !== 'running') return null;
  const step = live?.step ?? Math.min(r.stepsTotal, r.stepsDone + 1);
  const since = Date.parse(live?.since ?? r.updatedAt);
  return [`step ${step}`, live?.doing ?? null, Number.isNaN(since) ? null : span(now - since)].filter(Boolean).join(' · ');
}
