// What the retry policy decided after a failed attempt, with a live countdown while the run waits for the backoff.
import { classNamesInWords } from '../lib/app-words';
import type { DecisionDoc } from '../../../shared/domain';
import { seconds } from '../lib/format';
import { Countdown } from './Countdown';

const ACTION_LABEL: Record<DecisionDoc['action'], string> = {
  retry: 'retry',
  fatal: 'give up',
  escalate: 'needs you',
  wait: 'wait',
  done: 'done',
};

function overridesText(o: Record<string, unknown>): string[] {
  const out: string[] = [];
  const agent = o.agent as { model?: string } | undefined;
  if (agent?.model) out.push(`escalating to ${agent.model}`);
  if (o.session === 'new') out.push('new session');
  if (o.worktree === 'reset') out.push('worktree reset to the step start');
  if (typeof o.gateTimeoutMultiplier === 'number') out.push(`gate timeout ×${o.gateTimeoutMultiplier}`);
  if (typeof o.prompt === 'string') out.push('custom retry prompt');
  return out;
}

/** `wakeAt` is given only for the decision the run is waiting on now. */
export function DecisionView({ decision, wakeAt }: { decision: DecisionDoc; wakeAt: string | null }) {
  const tone = decision.action === 'retry' ? 'attention' : decision.action === 'fatal' ? 'bad' : 'info';
  const extras = overridesText(decision.overrides);
  return (
    <div className={`decision tone-border-${tone}`}>
      <span className={`badge tone-${tone}`}>{ACTION_LABEL[decision.action]}</span>
      {/* The policy's reason names the class as the app does ("test failure: retry 1 of 3", not test_failure). */}
      <span className="decision-reason">{classNamesInWords(decision.reason)}</span>
      {extras.length > 0 && <span className="muted">({extras.join(', ')})</span>}
      {wakeAt ? (
        <span className="decision-wait">
          next attempt <Countdown until={wakeAt} />
        </span>
      ) : decision.delayS > 0 && decision.action === 'retry' ? (
        <span className="muted">after waiting {seconds(decision.delayS)}</span>
      ) : null}
    </div>
  );
}
