// Status badges for runs, steps and attempts: a coloured label, with a live countdown while a run waits.
import type { AttemptOutcome, RunStatus, StepStatus } from '../../../shared/domain';
import { Countdown } from './Countdown';

const RUN_LABEL: Record<RunStatus, string> = {
  planning: 'planning',
  waiting_approval: 'needs approval',
  queued: 'queued',
  running: 'running',
  waiting: 'waiting',
  paused: 'paused',
  failed: 'failed',
  succeeded: 'succeeded',
  cancelled: 'stopped',
  interrupted: 'interrupted',
};

const RUN_TONE: Record<RunStatus, string> = {
  planning: 'info', waiting_approval: 'attention', queued: 'info', running: 'active', waiting: 'attention', paused: 'attention',
  failed: 'bad', succeeded: 'good', cancelled: 'muted', interrupted: 'bad',
};

export function RunStatusBadge({ status, wakeAt }: { status: RunStatus; wakeAt?: string | null }) {
  return (
    <span className={`badge tone-${RUN_TONE[status]}`} data-status={status}>
      {status === 'running' && <span className="pulse" aria-hidden="true" />}
      {RUN_LABEL[status]}
      {status === 'waiting' && wakeAt && (
        <>
          {' '}
          <Countdown until={wakeAt} />
        </>
      )}
    </span>
  );
}

type Mark = StepStatus | AttemptOutcome;

const ICON: Record<Mark, string> = {
  pending: '○', running: '◐', succeeded: '✓', failed: '✕', skipped: '⤼', passed: '✓', flaky: '≈', error: '!', interrupted: '⏸',
};
const TONE: Record<Mark, string> = {
  pending: 'muted', running: 'active', succeeded: 'good', failed: 'bad', skipped: 'muted', passed: 'good', flaky: 'attention', error: 'bad', interrupted: 'attention',
};

/** A one-character status icon with its name for screen readers. */
export function StatusIcon({ status }: { status: Mark }) {
  return (
    <span className={`status-icon tone-${TONE[status]}`} role="img" aria-label={status} title={status}>
      {ICON[status]}
    </span>
  );
}
