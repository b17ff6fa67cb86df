// The targeted patches: pure functions that apply one engine event to the runs list, a status document or a run's detail.
import type { AttemptDetail, EngineEventDoc, RunSummary } from '../../../shared/contract';
import type { AttemptDoc, StatusDocument, StepDoc } from '../../../shared/domain';
import { payloadOf } from './event-payloads';

export const attemptKey = (step: number, n: number): string => `${step}:${n}`;

export function parseAttemptKey(key: string): { step: number; n: number } {
  const [s, n] = key.split(':').map(Number);
  return { step: s ?? 0, n: n ?? 0 };
}

// ---- runs list ----------------------------------------------------------------------------------------------------

/** Patches the list item of the event's run; `reload` asks for runs.list when the list cannot be patched (a new run). */
export function patchRunList(list: RunSummary[], e: EngineEventDoc): { list: RunSummary[]; reload: boolean } {
  if (e.type === 'run.created') return { list, reload: !list.some((r) => r.id === e.runId) };
  const i = list.findIndex((r) => r.id === e.runId);
  if (i === -1) return { list, reload: e.type === 'run.status' };
  const item = list[i] as RunSummary;
  const next = patchSummary(item, e);
  if (next === item) return { list, reload: false };
  const copy = list.slice();
  copy[i] = next;
  return { list: copy, reload: false };
}

function patchSummary(item: RunSummary, e: EngineEventDoc): RunSummary {
  const status = payloadOf('run.status', e);
  if (status) return { ...item, status: status.status, reason: status.reason, reasonCode: status.reasonCode, wakeAt: status.wakeAt, updatedAt: e.at };
  if (payloadOf('step.committed', e) || payloadOf('step.adopted', e)) {
    return { ...item, stepsDone: Math.min(item.stepsTotal, item.stepsDone + 1), updatedAt: e.at };
  }
  if (payloadOf('step.demoted', e)) return { ...item, stepsDone: Math.max(0, item.stepsDone - 1), updatedAt: e.at };
  const usage = payloadOf('api.usage', e);
  if (usage) {
    const costUsd = item.costUsd === null || usage.costUsd === null ? null : item.costUsd + usage.costUsd;
    return { ...item, costUsd };
  }
  const plan = payloadOf('plan.revised', e);
  if (plan) return { ...item, stepsTotal: plan.steps };
  return item;
}

// ---- status document ----------------------------------------------------------------------------------------------

function mapStep(doc: StatusDocument, index: number, fn: (s: StepDoc) => StepDoc): StatusDocument {
  const i = doc.steps.findIndex((s) => s.index === index);
  if (i === -1) return doc;
  const steps = doc.steps.slice();
  steps[i] = fn(steps[i] as StepDoc);
  return { ...doc, steps };
}

function mapAttempt(doc: StatusDocument, step: number, n: number, fn: (a: AttemptDoc) => AttemptDoc): StatusDocument {
  return mapStep(doc, step, (s) => {
    const i = s.attempts.findIndex((a) => a.n === n);
    if (i === -1) return s;
    const attempts = s.attempts.slice();
    attempts[i] = fn(attempts[i] as AttemptDoc);
    return { ...s, attempts };
  });
}

