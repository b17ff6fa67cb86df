// The run's actions: only those that can work for its state (lib/run-actions.ts decides), the right one as primary.
import { useEffect, useState } from 'react';
import type { StatusDocument, StepDoc } from '../../../shared/domain';
import { errorMessage } from '../lib/errors';
import { hasCompletedStep, runActionsFor, stoppedBeforeStart, type RunAction } from '../lib/run-actions';
import { reasonActions, type ReasonAction } from '../../../shared/reason-text';
import { hrefs, navigate } from '../lib/route';
import { useRunDetail } from '../stores/run-detail';
import { OFFLINE_MESSAGE, useUi } from '../stores/ui';
import { Icon } from '../components/Icon';
import { Modal } from '../components/Modal';
import { PlanEditor, toStepSpecs, type EditableStep } from '../components/PlanEditor';
import { InlineError, Loading } from '../components/States';
import { pausedForBudget, RaiseBudget } from './RaiseBudget';

/** The app's button for each action a reason names (Raise budget is RaiseBudget's own control). */
const REASON_ACTION: Record<ReasonAction, RunAction | null> = {
  raise_budget: null,
  approve: 'approve',
  resume: 'resume',
  retry: 'retry',
  revise_plan: 'revise',
  start_again: 'startAgain',
};

/** What the user sees while the host is unreachable, instead of a spinner that never ends. */
export const NOT_CONNECTED = OFFLINE_MESSAGE;

