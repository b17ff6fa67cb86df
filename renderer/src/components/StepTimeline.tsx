// The run's step timeline: per step its status, attempts, duration and cost; choosing a step shows its attempt history.
import { useRef } from 'react';
import type { StepDoc } from '../../../shared/domain';
import { duration, errorClassLabel, shortSha, money } from '../lib/format';
import { attemptKey } from '../stores/patches';
import { StatusIcon } from './StatusBadge';

/**
 * The icon a step shows: its status, except a step that went back to pending after its last attempt was stopped
 * (the user's Stop, a shutdown) shows as stopped — neither still running nor never started.
 */
export function stepMark(step: StepDoc, runActive = true, runWaiting = false): StepDoc['status'] | 'interrupted' | 'waiting' {
  if (step.status === 'pending' && step.attempts.at(-1)?.outcome === 'interrupted') return 'interrupted';
  // A run that is not under way has no running step (runs stopped before the engine reset the step say 'running').
  if (step.status === 'running' && !runActive) return 'interrupted';
  // A run waiting to retry runs nothing: its step waits, it does not spin (issue 34 item 11).
  if (step.status === 'running' && runWaiting) return 'waiting';
  return step.status;
}

export type Timing = Record<string, { startedAt: string; finishedAt: string | null }>;

export function stepCost(step: StepDoc): number | null {
  let total = 0;
  for (const a of step.attempts) {
    if (a.costUsd === null) return null;
    total += a.costUsd;
  }
  return total;
}

/**
 * Sum of the attempts' durations that are known (from events or loaded details); null when none is. An attempt with
 * no end counts up to `now` only while the run is under way: one whose process died ended then, not now.
 */
export function stepDuration(step: StepDoc, timing: Timing, now: number, runActive = true): number | null {
  let total = 0;
  let known = false;
  for (const a of step.attempts) {
    const t = timing[attemptKey(step.index, a.n)];
    if (!t || (!t.finishedAt && !runActive)) continue;
    known = true;
    total += (t.finishedAt ? Date.parse(t.finishedAt) : now) - Date.parse(t.startedAt);
  }
  return known ? total : null;
}

export function StepTimeline({
  steps,
  selected,
  onSelect,
  timing,
  now,
  runActive = true,
  runWaiting = false,
}: {
  steps: StepDoc[];
  /** The run waits to retry: its current step shows a clock, not a spinner. */
  runWaiting?: boolean;
  /** The run is under way (running, waiting, planning): otherwise no step shows as running. */
  runActive?: boolean;
  selected: number | null;
  onSelect: (index: number) => void;
  timing: Timing;
  now: number;
}) {
  // Arrow keys move through the steps and keep the focus (roving tabindex: the list is one Tab stop, the chosen step's).
  const list = useRef<HTMLOListElement>(null);
  const onKeyDown = (e: React.KeyboardEvent, i: number) => {
    const next = { ArrowDown: i + 1, ArrowUp: i - 1, Home: 0, End: steps.length - 1 }[e.key];
    const target = next === undefined ? undefined : steps[next];
    if (!target) return;
    e.preventDefault();
    onSelect(target.index);
    list.current?.querySelectorAll<HTMLButtonElement>('.timeline-button')[next!]?.focus();
  };
  const tabStop = steps.some((s) => s.index === selected) ? selected : steps[0]?.index;
  return (
    <ol ref={list} className="timeline" aria-label="steps">
      {steps.map((s, i) => {
        const failedAttempts = s.attempts.filter((a) => a.outcome === 'failed' || a.outcome === 'error').length;
        const lastError = [...s.attempts].reverse().find((a) => a.errorClass)?.errorClass;
        return (
          <li key={s.index} className={`timeline-item status-${s.status}`}>
            <button
              type="button"
              className={`timeline-button${s.index === selected ? ' selected' : ''}`}
              aria-current={s.index === selected ? 'step' : undefined}
              tabIndex={s.index === tabStop ? 0 : -1}
              onClick={() => onSelect(s.index)}
              onKeyDown={(e) => onKeyDown(e, i)}
            >
              <StatusIcon status={stepMark(s, runActive, runWaiting)} />
              <span className="timeline-main">
                <span className="timeline-title">
                  <span className="muted">{s.index}.</span> {s.title}
                </span>
                <span className="timeline-meta">
                  <span>
                    {s.attempts.length} attempt{s.attempts.length === 1 ? '' : 's'}
                  </span>
                  {failedAttempts > 0 && (
                    <span className="tone-bad">
                      {failedAttempts} failed{lastError ? ` (${errorClassLabel(lastError, { midSentence: true })})` : ''}
                    </span>
                  )}
                  <span>{duration(stepDuration(s, timing, now, runActive))}</span>
                  <span>{s.attempts.length ? money(stepCost(s)) : '—'}</span>
                  {s.commit && <code title={s.commit}>{shortSha(s.commit)}</code>}
                  {s.attempts.some((a) => a.outcome === 'red') && (
                    <span className="badge tone-muted test-first-mark" title="Test first: attempt 1 wrote the step’s test, the next ones implement the change">
                      test first
                    </span>
                  )}
                </span>
              </span>
            </button>
          </li>
        );
      })}
    </ol>
  );
}
