// The resume dialog ("Workflow Resume Plan"): what was done, what happens next, what must be fixed first, and how far to go.
import { useEffect, useState } from 'react';
import type { MethodInput, ResumeInfoDoc, RunSummary } from '../../../shared/contract';
import { errorMessage } from '../lib/errors';
import { useRunDetail } from '../stores/run-detail';
import { ago, errorClassLabel, exactTime, humanize, plural, reasonLine, shortSha } from '../lib/format';
import { Icon } from './Icon';
import { Modal } from './Modal';
import { ErrorState, InlineError, Loading } from './States';
import { RunStatusBadge } from './StatusBadge';

type Choice = NonNullable<MethodInput<'runs.resume'>['choices']>[string];
type Auto = NonNullable<MethodInput<'runs.resume'>['auto']>;

const OPTION_LABEL: Record<Choice, string> = {
  checkout_branch: 'Check out the run’s branch in the worktree',
  recreate_worktree: 'Recreate the worktree from the branch',
  rescue_commit: 'Keep the changes in a rescue commit',
  stash: 'Keep the changes in a stash',
  abort: 'Abort: do not resume',
};

const ACTION_LABEL: Record<ResumeInfoDoc['plan']['action'], string> = {
  retry_step: 'Retry step',
  next_step: 'Continue with step',
  approve: 'Approve the plan, then run step',
  finish: 'Finish the run',
  none: 'Nothing to resume',
};

/** " across 2 runs", " in this run", " in one run": how many runs the repeated failures came from. */
function acrossRuns(failures: ReadonlyArray<{ runId: string }>, current: string): string {
  const runs = new Set(failures.map((f) => f.runId));
  if (runs.size > 1) return ` across ${runs.size} runs`;
  return runs.has(current) ? ' in this run' : ' in one run';
}

