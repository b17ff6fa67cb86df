// A run on team workers: where it runs (its worker, the remote), its status document as its worker last kept it, and
// Stop / Resume / Retry / Run next / Start later / Raise budget acting through the team's queue. The status document is
// asked for again every ~2 s while open; while the run runs, its engine events (its workflow's stream, team.follow) show
// the current attempt live. The step timeline and the transcript are the local run screen's.
import { useEffect, useMemo, useState } from 'react';
import type { StepDoc } from '../../../shared/domain';
import { canRaiseAndContinue, canSteer } from '../../../shared/run-steering';
import type { TeamRunItem } from '../../../shared/team';
import { errorClassLabel, money, shortSha } from '../lib/format';
import { hrefs, navigate } from '../lib/route';
import { usePoll } from '../lib/use-poll';
import { useNow } from '../lib/use-now';
import { TEAM_POLL_MS, useTeam } from '../stores/team';
import { CostMeter } from '../components/CostMeter';
import { Empty, ErrorState, InlineError, Loading } from '../components/States';
import { RelativeTime } from '../components/RelativeTime';
import { RunStatusBadge, StatusIcon } from '../components/StatusBadge';
import { StepTimeline } from '../components/StepTimeline';
import { Transcript } from '../components/Transcript';
import { budgetStopOf } from '../lib/budget-stop';
import { appWords } from '../lib/app-words';
import { liveAttempts, type LiveAttempt } from '../lib/team-live';
import { defaultStep, RunReason } from './RunScreen';
import { RaiseBudget } from './RaiseBudget';

/** A team run paused because its task budget or the team's daily budget was reached (Raise budget applies). */
export function teamBudgetPause(it: TeamRunItem): boolean {
  return canRaiseAndContinue(it.status) && budgetStopOf(it.status, it.reasonCode) !== null;
}

type Action = 'stop' | 'resume' | 'retry' | 'next' | 'later';

/** What the user can do with a team run in its state, in the order the buttons show: Stop, Resume and Retry only where the steering table (shared/run-steering.ts) the team client obeys allows them. */
export function teamActions(it: TeamRunItem): Action[] {
  return offered(it).filter((a) => a === 'next' || a === 'later' || canSteer(it.status, a));
}

function offered(it: TeamRunItem): Action[] {
  switch (it.status) {
    case 'queued':
      return ['next', 'later', 'stop'];
    case 'running':
    case 'planning':
    case 'waiting':
      return ['stop'];
    case 'failed':
      return ['retry'];
    case 'paused':
      // Paused at its task budget, Resume would pause again at once: Raise budget is the way on.
      return it.reasonCode === 'task_budget' ? [] : ['resume'];
    case 'cancelled':
    case 'interrupted':
    case 'waiting_approval':
      return ['resume'];
    default:
      return [];
  }
}

const LABEL: Record<Action, string> = { stop: 'Stop', resume: 'Resume', retry: 'Retry', next: 'Run next', later: 'Start later' };
const BUSY: Record<Action, string> = { stop: 'Stopping…', resume: 'Resuming…', retry: 'Retrying…', next: 'Moving…', later: 'Moving…' };
const HINT: Record<Action, string> = {
  stop: 'The worker stops the step where it is; the attempt is kept, and Resume goes on from the last checkpoint.',
  resume: 'Back in the team’s queue; a worker goes on from the last checkpoint.',
  retry: 'Back in the team’s queue; the failed step runs again, the steps before it stay committed.',
  next: 'First in the team’s queue.',
  later: 'Behind the other queued runs.',
};

