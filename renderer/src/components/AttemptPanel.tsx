// The attempt history of one step: a tab per attempt, and for the chosen one the failure first (its failing tests), then the decision, then the raw gate logs (collapsed), transcript, diff and cost.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { AttemptOutcome, StepDoc } from '../../../shared/domain';
import { duration, errorClassLabel, tokens, money } from '../lib/format';
import { tddViolationSentence } from '../lib/app-words';
import { attemptFailures, gateTally } from '../lib/attempt-failures';
import { diffFileNamed, outputLineFor } from '../lib/locate';
import { diffFiles } from '../lib/review-files';
import { attemptKey } from '../stores/patches';
import { useRunDetail } from '../stores/run-detail';
import { DecisionView } from './DecisionView';
import { AttemptDiff } from './AttemptDiff';
import { FailingTests, type Failure } from './FailingTests';
import { GateOutput, LiveGateOutput } from './GateOutput';
import { fetchGateLines } from '../stores/gate-log';
import { ErrorState, Loading } from './States';
import { StatusIcon } from './StatusBadge';
import { Transcript } from './Transcript';
import type { LineTarget } from './VirtualLines';
import type { DiffTarget } from './ReviewDiff';

/**
 * What an attempt is, as the screen says it: one still `running` in a run that is not under way (its process died
 * before the engine noticed) is interrupted — nothing of it may look alive.
 */
/** An attempt's message when a budget stopped it (the engine's words: electron/engine/policy/budget.ts). */
const BUDGET_STOP = /^(task|daily) budget of \S+ reached/;

export function shownOutcome(outcome: AttemptOutcome, runLive: boolean): AttemptOutcome {
  return outcome === 'running' && !runLive ? 'interrupted' : outcome;
}

/** `worktree`, when given, makes failure locations relative to the repository. `runLive`: the run is under way (running, waiting, planning). */
export function AttemptPanel({
  runId,
  step,
  waitingWakeAt,
  worktree = null,
  runLive = true,
}: {
  runId: string;
  step: StepDoc;
  waitingWakeAt: string | null;
  worktree?: string | null;
  runLive?: boolean;
}) {
  const last = step.attempts.at(-1)?.n ?? null;
  const [chosen, setChosen] = useState<number | null>(last);
  // A new attempt starting moves the view to it, as a log would.
  useEffect(() => setChosen(last), [last, step.index]);
  if (step.attempts.length === 0) {
    return <div className="panel-empty muted">Step {step.index} has not been attempted yet.</div>;
  }
  const n = chosen ?? last ?? 1;
  return (
    <div className="attempts">
      <div className="tabs" role="tablist" aria-label={`attempts of step ${step.index}`}>
        {step.attempts.map((a) => (
          <button
            key={a.n}
            type="button"
            role="tab"
            aria-selected={a.n === n}
            className={`tab${a.n === n ? ' tab-active' : ''}`}
            onClick={() => setChosen(a.n)}
          >
            <StatusIcon status={shownOutcome(a.outcome, runLive)} /> Attempt {a.n}
            {a.outcome === 'red' ? ' · test written' : ''}
            {a.errorClass && <span className="muted"> · {errorClassLabel(a.errorClass)}</span>}
          </button>
        ))}
      </div>
      <AttemptBody
        key={`${step.index}:${n}`}
        runId={runId}
        step={step}
        n={n}
        wakeAt={n === last ? waitingWakeAt : null}
        worktree={worktree}
        runLive={runLive}
      />
    </div>
  );
}

