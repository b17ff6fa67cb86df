// The run's Activity log: each engine event as one line a person reads (sentences, readable classes, counts and times).
import type { EngineEventDoc } from '../../../shared/contract';
import { payloadOf } from '../../../shared/engine-events';
import type { RunStatus } from '../../../shared/domain';
import { NOTIFY_CHANNELS } from '../../../shared/notify-channels';
import { duration, errorClassLabel, plural, seconds, shortSha, money, reasonLine } from './format';

/** A notification channel as a sentence names it ("the webhook"). */
const channelTo = (name: string) => NOTIFY_CHANNELS.find((c) => c.name === name)?.to ?? name;

const STATUS: Record<RunStatus, string> = {
  planning: 'Planning',
  waiting_approval: 'Waiting for your approval of the plan',
  queued: 'Queued',
  running: 'Running',
  waiting: 'Waiting to retry',
  paused: 'Paused',
  failed: 'The run failed',
  succeeded: 'The run succeeded',
  cancelled: 'Stopped by you',
  interrupted: 'Interrupted',
};

const OUTCOME: Record<string, string> = {
  passed: 'Attempt passed',
  flaky: 'Attempt passed (a gate was flaky)',
  failed: 'Attempt failed',
  error: 'Attempt ended with an error',
  interrupted: 'Attempt stopped',
  running: 'Attempt running',
  red: 'Test written first',
};

