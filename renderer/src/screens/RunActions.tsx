// The run's actions: Retry, Resume, Revise plan, Skip step, Stop, Retry now — each shown only when the run's state allows it.
import { useEffect, useState } from 'react';
import type { StatusDocument, StepDoc } from '../../../shared/domain';
import { errorMessage, getApi } from '../api/client';
import { useRunDetail } from '../stores/run-detail';
import { useUi } from '../stores/ui';
import { Modal } from '../components/Modal';
import { PlanEditor, toStepSpecs, type EditableStep } from '../components/PlanEditor';
import { InlineError, Loading } from '../components/States';
import { pausedForBudget, RaiseBudget } from './RaiseBudget';

const ACTIVE = ['running', 'waiting', 'planning', 'waiting_approval'];

export function RunActions({ runId, doc, selectedStep }: { runId: string; doc: StatusDocument; selectedStep: StepDoc | null }) {
  const { retry, stop, retryNow, skipStep } = useRunDetail.getState();
  const openResume = useUi((s) => s.openResume);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<'stop' | 'skip' | null>(null);
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
  const active = ACTIVE.includes(doc.status);
  const canSkip = selectedStep && !['succeeded', 'skipped'].includes(selectedStep.status) && doc.status !== 'running';

  return (
    <div className="run-actions" role="toolbar" aria-label="run actions">
      {doc.status === 'waiting_approval' && (
        <button type="button" className="primary" disabled={busy !== null} onClick={() => setRevising('approve')}>Review and approve the plan…</button>
      )}
      {doc.status === 'waiting' && (
        <button type="button" className="primary" disabled={busy !== null} onClick={() => void act('retryNow', async () => {
          if (!(await retryNow(runId))) setNote('The run was no longer waiting.');
        })}>Retry now</button>
      )}
      <RaiseBudget runId={runId} doc={doc} />
      {['failed', 'cancelled', 'paused'].includes(doc.status) && !pausedForBudget(doc) /* Retry would stop at the budget again: Raise budget and continue is the way on. */ && (
        <button type="button" className="primary" disabled={busy !== null} onClick={() => void act('retry', () => retry(runId))}>{busy === 'retry' ? 'Retrying…' : 'Retry'}</button>
      )}
      {['interrupted', 'failed', 'paused', 'cancelled'].includes(doc.status) && (
        <button type="button" className={doc.status === 'interrupted' ? 'primary' : ''} onClick={() => openResume(runId)}>Resume…</button>
      )}
      {doc.status !== 'waiting_approval' && <button type="button" disabled={busy !== null} onClick={() => setRevising('revise')}>Revise plan…</button>}
      {canSkip && (confirm === 'skip' ? (
        <span className="confirm">
          Skip step {selectedStep.index}?{' '}
          <button type="button" className="danger" onClick={() => void act('skip', () => skipStep(runId, selectedStep.index))}>Skip it</button>
          <button type="button" onClick={() => setConfirm(null)}>Keep</button>
        </span>
      ) : <button type="button" disabled={busy !== null} onClick={() => setConfirm('skip')}>Skip step {selectedStep.index}</button>)}
      {active && (confirm === 'stop' ? (
        <span className="confirm">
          Stop the run? The work so far stays in the worktree.{' '}
          <button type="button" className="danger" onClick={() => void act('stop', () => stop(runId))}>Stop</button>
          <button type="button" onClick={() => setConfirm(null)}>Keep running</button>
        </span>
      ) : <button type="button" className="danger-outline" disabled={busy !== null} onClick={() => setConfirm('stop')}>{busy === 'stop' ? 'Stopping…' : 'Stop'}</button>)}
      {note && <span className="muted small-text">{note}</span>}
      <InlineError message={error} />
      {revising && <RevisePlanDialog runId={runId} doc={doc} mode={revising} onClose={() => setRevising(null)} />}
    </div>
  );
}

/**
 * Revises the plan the run follows, starting from its current revision (`plans.get`): titles, prompts, gates and phases.
 * `approve`: an agent-drafted plan waiting for approval (seed 003) — the user edits it if they want and approves it, which starts the run.
 */
function RevisePlanDialog({ runId, doc, mode, onClose }: { runId: string; doc: StatusDocument; mode: 'revise' | 'approve'; onClose: () => void }) {
  const revise = useRunDetail((s) => s.revise);
  const [steps, setSteps] = useState<EditableStep[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<string | null>(null);

  // Only when the dialog opens: later changes to the document must not overwrite the user's edits.
  const [initial] = useState(doc);
  useEffect(() => {
    let live = true;
    void getApi().call('plans.get', { runId }).then(
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
  }, [runId]);
  // Committed steps stay where they are, so their positions in the editor are their positions in the plan.
  const locked = initial.steps.filter((s) => s.status !== 'skipped').map((s, i) => (s.status === 'succeeded' ? i : -1)).filter((i) => i >= 0);
  const save = async () => {
    if (!steps) return;
    setBusy(true);
    setError(null);
    try {
      if (mode === 'approve') {
        await getApi().call('runs.approve', { runId, steps: toStepSpecs(steps) });
        onClose();
        return;
      }
      const r = await revise(runId, toStepSpecs(steps));
      setResult(`Revision ${r.revision} saved: ${r.kept.length} committed step${r.kept.length === 1 ? '' : 's'} kept${r.reset.length ? `, steps ${r.reset.join(', ')} will be redone` : ''}. The next retry follows it.`);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal title={mode === 'approve' ? 'Approve the drafted plan' : 'Revise plan'} onClose={onClose} wide footer={result ? <button type="button" className="primary" onClick={onClose}>Done</button> : (
      <>
        <InlineError message={error} />
        <button type="button" onClick={onClose}>Cancel</button>
        <button type="button" className="primary" disabled={busy || !steps || toStepSpecs(steps).length === 0} onClick={() => void save()}>{mode === 'approve' ? (busy ? 'Starting…' : 'Approve and start') : busy ? 'Saving…' : 'Save revision'}</button>
      </>
    )}>
      {result ? <p>{result}</p> : steps === null ? <Loading label="Loading the plan…" /> : (
        <>
          <p className="muted small-text">{mode === 'approve'
            ? 'The agent drafted these steps; nothing has run yet. Edit them if you want, then approve: the run starts with this plan.'
            : 'Committed steps are kept. A changed or new step starts over; the run continues from the first step that is not done.'}</p>
          <PlanEditor steps={steps} onChange={setSteps} locked={locked} />
        </>
      )}
    </Modal>
  );
}
