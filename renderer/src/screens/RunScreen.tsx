// Run: header (repo, branch, worktree, status, cost against budget), actions, step timeline and the chosen step's attempt history.
import { estimateVsActual } from '../../../shared/estimate-text';
import { useEffect, useMemo } from 'react';
import type { StatusDocument } from '../../../shared/domain';
import { ago, sentence, baseName, duration, shortSha, money, timeWords } from '../lib/format';
import { appReason } from '../../../shared/reason-text';
import { hrefs, navigate } from '../lib/route';
import { useNow } from '../lib/use-now';
import { useShallow } from 'zustand/react/shallow';
import { useRunDetail } from '../stores/run-detail';
import { useRuns } from '../stores/runs';
import { useSettings } from '../stores/settings';
import { AttemptPanel } from '../components/AttemptPanel';
import { CostMeter } from '../components/CostMeter';
import { budgetPause } from '../lib/budget-stop';
import { pausedForBudget } from './RaiseBudget';
import { ErrorState, Loading } from '../components/States';
import { RelativeTime } from '../components/RelativeTime';
import { RunStatusBadge, UncheckedBadge } from '../components/StatusBadge';
import { QueueControls } from '../components/QueueControls';
import { StepTimeline } from '../components/StepTimeline';
import { SuccessActions } from '../components/SuccessActions';
import { lazyScreen } from '../components/LazyScreen';
import { RunActions } from './RunActions';

// The review's diff and its syntax highlighter (lowlight's grammars) load with a succeeded run's review, not with every screen.
const ReviewPanel = lazyScreen(() => import('../components/ReviewPanel').then((m) => m.ReviewPanel), 'Loading the review…');

/** The statuses a run's cost no longer grows in. */
const FINISHED: ReadonlySet<string> = new Set(['succeeded', 'failed', 'cancelled']);

/** What a run was when it was retried or resumed, as the resumes list says it. */
const FROM_STATUS: Record<string, string> = {
  failed: 'failed',
  paused: 'paused',
  interrupted: 'interrupted',
  cancelled: 'stopped by you',
  waiting: 'waiting to retry',
  waiting_approval: 'waiting for approval',
  running: 'running',
};

/** The step to show when none is chosen: the one under way, else the first that failed, else the last attempted. */
export function defaultStep(doc: StatusDocument): number | null {
  const running = doc.steps.find((s) => s.status === 'running');
  if (running) return running.index;
  const failed = doc.steps.find((s) => s.status === 'failed');
  if (failed) return failed.index;
  return [...doc.steps].reverse().find((s) => s.attempts.length > 0)?.index ?? doc.steps[0]?.index ?? null;
}

/**
 * The task budget that applies to this run: the engine's (its workflow's `budget.task_usd`, a raised one, or the
 * Settings value copied in when the run started), from the status document. Settings only for a document without it.
 */
export function appliedBudget(
  doc: StatusDocument,
  settings: { taskUsd: number | null; alertAt: number } | null,
): { budget: number | null; alertAt: number | undefined } {
  if (doc.policy) return { budget: doc.policy.budget.taskUsd, alertAt: doc.policy.budget.alertAt };
  return { budget: settings?.taskUsd ?? null, alertAt: settings?.alertAt };
}