const firstLine = (s: string) => s.split('\n')[0]!.trim();
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** One line for the run's activity log. */
export function describeEvent(e: EngineEventDoc): string {
  const status = payloadOf('run.status', e);
  if (status) {
    const label = STATUS[status.status];
    const reason = status.reason ? reasonLine(firstLine(status.reason), Date.parse(e.at)) : '';
    if (!reason) return label;
    return reason.toLowerCase().startsWith(label.toLowerCase()) ? reason : `${label}: ${reason}`;
  }
  const created = payloadOf('run.created', e);
  if (created) return `Run created: ${plural(created.steps, 'step')} on branch ${created.branch}`;
  const trusted = payloadOf('workflow.trusted', e);
  if (trusted) return `Started from the trusted workflow ${trusted.file}`;
  const again = payloadOf('run.retry', e) ?? payloadOf('run.resume', e);
  if (again) {
    const what = e.type === 'run.retry' ? 'Retried' : 'Resumed';
    const step = again.fromStep !== null ? ` from step ${again.fromStep}` : '';
    const pace = again.auto === 'step' ? ', one step at a time' : again.auto === 'phase' ? ', one phase at a time' : '';
    return `${what}${step} (it was ${STATUS[again.fromStatus as RunStatus]?.toLowerCase() ?? again.fromStatus.replace(/_/g, ' ')})${pace}`;
  }
  const started = payloadOf('step.started', e);
  if (started) return `Step ${started.step} started${started.title ? `: ${started.title}` : ''}`;
  const stepStatus = payloadOf('step.status', e);
  if (stepStatus) {
    const s = { pending: 'will run again', running: 'is running', succeeded: 'succeeded', failed: 'failed', skipped: 'was skipped' }[stepStatus.status];
    return `Step ${stepStatus.step} ${s}`;
  }
  const committed = payloadOf('step.committed', e);
  if (committed) return `Step ${committed.step} committed as ${shortSha(committed.commit)}`;
  const adopted = payloadOf('step.adopted', e);
  if (adopted) return `Step ${adopted.step} found committed on the branch (${shortSha(adopted.commit)}) and counted as done`;
  const demoted = payloadOf('step.demoted', e);
  if (demoted) return `Step ${demoted.step} is no longer on the branch and will run again`;
  const repeated = payloadOf('step.repeated_failures', e);
  if (repeated) return `Step ${repeated.step ?? '?'} has failed ${plural(repeated.attempts.length, 'time')} in earlier runs`;
  const aStarted = payloadOf('attempt.started', e);
  if (aStarted)
    return `Step ${aStarted.step}: attempt ${aStarted.n} started${aStarted.model ? ` with ${aStarted.model}` : aStarted.agent ? ` with ${aStarted.agent}` : ''}`;
  const finished = payloadOf('attempt.finished', e);
  if (finished) {
    const head = OUTCOME[finished.outcome] ?? `Attempt ${finished.outcome}`;
    const why = finished.summary ? firstLine(finished.summary) : finished.errorClass ? errorClassLabel(finished.errorClass) : '';
    return why && finished.outcome !== 'passed' ? `${head}: ${why}` : head;
  }
  const gStarted = payloadOf('gate.started', e);
  if (gStarted) return `Gate ${gStarted.gate} running${gStarted.command ? `: ${gStarted.command}` : ''}`;
  const gate = payloadOf('gate.finished', e);
  if (gate) {
    if (gate.passed) return `Gate ${gate.gate} passed after ${duration(gate.durationMs)}`;
    // No exit code and no time-out: the gate was killed (a Stop, the app closing).
    if (gate.exitCode === null && !gate.timedOut) return `Gate ${gate.gate} was stopped after ${duration(gate.durationMs)}`;
    const why = gate.timedOut ? 'timed out' : gate.exitCode === 0 ? 'it ran no tests' : `exit ${gate.exitCode ?? 'unknown'}`;
    const tests = gate.failures > 0 ? `, ${plural(gate.failures, 'failing test')}` : '';
    return `Gate ${gate.gate} failed (${why}${tests}) after ${duration(gate.durationMs)}`;
  }
  const decision = payloadOf('decision', e);
  if (decision) {
    const when = decision.action === 'retry' && decision.delayS > 0 ? `, in ${seconds(decision.delayS)}` : '';
    return `Step ${decision.step}, attempt ${decision.n}: ${decision.reason}${when}`;
  }
  const alert = payloadOf('budget.alert', e);
  if (alert) return `Budget alert: ${money(alert.spentUsd)} of the ${alert.kind === 'daily' ? 'daily' : 'task'} budget of ${money(alert.limitUsd)} spent`;
  const raised = payloadOf('budget.raised', e);
  if (raised) return `Task budget raised to ${money(raised.taskUsd)}${raised.before !== null ? ` (it was ${money(raised.before)})` : ''}`;
  const revised = payloadOf('plan.revised', e);
  if (revised)
    return `Plan revised (revision ${revised.revision}, ${plural(revised.steps, 'step')})${revised.reset?.length ? `; ${plural(revised.reset.length, 'step')} will run again` : ''}`;
  const rescue = payloadOf('rescue.committed', e);
  if (rescue) return `Unfinished work kept in rescue commit ${shortSha(rescue.commit)}`;
  const stash = payloadOf('rescue.stashed', e);
  if (stash) return stash.stash ? 'Uncommitted changes were stashed before resuming' : 'There were no uncommitted changes to stash';
  const reverted = payloadOf('git.config_reverted', e);
  if (reverted) return `Step ${reverted.step}: the agent's change to the git configuration was undone (${plural(reverted.files.length, 'file')})`;
  const prepared = payloadOf('worktree.prepared', e);
  if (prepared) return `From your checkout: ${[...prepared.copied, ...prepared.reused.map((r) => r.path)].join(', ')} (${duration(prepared.durationMs)})`;
  const setupStarted = payloadOf('setup.started', e);
  if (setupStarted)
    return `Setup running${setupStarted.reason === 'inputs' ? ` again (${setupStarted.changed.join(', ')} changed)` : ''}: ${setupStarted.commands.join(' && ')}`;
  const setupDone = payloadOf('setup.finished', e);
  if (setupDone) {
    if (setupDone.outcome === 'skipped') return `Setup skipped: ${setupDone.note ?? 'nothing to do'}`;
    if (setupDone.outcome === 'ok') return `Setup done after ${duration(setupDone.durationMs)}`;
    return setupDone.outcome === 'failed' && setupDone.message
      ? firstLine(setupDone.message)
      : `Setup ${setupDone.outcome} after ${duration(setupDone.durationMs)}`;
  }
  const baselineStarted = payloadOf('baseline.started', e);
  if (baselineStarted) return `Checking the base commit ${shortSha(baselineStarted.commit)}: ${baselineStarted.gates.join(', ') || 'no gates'}`;
  const baselineGate = payloadOf('baseline.gate', e);
  if (baselineGate)
    return `On the base commit, gate ${baselineGate.gate} ${baselineGate.passed ? 'passed' : `failed${baselineGate.errorClass ? ` (${errorClassLabel(baselineGate.errorClass, { midSentence: true })})` : ''}`} after ${duration(baselineGate.durationMs)}`;
  const baseline = payloadOf('baseline.finished', e);
  if (baseline)
    return baseline.ready
      ? `The project is ready to test${baseline.failingTests.length ? `; ${plural(baseline.failingTests.length, 'test')} already failing` : ''}`
      : `The project is not ready to test: ${firstLine(baseline.problem ?? '')}`;
  const log = payloadOf('log', e);
  if (log) return cap(firstLine(log.message));
  const sent = payloadOf('notify.sent', e);
  if (sent) return `Notification sent to ${channelTo(sent.target)}`;
  const failed = payloadOf('notify.failed', e);
  if (failed) return `A notification to ${channelTo(failed.target)} could not be delivered after ${plural(failed.tries, 'try', 'tries')}: ${failed.reason}`;
  // An event this app does not know yet: its name in words, never its raw payload.
  return cap(e.type.replace(/[._]+/g, ' '));
}