export function TeamRunScreen({ runId, step }: { runId: string; step: number | null }) {
  const entry = useTeam((s) => s.byId[runId]);
  usePoll(() => useTeam.getState().loadRun(runId), TEAM_POLL_MS);
  const liveState = useTeam((s) => s.live[runId]);
  const [busy, setBusy] = useState<Action | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const now = useNow(30_000);
  const doc = entry?.doc?.doc ?? null;
  const item = entry?.doc?.item ?? null;
  const selected = useMemo(() => step ?? (doc ? defaultStep(doc) : null), [step, doc]);
  const running = item ? ['running', 'waiting', 'planning'].includes(item.status) : false;
  // The run's engine events while it runs and the screen is open (again from the stream's start when it runs again).
  useEffect(() => (running ? useTeam.getState().follow(runId) : undefined), [runId, running]);
  const attempts = useMemo(() => liveAttempts(liveState?.events ?? []), [liveState?.events]);

  if (!entry || (!item && !entry.error))
    return (
      <div className="screen">
        <Loading label="Loading the team run…" />
      </div>
    );
  if (!item) {
    return (
      <div className="screen">
        <ErrorState title="Could not load this team run" message={entry.error ?? ''} onRetry={() => void useTeam.getState().loadRun(runId)} />
      </div>
    );
  }
  const act = async (a: Action) => {
    setBusy(a);
    setActionError(await useTeam.getState().act(runId, a));
    setBusy(null);
  };
  const live = ['running', 'waiting', 'planning'].includes(item.status);
  const budgetPaused = teamBudgetPause(item);
  const selectedStep = doc?.steps.find((s) => s.index === selected) ?? null;

  return (
    <div className="screen run team-run">
      <header className="run-header">
        <div className="run-title">
          <h1>{item.title}</h1>
          <RunStatusBadge status={item.status} />
          <span className="badge tone-info" title="Runs on the team’s workers (Settings › Team)">
            team
          </span>
        </div>
        <dl className="facts run-facts">
          <div>
            <dt>worker</dt>
            <dd className="mono" data-testid="team-worker">
              {item.worker ?? <span className="muted">none yet (waiting in the team queue)</span>}
            </dd>
          </div>
          <div>
            <dt>repository</dt>
            <dd title={item.remote}>
              {item.repoName} <span className="muted mono">{item.remote}</span>
            </dd>
          </div>
          <div>
            <dt>branch</dt>
            <dd>
              {item.branch ? <code>{item.branch}</code> : <span className="muted">made when a worker starts it</span>}
              {doc && <span className="muted"> from {shortSha(doc.baseCommit)}</span>}
            </dd>
          </div>
          <div>
            <dt>submitted</dt>
            <dd>
              {item.submittedBy} <RelativeTime at={item.createdAt} now={now} />
            </dd>
          </div>
          <div>
            <dt>cost</dt>
            <dd>
              <CostMeter cost={item.costUsd} budget={doc?.policy?.budget.taskUsd ?? null} alertAt={doc?.policy?.budget.alertAt} label="task budget" />
            </dd>
          </div>
        </dl>
        {item.reason && (
          <RunReason reason={item.reason} tone={item.status === 'failed' ? 'tone-bad' : item.status === 'interrupted' ? 'tone-attention' : 'muted'} />
        )}
        {(teamActions(item).length > 0 || budgetPaused) && (
          <div className="row run-actions" role="group" aria-label="team run actions">
            {budgetPaused && doc && <RaiseBudget runId={runId} doc={doc} paused raise={(usd) => useTeam.getState().raiseBudget(runId, usd)} />}
            {teamActions(item).map((a) => (
              <button
                key={a}
                type="button"
                className={a === 'stop' ? 'danger-outline' : a === 'resume' || a === 'retry' ? 'primary' : undefined}
                title={HINT[a]}
                disabled={busy !== null}
                onClick={() => void act(a)}
              >
                {busy === a ? BUSY[a] : LABEL[a]}
              </button>
            ))}
          </div>
        )}
        <InlineError message={actionError} />
        {entry.error && <p className="inline-error small-text">The team database did not answer just now: {entry.error}</p>}
      </header>

      {doc ? (
        <div className="run-body">
          <aside className="run-steps" aria-label="step timeline">
            <h2>
              Steps{' '}
              <span className="muted">
                {doc.steps.filter((s) => s.status === 'succeeded').length}/{doc.steps.length}
              </span>
            </h2>
            <StepTimeline steps={doc.steps} selected={selected} timing={{}} now={now} runActive={live} onSelect={(i) => navigate(hrefs.teamRun(runId, i))} />
          </aside>
          <section className="run-attempts" aria-label="attempt history">
            {selectedStep ? (
              <>
                <TeamStepAttempts step={selectedStep} live={live} />
                {/* Only while it runs: once the follow stops, what arrived may be part of an attempt, which the status document tells whole. */}
                {live && (
                  <TeamLive attempt={attempts.filter((a) => a.step === selectedStep.index).pop() ?? null} running={live} error={liveState?.error ?? null} />
                )}
                <p className="muted small-text">
                  Diffs and gate output stay on the worker that ran the attempt{item.worker ? ` (${item.worker})` : ''}; the branch on the remote has every
                  committed step. While the run runs, its worker’s events show here as they happen.
                </p>
              </>
            ) : (
              <p className="muted">This run has no steps.</p>
            )}
          </section>
        </div>
      ) : (
        <Empty title="Not started yet">
          It waits in the team’s queue ({item.stepsTotal} step{item.stepsTotal === 1 ? '' : 's'}); its steps appear here once a worker takes it.
        </Empty>
      )}
    </div>
  );
}

