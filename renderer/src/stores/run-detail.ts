// Run-detail store: per open run its status document, live attempt details, timings and log, patched from engine events.
import { create } from 'zustand';
import type { AttemptDetail, EngineEventDoc, MethodInput, MethodOutput, RunSummary } from '../../../shared/contract';
import type { StatusDocument, StepSpec } from '../../../shared/domain';
import type { z } from 'zod';
import type { TranscriptEntryDoc } from '../../../shared/contract';
import { errorMessage, getApi } from '../api/client';
import { describeEvent } from '../lib/activity';
import { payloadOf } from './event-payloads';
import { attemptKey, patchAttemptDetail, patchStatusDoc } from './patches';

type TranscriptEntry = z.output<typeof TranscriptEntryDoc>;

export interface AttemptSlot {
  status: 'loading' | 'ready' | 'error';
  detail: AttemptDetail | null;
  error: string | null;
  /** A live event changed what the engine has (gate output, diff): fetch again when shown. */
  stale: boolean;
}

export interface LiveGateOutput {
  gate: string;
  /** The newest output (bounded: older text is dropped, and counted in skippedBytes). */
  text: string;
  skippedBytes: number;
}

export interface LogLine {
  id: number;
  at: string;
  level: string;
  message: string;
}

export interface RunDetail {
  runId: string;
  status: 'loading' | 'ready' | 'error';
  error: string | null;
  doc: StatusDocument | null;
  title: string | null;
  wakeAt: string | null;
  /** Highest event id already reflected here: older events (history overlap, repeats) are ignored. */
  lastEventId: number;
  /** Engine attempt row id -> "step:n". Most events name only the row id. */
  attemptIds: Record<string, string>;
  /** The attempt that started last: row ids first seen after it belong to it, since a run's attempts are sequential. */
  current: string | null;
  timing: Record<string, { startedAt: string; finishedAt: string | null }>;
  runningGate: Record<string, { gate: string; command: string } | null>;
  /** Output of the gate running in an attempt, streamed by gate.output events; the stored result replaces it when the gate ends. */
  liveGate: Record<string, LiveGateOutput>;
  /** Transcript of the attempt under way, from events; the stored transcript replaces it once the attempt finishes. */
  liveTranscript: Record<string, TranscriptEntry[]>;
  log: LogLine[];
  attempts: Record<string, AttemptSlot>;
  /** Live events that arrived while the run was loading, applied once it has loaded. */
  queued: EngineEventDoc[];
}

const MAX_LOG = 500;
const MAX_LIVE_TRANSCRIPT = 2000;
/** Live gate output kept per attempt, in characters: the newest part of a long gate's output, until the gate ends. */
const MAX_LIVE_GATE_CHARS = 512 * 1024;
/** Events per runs.events call when a run is opened or caught up. */
const EVENT_PAGE = 2000;
/** A gate log with more lines comes as its first lines; the viewer asks for the rest as it is scrolled (runs.gateLog). */
export const GATE_HEAD_LINES = 500;

export function emptyDetail(runId: string): RunDetail {
  return {
    runId,
    status: 'loading',
    error: null,
    doc: null,
    title: null,
    wakeAt: null,
    lastEventId: 0,
    attemptIds: {},
    current: null,
    timing: {},
    runningGate: {},
    liveGate: {},
    liveTranscript: {},
    log: [],
    attempts: {},
    queued: [],
  };
}

/** Which attempt ("step:n") an event belongs to: from attempt.started's id, else learned as row ids appear (older engines). */
function resolveAttempt(d: RunDetail, e: EngineEventDoc): { key: string | null; attemptIds: Record<string, string> } {
  const decision = payloadOf('decision', e);
  if (decision) {
    const key = attemptKey(decision.step, decision.n);
    return { key, attemptIds: { ...d.attemptIds, [decision.attemptId]: key } };
  }
  // attempt.started names its row id: no guessing needed from then on.
  const started = payloadOf('attempt.started', e);
  if (started?.attemptId !== undefined) {
    const key = attemptKey(started.step, started.n);
    return { key, attemptIds: { ...d.attemptIds, [started.attemptId]: key } };
  }
  const rowId = (e.payload as { attemptId?: unknown }).attemptId;
  if (typeof rowId !== 'number') return { key: null, attemptIds: d.attemptIds };
  const known = d.attemptIds[rowId];
  if (known) return { key: known, attemptIds: d.attemptIds };
  if (!d.current) return { key: null, attemptIds: d.attemptIds };
  return { key: d.current, attemptIds: { ...d.attemptIds, [rowId]: d.current } };
}

