// The PR panel's words and tones (pure): each check's mark (a check still running or not reported yet is never green),
// the one-line headline of where the pull request stands, the review and mergeability lines, each round of remote gates.
import type { PrPanelDoc } from '../../../shared/contract';
import type { PrCheckDoc, PrRoundDoc } from '../../../shared/pull-request';
import { money } from '../../../shared/money';
import { plural } from './format';

export type Tone = 'good' | 'bad' | 'attention' | 'muted' | 'info';

const PASSED = new Set(['success', 'neutral', 'skipped']);

/** A check's mark: passed only on a concluded success (neutral, skipped); pending while it runs or has not reported. */
export function checkMark(c: PrCheckDoc, watching: boolean): { tone: Tone; label: string } {
  if (c.conclusion === null) return { tone: 'attention', label: watching ? 'pending' : 'not finished' };
  if (PASSED.has(c.conclusion)) return { tone: 'good', label: c.conclusion === 'success' ? 'passed' : c.conclusion };
  return { tone: 'bad', label: c.conclusion.replace(/_/g, ' ') };
}

/** Required checks first (in the protection's order), then the others, as GitHub's merge box lists them. */
export function orderedChecks(checks: readonly PrCheckDoc[]): PrCheckDoc[] {
  return [...checks.filter((c) => c.required), ...checks.filter((c) => !c.required)];
}

/** The checks that decide: the required ones when the base branch has any, else every check. */
export function decidingChecks(checks: readonly PrCheckDoc[]): PrCheckDoc[] {
  const required = checks.filter((c) => c.required);
  return required.length ? required : [...checks];
}

/** Where the pull request stands, in one line with its tone. */
export function prHeadline(doc: PrPanelDoc): { tone: Tone; text: string } {
  const pr = doc.pr;
  if (!pr) return { tone: 'muted', text: 'No pull request yet.' };
  if (pr.merged) return { tone: 'good', text: `Merged.` };
  if (pr.state === 'closed') return { tone: 'muted', text: 'Closed without being merged.' };
  const deciding = decidingChecks(pr.checks);
  const failed = deciding.filter((c) => c.conclusion !== null && !PASSED.has(c.conclusion));
  if (failed.length) return { tone: 'bad', text: `${failed.map((c) => c.name).join(', ')} failed on ${pr.headSha.slice(0, 8)}.` };
  const blocking = doc.live?.reviews.find((r) => r.state === 'CHANGES_REQUESTED');
  if (blocking) return { tone: 'bad', text: `${blocking.author} requested changes.` };
  const pending = deciding.filter((c) => c.conclusion === null);
  if (pending.length) return { tone: 'attention', text: `Waiting for ${pending.map((c) => c.name).join(', ')}.` };
  if (!deciding.length) return { tone: 'attention', text: doc.watching ? 'Waiting for the first check to report.' : 'No check has reported on this commit.' };
  const required = deciding.some((c) => c.required);
  return { tone: 'good', text: `Every ${required ? 'required ' : ''}check passed on ${pr.headSha.slice(0, 8)}.` };
}

/** Each reviewer's standing review, or that there is none yet. */
export function reviewLine(doc: PrPanelDoc): { tone: Tone; text: string } {
  const reviews = doc.live?.reviews ?? [];
  const changes = reviews.filter((r) => r.state === 'CHANGES_REQUESTED').map((r) => r.author);
  const approved = reviews.filter((r) => r.state === 'APPROVED').map((r) => r.author);
  if (changes.length) return { tone: 'bad', text: `Changes requested by ${changes.join(', ')}` };
  if (approved.length) return { tone: 'good', text: `Approved by ${approved.join(', ')}` };
  if (reviews.length) return { tone: 'info', text: `Commented on by ${reviews.map((r) => r.author).join(', ')}` };
  return { tone: 'muted', text: doc.live ? 'No review yet' : 'Not known yet' };
}

/** Whether GitHub can merge it as it stands. */
export function mergeableLine(doc: PrPanelDoc): { tone: Tone; text: string } {
  if (doc.pr?.merged) return { tone: 'good', text: 'Merged' };
  const live = doc.live;
  if (!live || live.mergeable === null) return { tone: 'muted', text: 'GitHub is still working it out' };
  if (!live.mergeable || live.mergeableState === 'dirty') return { tone: 'bad', text: 'Conflicts with the base branch' };
  if (live.mergeableState === 'blocked') return { tone: 'attention', text: 'Blocked by the branch’s rules until its checks and reviews pass' };
  if (live.mergeableState === 'behind') return { tone: 'attention', text: 'Behind the base branch' };
  return { tone: 'good', text: 'No conflicts' };
}

const KIND = { ci: 'CI', review: 'Review' } as const;

/** One round of remote gates: what started it, how it ended, what it took. */
export function roundLine(r: PrRoundDoc): string {
  const cost = r.costUsd === null ? '' : `, ${money(r.costUsd)}`;
  return `${KIND[r.kind]}: ${r.trigger} — ${r.outcome.replace(/_/g, ' ')} (${plural(r.attempts, 'attempt')}${cost})`;
}