export function ResumeDialog({
  runId,
  others = [],
  onClose,
  onResumed,
}: {
  runId: string;
  /** Other interrupted runs, to switch between when several are waiting. */
  others?: RunSummary[];
  onClose: () => void;
  onResumed: (runId: string) => void;
}) {
  const [current, setCurrent] = useState(runId);
  const [info, setInfo] = useState<{ status: 'loading' | 'ready' | 'error'; data: ResumeInfoDoc | null; error: string | null }>({
    status: 'loading',
    data: null,
    error: null,
  });
  const [choices, setChoices] = useState<Record<string, Choice>>({});
  const [auto, setAuto] = useState<Auto>('run');
  const [skipStep, setSkipStep] = useState(false);
  const [busy, setBusy] = useState(false);
  const [sendError, setSendError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    setInfo({ status: 'loading', data: null, error: null });
    useRunDetail
      .getState()
      .resumeInfo(current)
      .then(
        (data) => {
          if (!live) return;
          setInfo({ status: 'ready', data, error: null });
          // The safe default is preselected for every required action: it never loses work.
          setChoices(Object.fromEntries(data.plan.required.map((r) => [r.code, r.safeDefault])));
          setSkipStep(false);
        },
        (err: unknown) => live && setInfo({ status: 'error', data: null, error: errorMessage(err) }),
      );
    return () => {
      live = false;
    };
  }, [current, attempt]);

  const proceed = async () => {
    setBusy(true);
    setSendError(null);
    try {
      await useRunDetail.getState().resume(current, { choices, auto, skipStep });
      onResumed(current);
    } catch (err) {
      setSendError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const d = info.data;
  const aborting = Object.values(choices).includes('abort');
  const footer = (
    <>
      <InlineError message={sendError} />
      <button type="button" onClick={onClose}>
        Cancel
      </button>
      <button type="button" className="primary" disabled={!d || busy || d.plan.blocked || d.plan.action === 'none'} onClick={() => void proceed()}>
        {busy ? 'Resuming…' : aborting ? 'Proceed (abort)' : 'Proceed'}
      </button>
    </>
  );

  return (
    <Modal title="Resume plan" onClose={onClose} footer={footer} wide>
      {others.length > 1 && others.some((r) => r.id === current) && (
        <label className="field-inline">
          Interrupted run
          <select value={current} onChange={(e) => setCurrent(e.target.value)}>
            {others.map((r) => (
              <option key={r.id} value={r.id}>
                {r.title} — {ago(r.updatedAt)}
              </option>
            ))}
          </select>
        </label>
      )}
      {info.status === 'loading' && <Loading label="Checking the worktree and the branch…" />}
      {info.status === 'error' && <ErrorState message={info.error ?? ''} onRetry={() => setAttempt((k) => k + 1)} />}
      {d && (
        <div className="resume">
          <section>
            <h3 className="resume-title">{d.title}</h3>
            <dl className="facts">
              <div>
                <dt>state</dt>
                <dd>
                  <RunStatusBadge status={d.status} />
                  {d.reason && <span className="muted"> {reasonLine(d.reason)}</span>}
                </dd>
              </div>
              <div>
                <dt>branch</dt>
                <dd>
                  <code>{d.branch}</code>
                </dd>
              </div>
              <div>
                <dt>worktree</dt>
                <dd>
                  <code>{d.worktree}</code>
                </dd>
              </div>
              {d.phase && (
                <div>
                  <dt>phase</dt>
                  <dd>
                    {d.phase.index}/{d.phase.total} — {d.phase.name}
                  </dd>
                </div>
              )}
              {d.lastStep && (
                <div>
                  <dt>last step</dt>
                  <dd>
                    {d.lastStep.index}: {d.lastStep.title}
                    {d.lastStep.agent || d.lastStep.model ? ` (${[d.lastStep.agent, d.lastStep.model].filter(Boolean).join(', ')})` : ''} —{' '}
                    {d.lastStep.status === 'running' && d.status !== 'running' ? 'interrupted' : d.lastStep.status}
                  </dd>
                </div>
              )}
              {d.lastSeen && (
                <div>
                  <dt>last seen</dt>
                  <dd>
                    <time dateTime={d.lastSeen} title={exactTime(d.lastSeen)}>
                      {ago(d.lastSeen)}
                    </time>
                  </dd>
                </div>
              )}
            </dl>
          </section>

          <section>
            <h3>Completed work</h3>
            {d.plan.completed.length === 0 ? (
              <p className="muted small-text">No step was committed yet.</p>
            ) : (
              <ul className="plain-list">
                {d.plan.completed.map((c) => (
                  <li key={c.index}>
                    <span className="tone-good" role="img" aria-label="committed">
                      <Icon name="check" />
                    </span>{' '}
                    step {c.index}: {c.title} <code>{shortSha(c.commit)}</code>
                  </li>
                ))}
              </ul>
            )}
          </section>

          <section className="resume-plan">
            <h3>Resume plan</h3>
            <p>
              <strong>
                {ACTION_LABEL[d.plan.action]}
                {d.plan.nextStep !== null && d.plan.action !== 'finish' ? ` ${d.plan.nextStep}` : ''}
              </strong>
              {d.plan.nextStep !== null && <> — {d.steps.find((s) => s.index === d.plan.nextStep)?.title}</>}
            </p>
            <p className="muted">{d.plan.reason}</p>
            {d.nextAgent && (
              <p className="small-text">
                Agent to invoke: <code>{[d.nextAgent.agent, d.nextAgent.model].filter(Boolean).join(', ')}</code>
              </p>
            )}
            {d.plan.phaseRollover && (
              <p className="small-text">
                Then on to phase <strong>{d.plan.phaseRollover}</strong>.
              </p>
            )}
            {d.plan.canSkip && (
              <label className="check">
                <input type="checkbox" checked={skipStep} onChange={(e) => setSkipStep(e.target.checked)} /> Skip step {d.plan.nextStep} instead of retrying it
              </label>
            )}
          </section>

          {d.plan.required.length > 0 && (
            <section>
              <h3>Required actions</h3>
              {d.plan.required.map((r) => (
                <fieldset key={r.code} className="required-action">
                  <legend>
                    <span className="badge tone-attention">{humanize(r.code)}</span> {r.message}
                  </legend>
                  {r.options.map((o) => (
                    <label key={o} className="radio">
                      <input
                        type="radio"
                        name={`choice-${r.code}`}
                        value={o}
                        checked={choices[r.code] === o}
                        onChange={() => setChoices((c) => ({ ...c, [r.code]: o }))}
                      />
                      {OPTION_LABEL[o]}
                      {o === r.safeDefault && <span className="muted"> (safe default)</span>}
                    </label>
                  ))}
                </fieldset>
              ))}
            </section>
          )}

          {d.repeatedFailures.length > 0 && (
            <section className="warning-box" role="note">
              <h3>This step keeps failing</h3>
              <p className="small-text">
                {/* Counted as they are: one run's four failures are not "across runs" (issue 34 item 10). */}
                It failed {plural(d.repeatedFailures.length, 'time')}
                {acrossRuns(d.repeatedFailures, current)}. Consider revising the plan or the step’s prompt before resuming.
              </p>
              <table className="compact">
                <thead>
                  <tr>
                    <th scope="col">run</th>
                    <th scope="col">attempt</th>
                    <th scope="col">error</th>
                    <th scope="col">message</th>
                    <th scope="col">when</th>
                  </tr>
                </thead>
                <tbody>
                  {d.repeatedFailures.map((f, i) => (
                    <tr key={i}>
                      <td>
                        <code>{f.runId}</code>
                      </td>
                      <td>{f.n}</td>
                      <td>{f.errorClass ? errorClassLabel(f.errorClass) : '—'}</td>
                      <td>{f.message ?? '—'}</td>
                      <td>
                        <time dateTime={f.at} title={exactTime(f.at)}>
                          {ago(f.at)}
                        </time>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          )}

          {d.baseConflicts.length > 0 && (
            <section className="warning-box" role="note">
              <h3>The base branch moved</h3>
              <p className="small-text">
                These files changed on the base branch and conflict with the run’s branch. The run proceeds; merge them when it is done.
              </p>
              <ul className="plain-list">
                {d.baseConflicts.map((f) => (
                  <li key={f}>
                    <code>{f}</code>
                  </li>
                ))}
              </ul>
            </section>
          )}

          <fieldset className="auto-progress">
            <legend>Then</legend>
            {(
              [
                ['step', 'Stop after this step'],
                ['phase', 'Run to the end of the phase'],
                ['run', 'Run to the end'],
              ] as const
            ).map(([value, label]) => (
              <label key={value} className="radio">
                <input type="radio" name="auto" value={value} checked={auto === value} onChange={() => setAuto(value)} /> {label}
              </label>
            ))}
          </fieldset>
          {d.plan.blocked && <p className="inline-error">This run cannot be resumed as it is: {d.plan.required.map((r) => r.message).join('; ')}</p>}
        </div>
      )}
    </Modal>
  );
}