function AttemptBody({
  runId,
  step,
  n,
  wakeAt,
  worktree,
  runLive,
}: {
  runId: string;
  step: StepDoc;
  n: number;
  wakeAt: string | null;
  worktree: string | null;
  runLive: boolean;
}) {
  const key = attemptKey(step.index, n);
  const slot = useRunDetail((s) => s.byId[runId]?.attempts[key]);
  const live = useRunDetail((s) => s.byId[runId]?.liveTranscript[key]);
  const timing = useRunDetail((s) => s.byId[runId]?.timing[key]);
  const gateStarted = useRunDetail((s) => s.byId[runId]?.runningGate[key] ?? null);
  // A gate runs only in an attempt that runs, in a run under way: anything else is what a dead process left behind.
  const runningGate = runLive ? gateStarted : null;
  const loadAttempt = useRunDetail((s) => s.loadAttempt);
  const summary = step.attempts.find((a) => a.n === n);
  // Where the last clicked failure location points: a diff line, or a line of one gate's output.
  const [jump, setJump] = useState<{ where: 'diff'; target: DiffTarget } | { where: string; target: LineTarget } | null>(null);
  // Stable, so a memoized gate log is not redrawn by every live event; it also tells a long log where to fetch its pages.
  const attemptRef = useMemo(() => ({ runId, step: step.index, n }), [runId, step.index, n]);
  // The raw gate logs are collapsed under the failure; they open by themselves while a gate runs or has no parsed failure.
  const [logsOpen, setLogsOpen] = useState<boolean | null>(null);
  // Logs the user watched while a gate ran stay open when it ends: nothing collapses under their eyes.
  const gateRunning = Boolean(runningGate);
  useEffect(() => {
    if (gateRunning) setLogsOpen((open) => open ?? true);
  }, [gateRunning]);
  // The diff on screen (its base is the user's pick), for linking failure locations into it.
  const [shownDiff, setShownDiff] = useState<string | null | undefined>(undefined);
  const onShown = useCallback((diff: string | null) => setShownDiff(diff), []);

  useEffect(() => {
    if (!slot || slot.stale) void loadAttempt(runId, step.index, n);
  }, [slot, runId, step.index, n, loadAttempt]);

  if (!slot || (slot.status === 'loading' && !slot.detail)) return <Loading label={`Loading attempt ${n}…`} />;
  if (slot.status === 'error' && !slot.detail) return <ErrorState message={slot.error ?? ''} onRetry={() => void loadAttempt(runId, step.index, n)} />;
  const d = { ...slot.detail!, outcome: shownOutcome(slot.detail!.outcome, runLive) };
  const attemptRunning = d.outcome === 'running';
  const transcript = live && live.length > d.transcript.length ? live : d.transcript;
  const started = timing?.startedAt ?? d.startedAt;
  const finished = timing?.finishedAt ?? d.finishedAt;
  const decision = summary?.decision ?? d.decision;
  const { failing: failures, flaky } = attemptFailures(d.gates, worktree);
  const tally = gateTally(d.gates);
  const failedGate = d.gates.some((g) => !g.passed);
  const showLogs = logsOpen ?? (Boolean(runningGate) || (failedGate && failures.length === 0));
  const cost = summary?.costUsd ?? d.costUsd;
  const locate = async (f: Failure) => {
    if (!f.file) return;
    const nonce = (jump?.target.nonce ?? 0) + 1;
    const diff = shownDiff === undefined ? d.diff : shownDiff;
    const inDiff = diff
      ? diffFileNamed(
          diffFiles(diff).map((x) => x.path),
          f.file,
        )
      : null;
    if (inDiff !== null) return setJump({ where: 'diff', target: { file: inDiff, line: f.line ?? null, nonce } });
    // The gate whose failures hold this one first, then any gate whose output names the file.
    const gates = [...d.gates.filter((g) => g.failures.includes(f)), ...d.gates.filter((g) => !g.failures.includes(f))];
    for (const g of gates) {
      // A long log came as its first lines: look through all of it.
      const output = g.partial ? (await fetchGateLines({ ...attemptRef, gate: g.gate }, 0, g.lineCount ?? 0).catch(() => [g.output])).join('\n') : g.output;
      const i = outputLineFor(output, f.file, f.line);
      if (i !== null) {
        setLogsOpen(true);
        return setJump({ where: `gate:${g.gate}`, target: { index: i, nonce } });
      }
    }
  };

  return (
    <div className="attempt" role="tabpanel" aria-label={`attempt ${n}`}>
      <dl className="facts">
        <div>
          <dt>outcome</dt>
          <dd>
            <StatusIcon status={d.outcome} /> {d.outcome}
          </dd>
        </div>
        <div>
          <dt>model</dt>
          <dd>{d.model ?? d.agentKind}</dd>
        </div>
        <div>
          <dt>duration</dt>
          <dd>{finished ? duration(Date.parse(finished) - Date.parse(started)) : attemptRunning ? 'running' : '—'}</dd>
        </div>
        <div>
          <dt>tokens</dt>
          <dd title="input / output / cache read / cache write">
            {tokens(summary?.inputTokens ?? d.inputTokens)} in · {tokens(summary?.outputTokens ?? d.outputTokens)} out ·{' '}
            {tokens(summary?.cacheReadTokens ?? d.cacheReadTokens)} cache read · {tokens(summary?.cacheWriteTokens ?? d.cacheWriteTokens)} cache write
          </dd>
        </div>
        <div>
          <dt>cost</dt>
          <dd>{money(cost)}</dd>
        </div>
        {d.fingerprint && (
          <div>
            <dt>fingerprint</dt>
            <dd>
              <code>{d.fingerprint}</code>
            </dd>
          </div>
        )}
      </dl>

      {(d.errorClass || d.errorMessage) && (
        <div className={`error-box${d.outcome === 'interrupted' ? ' error-box-stopped' : ''}`} role="note">
          {d.errorClass && <span className="badge tone-bad">{errorClassLabel(d.errorClass)}</span>}
          {/* A budget stop is said once, in the run's header; the terminal's command never shows here (issue 34 items 4, 9). */}
          <span className="error-sentence">
            {d.errorMessage && BUDGET_STOP.test(d.errorMessage)
              ? 'Stopped at the budget: the run’s header says what the next call needs.'
              : d.errorClass === 'tdd_violation'
                ? tddViolationSentence(d.errorMessage, { last: decision?.action === 'fatal' || decision?.action === 'escalate' })
                : d.errorMessage}
          </span>
          {/* The engine's words for a test-first violation are the agent's (issue 34 item 5): kept, folded away. */}
          {d.errorClass === 'tdd_violation' && d.errorMessage && (
            <details className="prompt agent-words">
              <summary>Prompt sent to the agent</summary>
              <pre>{d.errorMessage}</pre>
            </details>
          )}
        </div>
      )}
      {d.outcome === 'red' && (
        <p className="muted small-text" role="note">
          Test first: this attempt wrote the step&apos;s test, and the gates failed on it as they should. The next attempt implements the change.
        </p>
      )}
      <FailingTests failures={failures} onLocate={(f) => void locate(f)} />
      {flaky.length > 0 && (
        <p className="muted small-text" role="note">
          Flaky, not counted as failing: {flaky.map((f) => f.name).join(', ')} failed, then passed when the gate ran again on the same code.
        </p>
      )}
      {decision && <DecisionView decision={decision} wakeAt={wakeAt} />}

      <details
        className="gate-logs"
        open={showLogs}
        onToggle={(e) => {
          const open = (e.currentTarget as HTMLDetailsElement).open;
          if (open !== showLogs) setLogsOpen(open);
        }}
      >
        <summary>
          <h3>Gates</h3>
          <span className="muted small-text">
            {' '}
            {d.gates.length === 0
              ? ''
              : `${tally.passed} of ${tally.total} passed${tally.flaky.length ? ` (${tally.flaky.join(', ')} flaky: passed when run again)` : ''} · raw output`}
          </span>
        </summary>
        {d.gates.length === 0 && !runningGate && (
          <p className="muted small-text">{attemptRunning ? 'Gates run when the agent is done.' : 'No gate ran in this attempt.'}</p>
        )}
        {runningGate && (
          <p className="small-text">
            <span className="spinner" aria-hidden="true" /> gate <strong>{runningGate.gate}</strong> running: <code>{runningGate.command}</code>
          </p>
        )}
        {runningGate && <LiveGateOutput runId={runId} attemptKey={key} />}
        {d.gates.map((g) => (
          <GateOutput
            key={g.gate}
            gate={g}
            pending={slot.stale}
            attempt={attemptRef}
            stopped={d.outcome === 'interrupted'}
            target={jump?.where === `gate:${g.gate}` && 'index' in jump.target ? jump.target : null}
          />
        ))}
      </details>

      <h3>Transcript</h3>
      <Transcript entries={transcript} live={attemptRunning} />

      <h3>Diff</h3>
      <AttemptDiff
        runId={runId}
        step={step.index}
        n={n}
        stored={d.diff}
        running={attemptRunning}
        progress={transcript.length}
        target={jump?.where === 'diff' && 'file' in jump.target ? jump.target : null}
        onShown={onShown}
      />

      <details className="prompt">
        <summary>Prompt sent to the agent</summary>
        <pre>{d.prompt}</pre>
      </details>
    </div>
  );
}