export function RunScreen({ runId, step }: { runId: string; step: number | null }) {
  // Only the parts this screen draws: a transcript or gate-output event changes none of them, so it re-renders only its row.
  const detail = useRunDetail(
    useShallow((s) => {
      const d = s.byId[runId];
      return d ? { status: d.status, error: d.error, doc: d.doc, title: d.title, wakeAt: d.wakeAt, timing: d.timing, log: d.log } : undefined;
    }),
  );
  const open = useRunDetail((s) => s.open);
  const summary = useRuns((s) => s.runs.data.find((r) => r.id === runId) ?? null);
  const settings = useSettings((s) => s.settings);
  const loadSettings = useSettings((s) => s.load);
  const hasDetail = detail !== undefined;

  useEffect(() => {
    if (!hasDetail) void open(runId, summary);
    // Opened once per run id (summary is only a head start); live events keep it current after that.
  }, [runId, hasDetail, open]);
  useEffect(() => {
    if (!settings) void loadSettings();
  }, [settings, loadSettings]);

  const doc = detail?.doc ?? null;
  const live = doc ? ['running', 'waiting', 'planning'].includes(doc.status) : false;
  const now = useNow(1000, live);
  // Relative times ("3 min ago") in the resumes list and the Activity log stay true while the screen is open.
  const clock = useNow(30_000);
  const selected = useMemo(() => step ?? (doc ? defaultStep(doc) : null), [step, doc]);

  if (!detail || (detail.status === 'loading' && !doc))
    return (
      <div className="screen">
        <Loading label="Loading the run…" />
      </div>
    );
  if (detail.status === 'error' || !doc) {
    return (
      <div className="screen">
        <ErrorState title="Could not load this run" message={detail.error ?? ''} onRetry={() => void open(runId, summary)} />
      </div>
    );
  }
  const selectedStep = doc.steps.find((s) => s.index === selected) ?? null;
  // Paused at its task budget: one sentence, said once, here (issue 34 item 4).
  const pause = pausedForBudget(doc) ? budgetPause(doc.reason, doc.costUsd ?? 0, doc.policy?.budget.taskUsd ?? null) : null;
  const wakeAt = doc.status === 'waiting' ? detail.wakeAt : null;
  const waitingOnSelected = wakeAt && selectedStep && selectedStep.attempts.at(-1)?.decision ? wakeAt : null;

  return (
    <div className="screen run">
      <header className="run-header">
        <div className="run-title">
          <h1>{detail.title ?? summary?.title ?? runId}</h1>
          <RunStatusBadge status={doc.status} wakeAt={wakeAt} />
          {doc.checked === false && <UncheckedBadge />}
          <span className="muted small-text run-times">{summary ? runTimes(doc.status, summary.createdAt, summary.updatedAt, now) : ''}</span>
        </div>
        {doc.schedule && (
          <p className="muted small-text" aria-label="started by">
            Started by schedule {doc.schedule.id}
            {doc.schedule.cron ? ` · ${doc.schedule.cron}${doc.schedule.tz ? ` (${doc.schedule.tz})` : ''}` : ' (removed since)'}
          </p>
        )}
        <dl className="facts run-facts">
          <div>
            <dt>repository</dt>
            <dd title={doc.repo}>
              {baseName(doc.repo)} <span className="muted mono">{doc.repo}</span>
            </dd>
          </div>
          <div>
            <dt>branch</dt>
            <dd>
              <code>{doc.branch}</code> <span className="muted">from {shortSha(doc.baseCommit)}</span>
            </dd>
          </div>
          <div>
            <dt>worktree</dt>
            <dd>
              <code className="selectable">{doc.worktree}</code>
            </dd>
          </div>
          <div>
            <dt>cost</dt>
            <dd>
              <CostMeter
                cost={doc.costUsd}
                {...appliedBudget(doc, settings?.budget ?? null)}
                label="task budget"
                projected={pause?.nextCallUsd != null ? (doc.costUsd ?? 0) + pause.nextCallUsd : null}
              />
            </dd>
          </div>
          {doc.estimate && (
            <div>
              <dt>estimate</dt>
              <dd className="small-text" aria-label="estimate against actual">
                {estimateVsActual(doc.estimate, doc.costUsd, FINISHED.has(doc.status))}
              </dd>
            </div>
          )}
        </dl>
        {pause ? (
          <p className="run-reason tone-attention">{pause.sentence}</p>
        ) : (
          doc.reason && (
            <RunReason reason={doc.reason} tone={doc.status === 'failed' ? 'tone-bad' : doc.status === 'interrupted' ? 'tone-attention' : 'muted'} />
          )
        )}
        <RunActions runId={runId} doc={doc} selectedStep={selectedStep} />
        {doc.status === 'queued' && <QueueControls runId={runId} />}
      </header>
      {doc.status === 'succeeded' && <SuccessActions runId={runId} branch={doc.branch} worktree={doc.worktree} checked={doc.checked !== false} />}
      {doc.status === 'succeeded' && <ReviewPanel runId={runId} steps={doc.steps.filter((s) => s.commit).map((s) => ({ index: s.index, title: s.title }))} />}

      <div className="run-body">
        <aside className="run-steps" aria-label="step timeline">
          <h2>
            Steps{' '}
            <span className="muted">
              {doc.steps.filter((s) => s.status === 'succeeded').length}/{doc.steps.length}
            </span>
          </h2>
          <StepTimeline
            steps={doc.steps}
            selected={selected}
            timing={detail.timing}
            now={now}
            runActive={live}
            runWaiting={doc.status === 'waiting'}
            onSelect={(i) => navigate(hrefs.run(runId, i))}
          />
          {doc.resumes.length > 0 && (
            <div className="resumes small-text">
              <h3>Retries and resumes</h3>
              <ul className="plain-list">
                {doc.resumes.map((r, i) => (
                  <li key={i}>
                    {r.kind === 'retry' ? 'Retried' : 'Resumed'}
                    {r.resumedFrom.step !== null ? ` from step ${r.resumedFrom.step}` : ''}{' '}
                    <span className="muted">(it was {FROM_STATUS[r.resumedFrom.status] ?? r.resumedFrom.status.replace(/_/g, ' ')})</span>{' '}
                    <RelativeTime at={r.at} now={Math.max(now, clock)} /> · <span data-testid="resume-cost">{money(r.costUsd)}</span> spent since
                  </li>
                ))}
              </ul>
            </div>
          )}
        </aside>
        <section className="run-attempts" aria-label="attempt history">
          {selectedStep ? (
            <>
              <h2>
                <span className="muted">Step {selectedStep.index}.</span> {selectedStep.title}
              </h2>
              <AttemptPanel runId={runId} step={selectedStep} waitingWakeAt={waitingOnSelected} worktree={doc.worktree} runLive={live} />
            </>
          ) : (
            <p className="muted">This run has no steps.</p>
          )}
        </section>
      </div>

      {detail.log.length > 0 && (
        <details className="activity">
          <summary>Activity ({detail.log.length})</summary>
          <ol className="activity-log">
            {detail.log.slice(-200).map((l) => (
              <li key={l.id} className={`log-${l.level}`}>
                <span className="muted activity-time">
                  <RelativeTime at={l.at} now={Math.max(now, clock)} />
                </span>{' '}
                {l.message}
              </li>
            ))}
          </ol>
        </details>
      )}
    </div>
  );
}

