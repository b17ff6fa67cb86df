// Watching a pull request until it is decided: the verdict on one look (pure: which checks count, whether they are
// green, failing or still running, whether a review asks for changes), and the loop that looks again with a wait that
// grows while nothing changes (each look is conditional requests, free against the rate limit while nothing moved).
import type { Forge, ForgeCheck, PullRequest, Review } from './forge';

export interface WatchLook {
  pr: PullRequest;
  /** The base branch's required checks; empty: every check on the head counts. */
  required: readonly string[];
  checks: readonly ForgeCheck[];
  reviews: readonly Review[];
}

export type WatchVerdict =
  | { kind: 'merged' }
  | { kind: 'closed' }
  | { kind: 'green' }
  | { kind: 'waiting'; waitingFor: string[] }
  | { kind: 'failing'; failing: ForgeCheck[] }
  | { kind: 'changes_requested'; review: Review };

const done = (c: ForgeCheck | undefined): boolean => c?.status === 'completed';
const passed = (c: ForgeCheck): boolean => c.conclusion === 'success' || c.conclusion === 'neutral' || c.conclusion === 'skipped';

/** The checks that decide: the required ones (a missing one counts, as never green), else every check on the head. */
export function decidingChecks(look: Pick<WatchLook, 'required' | 'checks'>): { name: string; check: ForgeCheck | undefined }[] {
  if (look.required.length) return look.required.map((name) => ({ name, check: look.checks.find((c) => c.name === name) }));
  return look.checks.map((c) => ({ name: c.name, check: c }));
}

/** Each reviewer's latest review that approves or asks for changes; a later comment-only review does not lift a request. */
function standingReviews(reviews: readonly Review[]): Review[] {
  const latest = new Map<string, Review>();
  for (const r of reviews) if (r.state === 'APPROVED' || r.state === 'CHANGES_REQUESTED' || r.state === 'DISMISSED') latest.set(r.author, r);
  return [...latest.values()];
}

export function watchVerdict(look: WatchLook): WatchVerdict {
  if (look.pr.merged) return { kind: 'merged' };
  if (look.pr.state === 'closed') return { kind: 'closed' };
  const deciding = decidingChecks(look);
  const failing = deciding.flatMap((d) => (d.check && done(d.check) && !passed(d.check) ? [d.check] : []));
  if (failing.length) return { kind: 'failing', failing };
  const blocking = standingReviews(look.reviews).find((r) => r.state === 'CHANGES_REQUESTED');
  if (blocking) return { kind: 'changes_requested', review: blocking };
  const waitingFor = deciding.filter((d) => !done(d.check)).map((d) => d.name);
  if (waitingFor.length || deciding.length === 0) return { kind: 'waiting', waitingFor };
  return { kind: 'green' };
}

/** The next wait: back to the shortest when something changed, else half as long again, up to the longest. */
export function nextWaitMs(previousMs: number, changed: boolean, minMs: number, maxMs: number): number {
  return changed ? minMs : Math.min(maxMs, Math.max(minMs, Math.round(previousMs * 1.5)));
}

export interface WatchOptions {
  /** The shortest and longest wait between looks (defaults 5 s and 120 s). */
  minWaitMs?: number;
  maxWaitMs?: number;
  /** How long a head with no check at all is waited on before it is reported (default 10 minutes). */
  noChecksMs?: number;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  signal?: AbortSignal;
  /** Told every look whose checks, head or verdict differ from the one before. */
  onChange?: (look: WatchLook, verdict: WatchVerdict) => void;
}

export type WatchEnd = { verdict: WatchVerdict; look: WatchLook } | { verdict: { kind: 'no_checks' }; look: WatchLook };

export async function look(forge: Forge, prNumber: number, required: readonly string[]): Promise<WatchLook> {
  const pr = await forge.getPull(prNumber);
  const [checks, reviews] = await Promise.all([forge.checks(pr.headSha), forge.reviews(prNumber)]);
  return { pr, required, checks, reviews };
}

function signature(l: WatchLook, v: WatchVerdict): string {
  return JSON.stringify([l.pr.headSha, l.pr.state, l.pr.merged, v.kind, l.checks.map((c) => [c.name, c.status, c.conclusion]), l.reviews.map((r) => r.id)]);
}

/** Looks until the verdict is no longer `waiting` (or a head with no checks has waited `noChecksMs`). */
export async function watchPull(forge: Forge, prNumber: number, o: WatchOptions): Promise<WatchEnd> {
  const minMs = o.minWaitMs ?? 5_000;
  const maxMs = o.maxWaitMs ?? 120_000;
  const noChecksMs = o.noChecksMs ?? 600_000;
  const first = await forge.getPull(prNumber);
  const required = await forge.requiredChecks(first.baseBranch);
  let wait = minMs;
  let last = '';
  let headSince = { sha: '', at: o.now() };
  for (;;) {
    const l = await look(forge, prNumber, required);
    const v = watchVerdict(l);
    const sig = signature(l, v);
    const changed = sig !== last;
    if (changed) o.onChange?.(l, v);
    last = sig;
    if (v.kind !== 'waiting') return { verdict: v, look: l };
    if (l.pr.headSha !== headSince.sha) headSince = { sha: l.pr.headSha, at: o.now() };
    if (l.checks.length === 0 && required.length === 0 && o.now() - headSince.at >= noChecksMs) return { verdict: { kind: 'no_checks' }, look: l };
    if (o.signal?.aborted) throw o.signal.reason;
    wait = nextWaitMs(wait, changed, minMs, maxMs);
    await o.sleep(wait);
  }
}