/**
 * Applies one event to a run's detail. `replay` is for history loaded with runs.events: the status document was
 * fetched after it and already reflects it, so only what the document lacks (ids, timings, log, live transcript) is kept.
 */
export function applyDetailEvent(d: RunDetail, e: EngineEventDoc, replay = false): RunDetail {
  if (e.id <= d.lastEventId) return d;
  let next: RunDetail = { ...d, lastEventId: e.id };
  const started = payloadOf('attempt.started', e);
  if (started) {
    const key = attemptKey(started.step, started.n);
    next.current = key;
    next.timing = { ...next.timing, [key]: { startedAt: e.at, finishedAt: null } };
    next.liveTranscript = { ...next.liveTranscript, [key]: [] };
  }
  const { key, attemptIds } = resolveAttempt(next, e);
  next.attemptIds = attemptIds;
  const at = key ? { step: Number(key.split(':')[0]), n: Number(key.split(':')[1]) } : null;

  const status = payloadOf('run.status', e);
  if (status) next.wakeAt = status.status === 'waiting' ? status.wakeAt : null;

  if (key) {
    const gateStarted = payloadOf('gate.started', e);
    if (gateStarted) {
      next.runningGate = { ...next.runningGate, [key]: { gate: gateStarted.gate, command: gateStarted.command } };
      next.liveGate = { ...next.liveGate, [key]: { gate: gateStarted.gate, text: '', skippedBytes: 0 } };
    }
    const chunk = payloadOf('gate.output', e);
    if (chunk) next.liveGate = { ...next.liveGate, [key]: appendLive(next.liveGate[key], chunk) };
    const entry = payloadOf('agent.transcript', e);
    if (entry) {
      const { attemptId: _id, ...rest } = entry;
      const prev = next.liveTranscript[key] ?? [];
      next.liveTranscript = { ...next.liveTranscript, [key]: [...prev, rest].slice(-MAX_LIVE_TRANSCRIPT) };
    }
    const finished = payloadOf('attempt.finished', e);
    if (finished) {
      const t = next.timing[key];
      // An attempt found interrupted later ended when its process did (`finishedAt`), not when that was noticed.
      next.timing = { ...next.timing, [key]: { startedAt: t?.startedAt ?? e.at, finishedAt: finished.finishedAt ?? e.at } };
      // Nothing of an ended attempt runs any more: its gate spinner stops too.
      next.runningGate = { ...next.runningGate, [key]: null };
      // The stored transcript replaces the live one — except for an attempt whose process died: nothing was stored,
      // and what the agent said is known only from these events.
      if (finished.outcome !== 'interrupted') {
        const { [key]: _done, ...rest } = next.liveTranscript;
        next.liveTranscript = rest;
      }
      const { [key]: _gate, ...gates } = next.liveGate;
      next.liveGate = gates;
    }
    const slot = next.attempts[key];
    if (slot?.detail) {
      const command = next.runningGate[key]?.command ?? null;
      const detail = patchAttemptDetail(slot.detail, e, command);
      const stale = slot.stale || payloadOf('gate.finished', e) !== null || finished !== null;
      if (detail !== slot.detail || stale !== slot.stale) next.attempts = { ...next.attempts, [key]: { ...slot, detail, stale } };
    }
    if (payloadOf('gate.finished', e)) {
      next.runningGate = { ...next.runningGate, [key]: null };
      const { [key]: _gate, ...gates } = next.liveGate;
      next.liveGate = gates;
    }
  }

  const log = payloadOf('log', e);
  if (log) next.log = [...next.log, { id: e.id, at: e.at, level: log.level, message: describeEvent(e) }].slice(-MAX_LOG);
  else if (!e.type.startsWith('agent.') && e.type !== 'api.usage' && !e.type.endsWith('.output')) {
    next.log = [...next.log, { id: e.id, at: e.at, level: 'event', message: describeEvent(e) }].slice(-MAX_LOG);
  }

  if (!replay && next.doc) next = { ...next, doc: patchStatusDoc(next.doc, e, at) };
  return next;
}