/**
 * The run's reason as the app says it (shared/reason-text.ts): its first line as a sentence; the attempts summary,
 * remaining issues and next steps under it, one click away, as paragraphs and lists — no terminal commands (the buttons
 * below do what they said) and no raw times.
 */
/** "started 3 min ago · took 58 s" (finished), "started 1 min 31 s ago" (under way): issue 34 item 11. */
export function runTimes(status: StatusDocument['status'], createdAt: string, updatedAt: string, now: number): string {
  const started = Date.parse(createdAt);
  if (Number.isNaN(started)) return '';
  const head = `started ${ago(createdAt, now)}`;
  if (FINISHED.has(status)) return `${head} · took ${duration(Date.parse(updatedAt) - started)}`;
  // Under way, the time it has taken is the time since it started: said once, to the second (not "2 min ago · 1 min 31 s").
  if (status === 'running' || status === 'waiting' || status === 'planning') return `started ${duration(now - started)} ago`;
  return head;
}

export function RunReason({ reason, tone }: { reason: string; tone: string }) {
  const { head, blocks } = appReason(reason, (iso) => timeWords(iso));
  return (
    <div className="run-reason-block">
      <p className={`run-reason ${tone}`}>{sentence(head)}</p>
      {blocks.length > 0 && (
        <details className="run-reason-more small-text">
          <summary>{blocks.some((b) => b.heading === 'Next steps') ? 'Attempts summary and next steps' : 'More'}</summary>
          {blocks.map((b, i) => (
            <div key={i} className="reason-part">
              {b.heading && <strong>{b.heading}</strong>}
              {b.list === 'ordered' ? (
                <ol>
                  {b.lines.map((l, k) => (
                    <li key={k}>{l}</li>
                  ))}
                </ol>
              ) : b.list === 'bullets' ? (
                <ul>
                  {b.lines.map((l, k) => (
                    <li key={k}>{l}</li>
                  ))}
                </ul>
              ) : (
                b.lines.map((l, k) => <p key={k}>{l}</p>)
              )}
            </div>
          ))}
        </details>
      )}
    </div>
  );
}
