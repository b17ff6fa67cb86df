// Renders the resume plan ("Workflow Resume Plan") and the interrupted-runs list for the terminal.
import type { ResumeInfo, RunRow } from '../engine';
import { wordTimes } from '../../shared/reason-text';
import { ago as timeAgo } from '../../shared/time-ago';

/** The terminal's long form ("3 minutes ago"). */
export function ago(iso: string | null, now: Date = new Date()): string {
  return timeAgo(iso, now.getTime(), 'long');
}

const OPTION_TEXT: Record<string, string> = {
  checkout_branch: 'check out the right branch',
  recreate_worktree: 'recreate the worktree from the branch',
  rescue_commit: 'keep the changes in a rescue commit',
  stash: 'keep the changes in a stash',
  abort: 'abort',
};

export function optionText(o: string): string {
  return OPTION_TEXT[o] ?? o;
}

/** One line per interrupted run: task, phase/step, how long ago. */
export function interruptedLine(
  i: number,
  run: RunRow,
  step: { index: number; total: number; title: string; phase: string | null } | null,
  now = new Date(),
): string {
  const where = step ? `${step.phase ? `${step.phase}: ` : ''}Step ${step.index}/${step.total} ${step.title}` : 'not started';
  // An interrupted run reads as seed 003's list does; any other says its status (paused, failed, waiting for approval…).
  const status = run.status === 'interrupted' ? '' : ` - ${run.status === 'waiting_approval' ? 'waiting for approval' : run.status}`;
  return `${i}. ${run.task_title} (${where})${status} - ${ago(run.heartbeat_at ?? run.updated_at, now)}  [${run.id}]`;
}

export function renderResumePlan(info: ResumeInfo, now = new Date()): string {
  const { run, facts, plan } = info;
  const total = facts.steps.length;
  const last = info.lastStep;
  const who = (agent: string | null, model: string | null) => [agent, model].filter(Boolean).join(', ');
  const lines = [
    'Workflow Resume Plan',
    `Task:      ${run.task_title}`,
    `Worktree:  ${run.worktree}`,
    `Branch:    ${run.branch}`,
    'Current state:',
    `  - Status: ${run.status}`,
    ...(info.phase ? [`  - Phase: ${info.phase.index}/${info.phase.total} - ${info.phase.name}`] : []),
    ...(last
      ? [`  - Last step: ${last.index}/${total} ${last.title}${last.agent || last.model ? ` (${who(last.agent, last.model)})` : ''} - ${last.status}`]
      : []),
    `  - Interrupted: ${ago(run.heartbeat_at ?? run.updated_at, now)}`,
  ];
  if (run.reason) lines.push(`  - Reason: ${wordTimes(run.reason.split('\n')[0]!, now.getTime())}`);
  lines.push('Completed work:');
  if (plan.completed.length === 0) lines.push('  (no step committed yet)');
  for (const c of plan.completed) lines.push(`  ✓ Step ${c.index}: ${c.title} (commit ${c.commit.slice(0, 10)})`);
  lines.push('Resume plan:');
  if (plan.nextStep !== null) {
    const next = facts.steps.find((s) => s.index === plan.nextStep);
    lines.push(`  - Next step: ${plan.nextStep}/${total}${next ? ` ${next.title}` : ''}${next?.phase ? ` (phase ${next.phase})` : ''}`);
    if (info.nextAgent) lines.push(`  - Agent to invoke: ${who(info.nextAgent.agent, info.nextAgent.model)}`);
  }
  lines.push(`  - Action: ${plan.action.replace('_', ' ')}`, `  - Reason: ${plan.reason}`);
  if (plan.phaseRollover) lines.push(`  - ${plan.phaseRollover}`);
  if (plan.required.length) {
    lines.push('Required actions:');
    for (const r of plan.required) lines.push(`  [ ] ${r.message} (options: ${r.options.map(optionText).join(' / ')}; default: ${optionText(r.safeDefault)})`);
  }
  if (info.baseConflicts.length) lines.push(`Warning: the base branch moved and merging it would conflict in ${info.baseConflicts.join(', ')}.`);
  if (info.repeatedFailures.length) {
    lines.push(`Warning: step ${plan.nextStep} failed ${info.repeatedFailures.length} times across runs.`);
    info.repeatedFailures.forEach((f, i) =>
      lines.push(`  - Attempt ${i + 1} (run ${f.runId}): ${f.errorClass ?? 'failed'}${f.message ? ` — ${f.message.split('\n')[0]}` : ''}`),
    );
    lines.push(
      'Recommended actions:',
      `  1. Review the plan (ratchet plan ${run.id} --edit <file>) to find the root cause`,
      '  2. Step in yourself (is a redesign needed?)',
      '  3. Skip the step for now (--skip-step)',
    );
  }
  return lines.join('\n');
}