export function RunActions({ runId, doc, selectedStep }: { runId: string; doc: StatusDocument; selectedStep: StepDoc | null }) {
  const { retry, stop, retryNow, skipStep, restart, resume } = useRunDetail.getState();
  const openResume = useUi((s) => s.openResume);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<'stop' | 'skip' | 'startAgain' | null>(null);
  const [revising, setRevising] = useState<'revise' | 'approve' | null>(null);

  const act = async (name: string, fn: () => Promise<unknown>) => {
    setBusy(name);
    setError(null);
    setNote(null);
    setConfirm(null);
    try {
      await fn();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };
  const plan = runActionsFor(doc, { budgetPause: pausedForBudget(doc) });
  // The buttons the run's reason asks for (by its reason code; a run from before codes by its text: shared/reason-text.ts) stand out.
  const suggested = new Set(reasonActions(doc, hasCompletedStep(doc)).map((x) => REASON_ACTION[x]));
  const cls = (a: RunAction, base = '') =>
    [base, plan.primary === a ? 'primary' : '', suggested.has(a) && plan.primary !== a ? 'suggested' : ''].filter(Boolean).join(' ') || undefined;
  // Said in words, in a style no focus ring uses (issue 34 item 3); the button keeps its name for assistive technology, the title says why.
  const mark = (a: RunAction) =>
    suggested.has(a) && plan.primary !== a ? (
      <span className="suggested-tag" aria-hidden="true">
        Suggested
      </span>
    ) : null;
  const canSkip =
    selectedStep &&
    !['succeeded', 'skipped'].includes(selectedStep.status) &&
    !['running', 'succeeded', 'queued'].includes(doc.status) &&
    !stoppedBeforeStart(doc);

  const button = (a: RunAction) => {
    switch (a) {
      case 'approve':
        return (
          <button key={a} type="button" className={cls(a)} disabled={busy !== null} onClick={() => setRevising('approve')}>
            Review and approve the plan…
            {mark(a)}
          </button>
        );
      case 'retryNow':
        return (
          <button
            key={a}
            type="button"
            className={cls(a)}
            disabled={busy !== null}
            onClick={() =>
              void act('retryNow', async () => {
                if (!(await retryNow(runId))) setNote('The run was no longer waiting.');
              })
            }
          >
            Retry now
            {mark(a)}
          </button>
        );
      case 'retry':
        return (
          <button
            key={a}
            type="button"
            className={cls(a)}
            disabled={busy !== null}
            title="Continue the run from its next incomplete step"
            onClick={() => void act('retry', () => retry(runId))}
          >
            {busy === 'retry' ? 'Retrying…' : 'Retry'}
            {mark(a)}
          </button>
        );
      case 'runAnyway':
        return (
          <button
            key={a}
            type="button"
            className={cls(a)}
            disabled={busy !== null}
            title="Start the agent though the pre-run check found the environment not ready"
            onClick={() => void act('runAnyway', () => resume(runId, { runAnyway: true }))}
          >
            {busy === 'runAnyway' ? 'Starting…' : 'Run anyway'}
            {mark(a)}
          </button>
        );
      case 'resume':
        return (
          <button
            key={a}
            type="button"
            className={cls(a)}
            disabled={busy !== null}
            title="Check the worktree and the branch, then continue where the run stopped"
            onClick={() => openResume(runId)}
          >
            Resume…
            {mark(a)}
          </button>
        );
      case 'startAgain':
        // A new run spends money from its first step: one click asks (on its own row, below), the second starts it.
        return (
          <button
            key={a}
            type="button"
            className={cls(a)}
            disabled={busy !== null}
            aria-expanded={confirm === 'startAgain'}
            title="A new run of the same task, plan and workflow, in a fresh worktree (this run is kept)"
            onClick={() => setConfirm(confirm === 'startAgain' ? null : 'startAgain')}
          >
            <Icon name="restart" /> {busy === 'startAgain' ? 'Starting…' : 'Start again'}
            {mark(a)}
          </button>
        );
      case 'revise':
        return (
          <button key={a} type="button" className={cls(a)} disabled={busy !== null} onClick={() => setRevising('revise')}>
            Revise plan…
            {mark(a)}
          </button>
        );
      case 'stop':
        return (
          <button
            key={a}
            type="button"
            className="danger-outline"
            disabled={busy !== null}
            aria-expanded={confirm === 'stop'}
            onClick={() => setConfirm(confirm === 'stop' ? null : 'stop')}
          >
            <Icon name="stop" /> {busy === 'stop' ? 'Stopping…' : 'Stop'}
          </button>
        );
    }
  };
  const before = plan.actions.filter((a) => a !== 'stop');

  return (
    <div className="run-actions" role="toolbar" aria-label="run actions">
      <RaiseBudget runId={runId} doc={doc} />
      {before.map(button)}
      {canSkip && (
        <button type="button" disabled={busy !== null} aria-expanded={confirm === 'skip'} onClick={() => setConfirm(confirm === 'skip' ? null : 'skip')}>
          <Icon name="skip" /> Skip step {selectedStep.index}
        </button>
      )}
      {plan.actions.includes('stop') && button('stop')}
      {/* A confirmation takes a row of its own under the buttons (issue 34 item 6): neutral, red only where work is thrown away. */}
      {confirm === 'startAgain' && (
        <div className="confirm" role="group" aria-label="confirm start again">
          <span>Start a new run of the same task from step 1, in a fresh worktree? It spends from the start; this run is kept.</span>
          <button
            type="button"
            className="primary"
            onClick={() =>
              void act('startAgain', async () => {
                const fresh = await restart(runId);
                navigate(hrefs.run(fresh));
              })
            }
          >
            Start a new run
          </button>
          <button type="button" onClick={() => setConfirm(null)}>
            Keep this run
          </button>
        </div>
      )}
      {confirm === 'stop' && (
        <div className="confirm confirm-destructive" role="group" aria-label="confirm stop">
          <span>Stop the run? The work so far stays in the worktree.</span>
          <button type="button" className="danger" onClick={() => void act('stop', () => stop(runId))}>
            Stop
          </button>
          <button type="button" onClick={() => setConfirm(null)}>
            Keep running
          </button>
        </div>
      )}
      {confirm === 'skip' && canSkip && (
        <div className="confirm" role="group" aria-label="confirm skip">
          <span>Skip step {selectedStep.index}? The run goes on with the next step without it.</span>
          <button type="button" className="primary" onClick={() => void act('skip', () => skipStep(runId, selectedStep.index))}>
            Skip it
          </button>
          <button type="button" onClick={() => setConfirm(null)}>
            Keep
          </button>
        </div>
      )}
      {note && <span className="muted small-text">{note}</span>}
      <InlineError message={error} />
      {revising && <RevisePlanDialog runId={runId} doc={doc} mode={revising} onClose={() => setRevising(null)} />}
    </div>
  );
}

/**
 * Revises the plan the run follows, starting from its current revision (`plans.get`): titles, prompts, gates and phases.
 * `approve`: an agent-drafted plan waiting for approval — the user edits it if they want and approves it, which starts the run.
 */
function RevisePlanDialog({ runId, doc, mode, onClose }: { runId: string; doc: StatusDocument; mode: 'revise' | 'approve'; onClose: () => void }) {
  const revise = useRunDetail((s) => s.revise);
  const [steps, setSteps] = useState<EditableStep[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<string | null>(null);

  // Only when the dialog opens: later changes to the document must not overwrite the user's edits.
  const [initial] = useState(doc);
  const connected = useUi((s) => s.connection.state === 'open');
  useEffect(() => {
    // Disconnected: say so at once (the call would wait for the connection); the plan loads when it is back.
    if (!connected || steps !== null) return;
    let live = true;
    setError(null);
    void useRunDetail
      .getState()
      .plan(runId)
      .then(
        (plan) => {
          if (live) setSteps(plan.steps.map((s) => ({ title: s.title, prompt: s.prompt, gates: s.gates, phase: s.phase })));
        },
        (err: unknown) => {
          if (live) setError(errorMessage(err));
        },
      );
    return () => {
      live = false;
    };
  }, [runId, connected, steps]);
  // Committed steps stay where they are, so their positions in the editor are their positions in the plan.
  const locked = initial.steps
    .filter((s) => s.status !== 'skipped')
    .map((s, i) => (s.status === 'succeeded' ? i : -1))
    .filter((i) => i >= 0);
  // What continues the run with the revision: Retry (a failed run with a committed step) or Resume (paused, interrupted,
  // stopped); offered next to Done once it is saved, so the revision is not left waiting.
  const primary = runActionsFor(doc).primary;
  const next = primary === 'retry' || primary === 'resume' ? primary : null;
  const openResume = useUi((s) => s.openResume);
  const retryRun = useRunDetail((s) => s.retry);
  const retryNow = async () => {
    setBusy(true);
    setError(null);
    try {
      await retryRun(runId);
      onClose();
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  };
  const save = async () => {
    if (!steps) return;
    if (!connected) {
      setError(NOT_CONNECTED);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      if (mode === 'approve') {
        await useRunDetail.getState().approve(runId, toStepSpecs(steps));
        onClose();
        return;
      }
      const r = await revise(runId, toStepSpecs(steps));
      setResult(
        `Revision ${r.revision} saved: ${r.kept.length} committed step${r.kept.length === 1 ? '' : 's'} kept${r.reset.length ? `, steps ${r.reset.join(', ')} will be redone` : ''}. The next ${primary === 'resume' ? 'resume' : 'retry'} follows it.`,
      );
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      title={mode === 'approve' ? 'Approve the drafted plan' : 'Revise plan'}
      onClose={onClose}
      wide
      footer={
        result ? (
          <>
            <InlineError message={error} />
            <button type="button" className={next ? undefined : 'primary'} onClick={onClose}>
              Done
            </button>
            {next === 'retry' && (
              <button type="button" className="primary" disabled={busy} onClick={() => void retryNow()}>
                {busy ? 'Retrying…' : 'Retry with this plan'}
              </button>
            )}
            {next === 'resume' && (
              <button
                type="button"
                className="primary"
                onClick={() => {
                  onClose();
                  openResume(runId);
                }}
              >
                Resume…
              </button>
            )}
          </>
        ) : (
          <>
            <InlineError message={error} />
            <button type="button" onClick={onClose}>
              Cancel
            </button>
            <button type="button" className="primary" disabled={busy || !steps || toStepSpecs(steps).length === 0} onClick={() => void save()}>
              {mode === 'approve' ? (busy ? 'Starting…' : 'Approve and start') : busy ? 'Saving…' : 'Save revision'}
            </button>
          </>
        )
      }
    >
      {result ? (
        <p>{result}</p>
      ) : steps === null ? (
        !connected ? (
          <InlineError message={NOT_CONNECTED} />
        ) : error ? null : (
          <Loading label="Loading the plan…" />
        )
      ) : (
        <>
          <p className="muted small-text">
            {mode === 'approve'
              ? 'The agent drafted these steps; nothing has run yet. Edit them if you want, then approve: the run starts with this plan.'
              : 'Committed steps are kept. A changed or new step starts over; the run continues from the first step that is not done.'}
          </p>
          <PlanEditor steps={steps} onChange={setSteps} locked={locked} />
        </>
      )}
    </Modal>
  );
}
