// Status badges for runs, steps and attempts: a coloured label, with a live countdown while a run waits.
import type { AttemptOutcome, RunStatus, StepStatus } from '../../../shared/domain';
import { Countdown } from './Countdown';
import { Icon, type IconName } from './Icon';

export const RUN_STATUS_LABEL: Record<RunStatus, string> = {
  planning: 'planning',
  waiting_approval: 'needs approval',
  queued: 'queued',
  running: 'running',
  waiting: 'waiting',
  paused: 'paused',
  failed: 'failed',
  succeeded: 'succeeded',
  cancelled: 'stopped by you',
  interrupted: 'interrupted',
};

// Interrupted (the process stopped; the work is safe, resume it) has a look of its own: not failed's red, not paused's fill.
const RUN_TONE: Record<RunStatus, string> = {
  planning: 'info',
  waiting_approval: 'attention',
  queued: 'info',
  running: 'active',
  waiting: 'attention',
  paused: 'attention',
  failed: 'bad',
  succeeded: 'good',
  cancelled: 'muted',
  interrupted: 'interrupted',
};

/** Beside a run's status when no gate checked its work (started with "Run without checks"): its success says only that the agent finished. */
export function UncheckedBadge() {
  return (
    <span className="badge tone-attention" data-unchecked="" title="No gate ran in this run: nothing tested its work. Review it before you merge.">
      unchecked
    </span>
  );
}

/** The icon beside the word, for the states a glance must tell apart. */
const RUN_ICON: Partial<Record<RunStatus, IconName>> = { failed: 'failed', interrupted: 'interrupted', paused: 'pause', succeeded: 'succeeded' };

export function RunStatusBadge({ status, wakeAt }: { status: RunStatus; wakeAt?: string | null }) {
  return (
    <span className={`badge tone-${RUN_TONE[status]}`} data-status={status}>
      {status === 'running' && <span className="pulse" aria-hidden="true" />}
      {RUN_ICON[status] && <Icon name={RUN_ICON[status]} size={12} aria-hidden="true" />}
      {RUN_STATUS_LABEL[status]}
      {status === 'waiting' && wakeAt && (
        <>
          {' '}
          <Countdown until={wakeAt} />
        </>
      )}
    </span>
  );
}

type Mark = StepStatus | AttemptOutcome | 'waiting';

const ICON: Record<Mark, IconName> = {
  pending: 'pending',
  running: 'running',
  succeeded: 'succeeded',
  failed: 'failed',
  skipped: 'skip',
  passed: 'succeeded',
  flaky: 'flaky',
  error: 'error',
  // Not the paused run's icon: an attempt stopped part-way (issue 34 item 10).
  interrupted: 'stopped',
  // Red as expected: a test that fails before the change is written (issue 34 item 5), not a check mark.
  red: 'flask',
  waiting: 'clock',
};
const TONE: Record<Mark, string> = {
  pending: 'muted',
  running: 'active',
  succeeded: 'good',
  failed: 'bad',
  skipped: 'muted',
  passed: 'good',
  flaky: 'attention',
  error: 'bad',
  interrupted: 'attention',
  red: 'bad',
  waiting: 'attention',
};
/** What the icon means, said to screen readers and on hover. */
const NAME: Record<Mark, string> = {
  pending: 'pending',
  running: 'running',
  succeeded: 'succeeded',
  failed: 'failed',
  skipped: 'skipped',
  passed: 'passed',
  flaky: 'flaky',
  error: 'error',
  interrupted: 'stopped',
  red: 'red, as expected: the new test fails before the change',
  waiting: 'waiting to retry',
};

/** A status icon (an SVG, not a font glyph) with its name for screen readers. */
export function StatusIcon({ status }: { status: Mark }) {
  return (
    <span
      className={`status-icon tone-${TONE[status]}${status === 'running' ? ' spinning' : ''}`}
      role="img"
      aria-label={NAME[status]}
      title={NAME[status]}
      data-mark={status}
    >
      <Icon name={ICON[status]} size={14} />
    </span>
  );
}
