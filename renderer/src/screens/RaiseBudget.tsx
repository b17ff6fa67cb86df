// "Raise budget and continue": a run paused for its task budget gets a higher one and resumes where it paused.
import { useState } from 'react';
import type { StatusDocument } from '../../../shared/domain';
import { canRaiseAndContinue } from '../../../shared/run-steering';
import { budgetPause, budgetStopOf } from '../lib/budget-stop';
import { errorMessage } from '../lib/errors';
import { useRunDetail } from '../stores/run-detail';
import { InlineError } from '../components/States';
import { money } from '../lib/format';

/** A run stopped because its task budget was reached, that the steering table lets go on with a higher one. */
export function pausedForBudget(doc: StatusDocument): boolean {
  return canRaiseAndContinue(doc.status) && budgetStopOf(doc.status, doc.reasonCode) === 'task';
}

/**
 * `raise` and `paused` default to a local run's (Raise budget and continue through the run's store, shown when paused for
 * its task budget); a team run's screen gives its own (team.raiseBudget, either budget).
 */
export function RaiseBudget({ runId, doc, raise, paused }: { runId: string; doc: StatusDocument; raise?: (usd: number) => Promise<void>; paused?: boolean }) {
  const current = doc.policy?.budget.taskUsd ?? null;
  const spent = doc.costUsd ?? 0;
  const [open, setOpen] = useState(false);
  // An amount that lets the next call through (issue 34 item 4), not a guess that may pause the run again at once.
  const suggested = budgetPause(doc.reason, spent, current).suggestedUsd;
  const [value, setValue] = useState(String(suggested));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!(paused ?? pausedForBudget(doc))) return null;
  const usd = Number(value);
  const invalid = !(Number.isFinite(usd) && usd > spent);
  const go = async () => {
    setBusy(true);
    setError(null);
    try {
      await (raise ? raise(usd) : useRunDetail.getState().raiseBudgetAndResume(runId, usd));
      setOpen(false);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  if (!open)
    return (
      <button type="button" className="primary" onClick={() => setOpen(true)}>
        Raise budget and continue
      </button>
    );
  return (
    <div className="confirm" role="group" aria-label="raise the budget">
      <label className="field-inline">
        New task budget (USD)
        {/* Any amount above what it spent (0.25, 2.5, 0.004): step="any", checked here with a sentence. */}
        <input type="number" min="0" step="any" inputMode="decimal" value={value} onChange={(e) => setValue(e.target.value)} aria-invalid={invalid} autoFocus />
      </label>
      <span className="muted small-text">
        {' '}
        {spent > 0 ? `${money(spent)} spent` : ''}
        {current !== null ? ` of ${money(current)}` : ''}
        {` · ${money(suggested)} clears the next call`}
      </span>{' '}
      <button type="button" className="primary" disabled={busy || invalid} onClick={() => void go()}>
        {busy ? 'Continuing…' : 'Continue'}
      </button>
      <button type="button" onClick={() => setOpen(false)}>
        Cancel
      </button>
      <InlineError message={error ?? (invalid ? `Give it more than ${money(spent)} (what it has spent).` : null)} />
    </div>
  );
}