/** Adds a streamed chunk to a gate's live output, dropping the oldest text (at a line start) past the bound. */
export function appendLive(prev: LiveGateOutput | undefined, c: { gate: string; text: string; skippedBytes: number }): LiveGateOutput {
  const base = prev && prev.gate === c.gate ? prev : { gate: c.gate, text: '', skippedBytes: 0 };
  let text = base.text + (c.skippedBytes > 0 && base.text !== '' && !base.text.endsWith('\n') ? '\n' : '') + c.text;
  let skippedBytes = base.skippedBytes + c.skippedBytes;
  if (text.length > MAX_LIVE_GATE_CHARS) {
    let cut = text.length - MAX_LIVE_GATE_CHARS;
    const nl = text.indexOf('\n', cut);
    if (nl !== -1) cut = nl + 1;
    skippedBytes += new TextEncoder().encode(text.slice(0, cut)).length;
    text = text.slice(cut);
  }
  return { gate: c.gate, text, skippedBytes };
}

/** One line for the run's activity log (lib/activity.ts). */
export { describeEvent };

interface RunDetailState {
  byId: Record<string, RunDetail>;
  open(runId: string, summary?: RunSummary | null): Promise<void>;
  refreshDoc(runId: string): Promise<void>;
  loadAttempt(runId: string, step: number, n: number): Promise<void>;
  applyEvent(e: EngineEventDoc): void;
  /** After a reconnect: fetch the events missed meanwhile for every run that is open. */
  catchUp(): Promise<void>;
  retry(runId: string): Promise<void>;
  /** "Start again": a new run of the same task, plan and workflow; resolves with its id. */
  restart(runId: string): Promise<string>;
  stop(runId: string): Promise<void>;
  retryNow(runId: string): Promise<boolean>;
  skipStep(runId: string, step: number): Promise<void>;
  revise(runId: string, steps: StepSpec[]): Promise<{ revision: number; kept: number[]; reset: number[] }>;
  /** The run's plan as it stands (its latest revision), for the plan editor. */
  plan(runId: string): Promise<MethodOutput<'plans.get'>>;
  /** Approves a drafted plan (as edited) and starts the run. */
  approve(runId: string, steps?: StepSpec[]): Promise<void>;
  /** One attempt's diff against a base the user picks. */
  attemptDiff(runId: string, step: number, n: number, against: MethodInput<'runs.attemptDiff'>['against']): Promise<MethodOutput<'runs.attemptDiff'>>;
  /** What the resume dialog shows: where the run continues, and what must be fixed first. */
  resumeInfo(runId: string): Promise<MethodOutput<'runs.resumeInfo'>>;
  resume(runId: string, how?: Omit<MethodInput<'runs.resume'>, 'runId'>): Promise<void>;
  /** Gives a run paused at its task budget more, and continues it. */
  raiseBudgetAndResume(runId: string, taskUsd: number): Promise<void>;
  mergePreview(runId: string): Promise<MethodOutput<'runs.mergePreview'>>;
  merge(runId: string, mode: MethodInput<'runs.merge'>['mode'], expectBaseTip?: string): Promise<MethodOutput<'runs.merge'>>;
  push(runId: string): Promise<MethodOutput<'runs.push'>>;
  openWorktree(runId: string, withWhat: MethodInput<'runs.openWorktree'>['with']): Promise<void>;
}

async function allEvents(runId: string, afterId: number): Promise<EngineEventDoc[]> {
  const out: EngineEventDoc[] = [];
  let after = afterId;
  // Page by page (a long run has hundreds of thousands of events); stop at a short page (or a safety limit, to never spin).
  for (let page = 0; page < 5000; page++) {
    const batch = await getApi().call('runs.events', { runId, afterId: after, limit: EVENT_PAGE });
    for (const e of batch) out.push(e);
    const last = batch.at(-1);
    if (!last || batch.length < EVENT_PAGE) break;
    after = last.id;
  }
  return out;
}

