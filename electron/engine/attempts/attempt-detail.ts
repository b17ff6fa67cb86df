// What runs.attempt answers about one attempt: its row, texts and gate results, with expected and got read from a
// failure's own message when the gate's parser left them empty (older attempts, hand-written messages), by the same parser.
import type { MethodOutput } from '../../../shared/contract';
import { headOf } from '../../../shared/line-index';
import { RatchetError } from '../errors';
import type { GateLogCache } from './gate-log';
import { extractExpectedActual } from '../gates/failure-text';
import type { AttemptRow, Store } from '../store/store';

interface HasValues {
  message?: string | null;
  expected?: string | null;
  actual?: string | null;
}

const isFailure = (f: unknown): f is HasValues => typeof f === 'object' && f !== null && !Array.isArray(f);

/** The failures with expected/actual filled from their message where both are missing and the message has them. */
export function withExpectedActual<T>(failures: readonly T[]): T[] {
  return failures.map((f) => {
    if (!isFailure(f) || f.expected != null || f.actual != null || !f.message) return f;
    const { expected, actual } = extractExpectedActual(f.message);
    return expected === null && actual === null ? f : { ...f, expected, actual };
  });
}

/** Attempt `n` of a run's step, or the one refusal every attempt method gives when there is none. */
export function findAttempt(store: Store, runId: string, step: number, n: number, rows = store.getAttempts(runId, step)): AttemptRow {
  const a = rows.find((x) => x.n === n);
  if (!a) throw new RatchetError('run_not_found', `Run ${runId} has no attempt ${n} at step ${step}.`);
  return a;
}

/** The attempt as the contract shows it; with `outputHeadLines`, each gate's output cut to its first lines (the log is indexed once, in `gateLogs`). */
export function attemptDetail(
  store: Store,
  gateLogs: GateLogCache,
  runId: string,
  step: number,
  n: number,
  outputHeadLines?: number,
): MethodOutput<'runs.attempt'> {
  const a = findAttempt(store, runId, step, n);
  const gates = store.getGateResults(a.id).map(({ id: _id, ...stored }) => {
    const g = { ...stored, failures: withExpectedActual(stored.failures) };
    // A recorded gate result never changes: its log is indexed once and kept for the pages that follow.
    return outputHeadLines === undefined ? g : headOf(g, outputHeadLines, gateLogs.get(`${a.id}:${g.gate}`, () => g.output) ?? undefined);
  });
  const texts = store.getAttemptTexts(a.id);
  return {
    runId,
    step,
    n,
    outcome: a.outcome,
    errorClass: a.error_class,
    errorMessage: a.error_message,
    model: a.model,
    agentKind: a.agent_kind,
    prompt: texts.prompt,
    transcript: JSON.parse(texts.transcript_json) as never,
    gates: gates as never,
    diff: texts.diff,
    decision: a.decision_json ? JSON.parse(a.decision_json) : null,
    fingerprint: a.fingerprint,
    startedAt: a.started_at,
    finishedAt: a.finished_at,
    inputTokens: a.input_tokens,
    outputTokens: a.output_tokens,
    cacheReadTokens: a.cache_read_tokens,
    cacheWriteTokens: a.cache_write_tokens,
    costUsd: a.cost_known ? a.cost_usd : null,
  };
}