/** `at` is the attempt the event's attemptId belongs to (events other than attempt.started and decision carry only the row id). */
export function patchStatusDoc(doc: StatusDocument, e: EngineEventDoc, at: { step: number; n: number } | null): StatusDocument {
  const status = payloadOf('run.status', e);
  if (status) return { ...doc, status: status.status, reason: status.reason, reasonCode: status.reasonCode };
  const started = payloadOf('step.started', e);
  if (started) return mapStep(doc, started.step, (s) => ({ ...s, status: 'running' }));
  const stepStatus = payloadOf('step.status', e);
  if (stepStatus) return mapStep(doc, stepStatus.step, (s) => ({ ...s, status: stepStatus.status }));
  const committed = payloadOf('step.committed', e) ?? payloadOf('step.adopted', e);
  if (committed) return mapStep(doc, committed.step, (s) => ({ ...s, status: 'succeeded', commit: committed.commit }));
  const demoted = payloadOf('step.demoted', e);
  if (demoted) return mapStep(doc, demoted.step, (s) => ({ ...s, status: 'pending', commit: null }));
  const aStarted = payloadOf('attempt.started', e);
  if (aStarted) {
    return mapStep(doc, aStarted.step, (s) => {
      const fresh: AttemptDoc = {
        n: aStarted.n,
        outcome: 'running',
        errorClass: null,
        model: aStarted.model,
        inputTokens: 0,
        outputTokens: 0,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        costUsd: 0,
        decision: null,
        fingerprint: null,
        round: aStarted.round,
      };
      const attempts = s.attempts.some((a) => a.n === aStarted.n) ? s.attempts : [...s.attempts, fresh];
      return { ...s, status: 'running', attempts };
    });
  }
  const finished = payloadOf('attempt.finished', e);
  if (finished && at) return mapAttempt(doc, at.step, at.n, (a) => ({ ...a, outcome: finished.outcome, errorClass: finished.errorClass }));
  const decision = payloadOf('decision', e);
  if (decision) {
    const { action, reason, delayS, overrides } = decision;
    return mapAttempt(doc, decision.step, decision.n, (a) => ({
      ...a,
      decision: { action, reason, delayS, overrides },
      fingerprint: decision.fingerprint ?? a.fingerprint,
    }));
  }
  const usage = payloadOf('api.usage', e);
  if (usage && at) {
    const add = (x: number | null, y: number | null) => (x === null || y === null ? null : x + y);
    const patched = mapAttempt(doc, at.step, at.n, (a) => ({
      ...a,
      inputTokens: a.inputTokens + usage.inputTokens,
      outputTokens: a.outputTokens + usage.outputTokens,
      cacheReadTokens: a.cacheReadTokens + usage.cacheReadTokens,
      cacheWriteTokens: a.cacheWriteTokens + usage.cacheWriteTokens,
      costUsd: add(a.costUsd, usage.costUsd),
    }));
    return { ...patched, costUsd: add(doc.costUsd, usage.costUsd), resumes: addToResume(doc.resumes, e.at, usage) };
  }
  return doc;
}

/** Usage spent at `at` counts toward the retry or resume in force then (the last one at or before it): its "$… after". */
function addToResume(
  resumes: StatusDocument['resumes'],
  at: string,
  u: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number; costUsd: number | null },
): StatusDocument['resumes'] {
  let i = -1;
  for (let k = 0; k < resumes.length; k++) if (Date.parse(resumes[k]!.at) <= Date.parse(at)) i = k;
  if (i === -1) return resumes;
  const copy = resumes.slice();
  const r = copy[i]!;
  copy[i] = {
    ...r,
    inputTokens: r.inputTokens + u.inputTokens,
    outputTokens: r.outputTokens + u.outputTokens,
    cacheReadTokens: r.cacheReadTokens + u.cacheReadTokens,
    cacheWriteTokens: r.cacheWriteTokens + u.cacheWriteTokens,
    // An unknown price adds nothing here: the run's total already shows it as unknown.
    costUsd: r.costUsd + (u.costUsd ?? 0),
  };
  return copy;
}

// ---- attempt detail -----------------------------------------------------------------------------------------------

/** What a live event changes in an attempt's loaded detail. Output text and parsed tests arrive with the next fetch. */
export function patchAttemptDetail(d: AttemptDetail, e: EngineEventDoc, gateCommand: string | null): AttemptDetail {
  const gate = payloadOf('gate.finished', e);
  if (gate) {
    const existing = d.gates.find((g) => g.gate === gate.gate);
    const doc = {
      gate: gate.gate,
      command: existing?.command ?? gateCommand ?? '',
      passed: gate.passed,
      exitCode: gate.exitCode,
      signal: existing?.signal ?? null,
      timedOut: gate.timedOut,
      durationMs: gate.durationMs,
      output: existing?.output ?? '',
      outputBytes: existing?.outputBytes ?? 0,
      failures: existing?.failures ?? [],
    };
    const gates = existing ? d.gates.map((g) => (g === existing ? doc : g)) : [...d.gates, doc];
    return { ...d, gates };
  }
  const entry = payloadOf('agent.transcript', e);
  if (entry) {
    const { attemptId: _attemptId, ...rest } = entry;
    return { ...d, transcript: [...d.transcript, rest] };
  }
  const finished = payloadOf('attempt.finished', e);
  if (finished) return { ...d, outcome: finished.outcome, errorClass: finished.errorClass, finishedAt: finished.finishedAt ?? e.at };
  const decision = payloadOf('decision', e);
  if (decision) {
    const { action, reason, delayS, overrides } = decision;
    return { ...d, decision: { action, reason, delayS, overrides } };
  }
  const usage = payloadOf('api.usage', e);
  if (usage) {
    return {
      ...d,
      inputTokens: d.inputTokens + usage.inputTokens,
      outputTokens: d.outputTokens + usage.outputTokens,
      cacheReadTokens: d.cacheReadTokens + usage.cacheReadTokens,
      cacheWriteTokens: d.cacheWriteTokens + usage.cacheWriteTokens,
      costUsd: d.costUsd === null || usage.costUsd === null ? null : d.costUsd + usage.costUsd,
    };
  }
  return d;
}