export const useRunDetail = create<RunDetailState>()((set, get) => {
  const update = (runId: string, fn: (d: RunDetail) => RunDetail) =>
    set((s) => {
      const d = s.byId[runId];
      return d ? { byId: { ...s.byId, [runId]: fn(d) } } : s;
    });

  return {
    byId: {},

    async open(runId, summary) {
      const prev = get().byId[runId];
      set((s) => ({ byId: { ...s.byId, [runId]: { ...emptyDetail(runId), title: summary?.title ?? prev?.title ?? null } } }));
      try {
        // Events first: the document fetched after them reflects at least as much, so replaying them never double-counts.
        const history = await allEvents(runId, 0);
        const [doc, list] = await Promise.all([
          getApi().call('runs.get', { runId }),
          summary
            ? Promise.resolve([summary])
            : getApi()
                .call('runs.list', {})
                .catch(() => [] as RunSummary[]),
        ]);
        const info = list.find((r) => r.id === runId) ?? null;
        update(runId, (d) => {
          let next: RunDetail = { ...d, doc: null };
          for (const e of history) next = applyDetailEvent(next, e, true);
          next = {
            ...next,
            status: 'ready',
            doc,
            title: info?.title ?? d.title,
            wakeAt: doc.status === 'waiting' ? (info?.wakeAt ?? next.wakeAt) : null,
            queued: [],
          };
          for (const e of d.queued) next = applyDetailEvent(next, e);
          return next;
        });
      } catch (err) {
        update(runId, (d) => ({ ...d, status: 'error', error: errorMessage(err) }));
      }
    },

    async refreshDoc(runId) {
      try {
        const doc = await getApi().call('runs.get', { runId });
        update(runId, (d) => ({ ...d, doc }));
      } catch (err) {
        update(runId, (d) => ({ ...d, error: errorMessage(err) }));
      }
    },

    async loadAttempt(runId, step, n) {
      const key = attemptKey(step, n);
      update(runId, (d) => ({
        ...d,
        attempts: {
          ...d.attempts,
          [key]: { status: d.attempts[key]?.detail ? 'ready' : 'loading', detail: d.attempts[key]?.detail ?? null, error: null, stale: false },
        },
      }));
      try {
        const detail = await getApi().call('runs.attempt', { runId, step, n, outputHeadLines: GATE_HEAD_LINES });
        update(runId, (d) => ({ ...d, attempts: { ...d.attempts, [key]: { status: 'ready', detail, error: null, stale: d.attempts[key]?.stale ?? false } } }));
      } catch (err) {
        update(runId, (d) => ({
          ...d,
          attempts: { ...d.attempts, [key]: { status: 'error', detail: d.attempts[key]?.detail ?? null, error: errorMessage(err), stale: false } },
        }));
      }
    },

    applyEvent(e) {
      const d = get().byId[e.runId];
      if (!d) return;
      if (d.status === 'loading') {
        update(e.runId, (x) => ({ ...x, queued: [...x.queued, e] }));
        return;
      }
      update(e.runId, (x) => applyDetailEvent(x, e));
      // These change the shape of the run (steps, resumes), which no patch can rebuild: ask for the document.
      // A raised budget changes the policy the run screen's cost meter shows.
      if (['plan.revised', 'run.retry', 'run.resume', 'budget.raised'].includes(e.type)) void get().refreshDoc(e.runId);
    },

    async catchUp() {
      for (const d of Object.values(get().byId)) {
        if (d.status !== 'ready') continue;
        try {
          const missed = await allEvents(d.runId, d.lastEventId);
          for (const e of missed) get().applyEvent(e);
        } catch {
          // Still disconnected or the run is gone; the next reconnect tries again.
        }
      }
    },

    async retry(runId) {
      await getApi().call('runs.retry', { runId });
    },
    async restart(runId) {
      const r = await getApi().call('runs.restart', { runId });
      return r.runId;
    },
    async stop(runId) {
      await getApi().call('runs.stop', { runId });
    },
    async retryNow(runId) {
      const r = await getApi().call('runs.retryNow', { runId });
      return r.skipped;
    },
    async skipStep(runId, step) {
      await getApi().call('runs.skipStep', { runId, step });
    },
    async revise(runId, steps) {
      const r = await getApi().call('plans.revise', { runId, steps });
      void get().refreshDoc(runId);
      return r;
    },
    plan: (runId) => getApi().call('plans.get', { runId }),
    async approve(runId, steps) {
      await getApi().call('runs.approve', { runId, steps });
    },
    attemptDiff: (runId, step, n, against) => getApi().call('runs.attemptDiff', { runId, step, n, against }),
    resumeInfo: (runId) => getApi().call('runs.resumeInfo', { runId }),
    async resume(runId, how = {}) {
      await getApi().call('runs.resume', { runId, ...how });
    },
    async raiseBudgetAndResume(runId, taskUsd) {
      await getApi().call('runs.raiseBudget', { runId, taskUsd });
      await getApi().call('runs.resume', { runId });
    },
    mergePreview: (runId) => getApi().call('runs.mergePreview', { runId }),
    merge: (runId, mode, expectBaseTip) => getApi().call('runs.merge', { runId, mode, expectBaseTip }),
    push: (runId) => getApi().call('runs.push', { runId }),
    async openWorktree(runId, withWhat) {
      await getApi().call('runs.openWorktree', { runId, with: withWhat });
    },
  };
});