/** The step's latest attempt as its worker's engine events tell it, live: the gates as they start and finish, the agent's transcript. */
function TeamLive({ attempt, running, error }: { attempt: LiveAttempt | null; running: boolean; error: string | null }) {
  if (error) return <p className="inline-error small-text">Live events could not be followed: {error}</p>;
  if (!attempt) return null;
  const under = running && attempt.outcome === null;
  return (
    <section className="team-live" aria-label="live attempt">
      <p className="team-live-head" role="heading" aria-level={3}>
        {under ? <span className="badge tone-info">live</span> : <span className="muted">Last seen:</span>} <strong>Attempt {attempt.n}</strong>{' '}
        <span className="muted">
          on <span className="mono">{attempt.worker}</span>
          {attempt.model ? ` · ${attempt.model}` : ''}
          {attempt.outcome ? ` · ${attempt.outcome}` : ''}
        </span>
      </p>
      {attempt.gates.length > 0 && (
        <ul className="plain-list team-live-gates" aria-label="gates">
          {attempt.gates.map((g, i) => (
            <li key={`${g.gate}-${i}`}>
              <StatusIcon status={g.state === 'running' ? 'running' : g.state} /> gate <code>{g.gate}</code>{' '}
              <span className={g.state === 'failed' ? 'tone-bad' : 'muted'}>
                {g.state === 'running'
                  ? 'running…'
                  : `${g.state}${g.timedOut ? ' (timed out)' : g.exitCode !== null && g.state === 'failed' ? ` (exit ${g.exitCode})` : ''} in ${(g.durationMs / 1000).toFixed(1)} s`}
              </span>
            </li>
          ))}
        </ul>
      )}
      <Transcript entries={attempt.transcript} live={under} />
    </section>
  );
}

/** A step's attempts as the status document has them; their transcripts and gate output stay on the worker that ran them. */
function TeamStepAttempts({ step, live }: { step: StepDoc; live: boolean }) {
  return (
    <>
      <h2>
        <span className="muted">Step {step.index}.</span> {step.title}
      </h2>
      {step.attempts.length === 0 ? (
        <p className="muted">No attempt yet.</p>
      ) : (
        <ol className="plain-list team-attempts">
          {step.attempts.map((a) => {
            // An attempt the run's end left "running" (a Stop, a worker gone) is not under way: it shows as stopped.
            const outcome = a.outcome === 'running' && !live ? 'interrupted' : a.outcome;
            return (
              <li key={a.n} className="team-attempt">
                <StatusIcon status={outcome} /> <strong>Attempt {a.n}</strong> <span className="muted">{outcome === 'interrupted' ? 'stopped' : outcome}</span>
                {a.errorClass && <span className="tone-bad"> · {errorClassLabel(a.errorClass, { midSentence: true })}</span>}
                <span className="muted">
                  {' '}
                  · {money(a.costUsd)}
                  {a.model ? ` · ${a.model}` : ''}
                </span>
                {a.message && <div className="small-text muted">{appWords(a.message)}</div>}
              </li>
            );
          })}
        </ol>
      )}
      {step.commit && (
        <p className="small-text">
          Committed as <code title={step.commit}>{shortSha(step.commit)}</code> and pushed to the remote.
        </p>
      )}
    </>
  );
}
