// The pull request's title and body, written from the run (pure): the task, each step with its commit, what was
// retried and why, the gates that passed locally, the cost. The task, titles and failure messages are text Ratchet did
// not write: kept to one line each, bounded, and set in code spans where they quote a failure.
import { money } from '../../../shared/money';
import type { StatusDocument } from '../../../shared/domain';

export interface PullBodyInput {
  doc: StatusDocument;
  taskTitle: string;
  taskDescription: string;
  /** Per step index: the gates that passed on its final attempt. */
  gatesPassed: ReadonlyMap<number, readonly string[]>;
  /** The issue the task came from (same repository): the body says "Fixes #N", so merging closes it. */
  issue?: number | undefined;
}

const MAX_TITLE = 120;
const MAX_LINE = 200;
const MAX_DESCRIPTION = 4000;

function oneLine(s: string, max = MAX_LINE): string {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Text in a Markdown code span that its own backticks cannot close. */
function code(s: string): string {
  const text = oneLine(s);
  const run = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(run + 1);
  return `${fence}${run ? ' ' : ''}${text}${run ? ' ' : ''}${fence}`;
}

export function pullTitle(taskTitle: string): string {
  return oneLine(taskTitle, MAX_TITLE) || 'Changes by Ratchet';
}

export function pullBody(p: PullBodyInput): string {
  const out: string[] = [];
  const description = p.taskDescription.trim();
  if (description) out.push(description.length > MAX_DESCRIPTION ? `${description.slice(0, MAX_DESCRIPTION - 1)}…` : description, '');
  if (p.issue) out.push(`Fixes #${p.issue}`, '');
  out.push('### Steps', '');
  let attempts = 0;
  for (const step of p.doc.steps) {
    attempts += step.attempts.length;
    const commit = step.commit ? ` — \`${step.commit.slice(0, 8)}\`` : '';
    const tries = step.attempts.length > 1 ? ` (${step.attempts.length} attempts)` : '';
    out.push(`${step.index}. **${oneLine(step.title)}**${commit}${tries}`);
    for (const a of step.attempts) {
      if (a.outcome === 'passed' || a.outcome === 'running') continue;
      const why = a.errorClass ? a.errorClass.replace(/_/g, ' ') : a.outcome;
      const first = a.failures?.[0];
      const detail = first ? code(first.name) : a.message ? code(a.message) : '';
      out.push(`   - attempt ${a.n} ${a.outcome === 'flaky' ? 'was flaky' : 'failed'}: ${why}${detail ? ` ${detail}` : ''}`);
    }
  }
  const gates = [...new Set([...p.gatesPassed.values()].flat())].sort();
  out.push('', '### Checked locally', '');
  out.push(
    gates.length
      ? `Gates passed on each step's final commit: ${gates.map((g) => `\`${g}\``).join(', ')}.`
      : 'No gate ran (the run was started without checks).',
  );
  out.push('', '### Cost', '', `${money(p.doc.costUsd)} over ${attempts} attempt${attempts === 1 ? '' : 's'}.`);
  out.push('', `<sub>Opened by Ratchet from run \`${p.doc.id}\` (branch \`${p.doc.branch}\`).</sub>`);
  return out.join('\n');
}
