// The loop after the branch: a run's pull request watched until it is decided, its failing CI checks and its reviews
// treated as remote gates of the run. A failing check is classified (ci-classify.ts): infrastructure → its failed jobs
// re-run once, no agent; a failure that passes on a re-run of the same commit → recorded as flaky, no agent; broken on
// the base → needs you; real → one more step of the run ("Fix CI: <check>") through the run's own step machine (its
// local gates first: a fix that fails them is never pushed), then pushed, and the watch goes on with the new head. A
// submitted review with line comments → the review round (review/review-round.ts), then a reply on each thread. Every
// round is kept in the run's `pr.rounds`; a fix round's attempts are the run's own (priced, under refs/ratchet/…).
import type { StatusDocument } from '../../../shared/domain';
import type { PrRoundDoc } from '../../../shared/pull-request';
import { RatchetError, runNotFound } from '../errors';
import { pushRun } from '../git/run-merge';
import { backoffDelayS } from '../policy/backoff';
import { ciLimits, resolvePolicy } from '../policy/policy';
import type { ReviewRounds } from '../review/review-round';
import { RunPrStore } from '../store/run-pr';
import type { Store } from '../store/store';
import { boundText } from '../gates/bounded-output';
import { classifyCiFailure, type CiVerdict } from './ci-classify';
import type { Forge, ForgeCheck, MergeMethod, Review } from './forge';
import { prChecks, prDocOf } from './open-pull';
import { decidingChecks, look, nextWaitMs, watchVerdict, type WatchLook } from './pr-watch';

export type FixKind = 'ci' | 'review';

export interface PullLoopDeps {
  store: Store;
  review: ReviewRounds;
  /** Adds one step to the run's plan and runs it now under the run's lease through its step machine. */
  runStep(runId: string, step: { title: string; prompt: string }, signal: AbortSignal): Promise<StatusDocument>;
  /** The API key and sandbox a round needs, and the run's workflow trust (`trust`: trust it again). */
  requireToRun(runId: string, trust: boolean): void;
}

export interface PullLoopOptions {
  /** What goes back to the agent: failing CI checks, reviews (default: ci). */
  fix: ReadonlySet<FixKind>;
  /** Merge when safe (default: never). */
  merge: MergeMethod | null;
  /** The options as they stand now, read before each round (the app's toggles changed while it watches); default: fix and merge above. */
  current?: () => { fix: ReadonlySet<FixKind>; merge: MergeMethod | null };
  trust?: boolean;
  minWaitMs?: number;
  maxWaitMs?: number;
  /** Ends the watch (needs you) when nothing decides it for this long; default: no end. */
  maxWaitTotalMs?: number;
  /** How long a head with no check at all is waited on before it is reported (default 10 minutes). */
  noChecksMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  signal?: AbortSignal;
  /** Told each look that differs from the one before (after the run's pr is saved). */
  onLook?: (look: WatchLook) => void;
  /** A sentence about what the loop does (a round, a re-run, what a merge waits for). */
  onProgress?: (line: string) => void;
}

/** How the loop ended: done (green, or merged when asked), failed for good, or needs you; with the sentence that says it. */
export interface PullLoopEnd {
  end: 'done' | 'failed' | 'needs_you';
  say: string;
  look: WatchLook;
}

const short = (sha: string) => sha.slice(0, 8);
const KEPT_LOG_CHARS = 6000;

/** The lines of a job's log worth showing the agent: the failures' neighbourhood, else its tail. */
export function relevantLogLines(text: string, max = KEPT_LOG_CHARS): string {
  const lines = text.split('\n');
  const hit = /(not ok|fail|error|✗|×|expected|assert|exception|traceback)/i;
  const keep = new Set<number>();
  lines.forEach((l, i) => {
    if (hit.test(l)) for (let j = Math.max(0, i - 2); j <= Math.min(lines.length - 1, i + 4); j++) keep.add(j);
  });
  const picked = keep.size ? [...keep].sort((a, b) => a - b).map((i) => lines[i]!) : lines.slice(-80);
  return boundText(picked.join('\n'), max);
}

/** The step a CI fix round runs as: the failing check, its parsed failures, the log's relevant lines, attempt k of n. */
export function ciFixStep(checkName: string, verdict: CiVerdict, k: number, n: number, headSha: string): { title: string; prompt: string } {
  const failures = verdict.failures.length
    ? verdict.failures.map((f) => `- ${f.file ? `${f.file}: ` : ''}${f.name}${f.message ? ` — ${f.message.split('\n')[0]}` : ''}`).join('\n')
    : '(no failing test could be read from the log; see its lines below)';
  return {
    title: `Fix CI: ${checkName}`,
    prompt: [
      `The pull request's CI check \`${checkName}\` failed on commit ${short(headSha)} (the run's last commit, pushed). Local gates passed there; CI did not.`,
      `This is attempt ${k} of ${n} at fixing CI (limits.ci_failure = ${n}).`,
      `Classification: ${verdict.classification.errorClass}${verdict.classification.message ? ` — ${verdict.classification.message}` : ''}.`,
      `### Failing tests\n\n${failures}`,
      `### The job's log (relevant lines)\n\n\`\`\`\n${relevantLogLines(verdict.text)}\n\`\`\``,
      'Fix the cause in the code so the check passes in CI as well as locally. Do not weaken or skip the failing tests.',
    ].join('\n\n'),
  };
}

/** The reply on a review thread once its round is pushed: the commit, or why not in the agent's own words. */
export function threadReply(c: { verdict: string | null; answer: string | null }, commit: string | null): string {
  if (c.verdict === 'declined') return `Not changed${commit ? ` (round commit ${short(commit)})` : ''}: ${c.answer ?? 'the agent declined without a reason.'}`;
  if (!commit) return `Not addressed: the round for this review committed nothing${c.answer ? ` (${c.answer})` : ''}.`;
  return `Addressed in ${commit}.${c.answer ? ` ${c.answer}` : ''}`;
}

/** The failures' identity for "the same failure again": its class and its failing tests' names, sorted. */
function failureNames(v: CiVerdict): string[] {
  return v.failures.length ? v.failures.map((f) => `${f.file ? `${f.file}: ` : ''}${f.name}`).sort() : [`(${v.classification.errorClass})`];
}

/** Whether a review asks the agent for something: line comments (top-level ones) or a request for changes. */
function actionable(r: Review): boolean {
  return r.state === 'CHANGES_REQUESTED' || r.state === 'COMMENTED';
}

export function createPullLoop(deps: PullLoopDeps) {
  const { store } = deps;
  const prs = new RunPrStore(store);

  return async function loop(runId: string, forge: Forge, prNumber: number, o: PullLoopOptions): Promise<PullLoopEnd> {
    const run0 = store.getRun(runId);
    if (!run0) throw runNotFound(runId);
    const workflow = store.getWorkflow(runId);
    const limits = ciLimits(workflow);
    const policy = resolvePolicy(workflow);
    const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    const now = o.now ?? (() => Date.now());
    const say = (line: string) => {
      o.onProgress?.(line);
      store.event(runId, 'log', { level: 'info', message: `pull request #${prNumber}: ${line}` });
    };
    const signal = o.signal ?? new AbortController().signal;
    const minMs = o.minWaitMs ?? 5_000;
    const maxMs = o.maxWaitMs ?? 120_000;
    const noChecksMs = o.noChecksMs ?? 600_000;
    const started = now();

    const rounds = (): PrRoundDoc[] => prs.get(runId)?.rounds ?? [];
    const save = (l: WatchLook, extra: PrRoundDoc[] = []) => {
      prs.put(
        runId,
        `${forge.repo.owner}/${forge.repo.name}`,
        prDocOf(l.pr, prChecks(l.checks, l.required), [...rounds(), ...extra]),
        new Date().toISOString(),
      );
    };
    /**
     * Keeps a round. A verdict with no work behind it (a cap, a repeat, broken on the base) that is already the check's
     * last round on this head is said again but not kept twice: a watch started again (Check again, the app's panel, a
     * restarted host) on the same head does not count it again in the statistics.
     */
    const record = (l: WatchLook, r: PrRoundDoc) => {
      const last = rounds()
        .filter((x) => x.kind === r.kind && x.trigger === r.trigger)
        .at(-1);
      const again = r.attempts === 0 && ['cap', 'repeat', 'broken_on_base', 'no_comments'].includes(r.outcome);
      if (again && last && last.outcome === r.outcome && last.head === r.head) return save(l);
      save(l, [r]);
    };
    const ended = (end: PullLoopEnd['end'], sentence: string, l: WatchLook): PullLoopEnd => {
      store.event(runId, 'log', { level: end === 'done' ? 'info' : 'warn', message: `pull request #${prNumber}: ${sentence}` });
      return { end, say: sentence, look: l };
    };
    /** The attempts and cost of one step of the run (a round's). */
    const stepSpend = (stepIndex: number): { attempts: number; costUsd: number | null } => {
      const attempts = store.getAttempts(runId, stepIndex);
      const known = attempts.every((a) => a.cost_known);
      return { attempts: attempts.length, costUsd: known ? Math.round(attempts.reduce((s, a) => s + (a.cost_usd ?? 0), 0) * 1e6) / 1e6 : null };
    };

    const required = await forge.requiredChecks((await forge.getPull(prNumber)).baseBranch);
    // Failures re-run once on the same commit to tell flaky from real: `${sha}:${check}` → the tests that failed.
    const rerunToTell = new Map<string, string[]>();
    const noComments = new Set<number>();
    // Failed check runs already acted on (re-run): a forge slow to show the new attempt still lists them for a while.
    const actedOn = new Set<number>();
    let wait = minMs;
    let lastSig = '';
    let headSince = { sha: '', at: now() };
    let waitingSaid = '';

    /** One CI round for a failing check; null: the loop looks again, else how it ended. */
    async function ciRound(l: WatchLook, check: ForgeCheck): Promise<PullLoopEnd | null> {
      const head = l.pr.headSha;
      const key = `${head}:${check.name}`;
      if (check.id === null)
        return ended(
          'failed',
          `#${prNumber} failed: the status ${check.name} is ${check.conclusion} on ${short(head)} (a commit status has no log to fix from).`,
          l,
        );
      const log = await forge.jobLog(check.id);
      const base = l.pr.baseSha ? (await forge.checks(l.pr.baseSha)).find((c) => c.name === check.name) : undefined;
      const verdict = classifyCiFailure({
        checkName: check.name,
        conclusion: check.conclusion,
        log,
        baseConclusion: base?.status === 'completed' ? base.conclusion : undefined,
        passedOnSameCommit: false,
      });
      const past = rounds().filter((r) => r.kind === 'ci' && r.trigger === check.name);
      const on = (r: PrRoundDoc) => r.head === head;
      if (verdict.ciClass === 'broken_on_base') {
        record(l, { kind: 'ci', trigger: check.name, outcome: 'broken_on_base', attempts: 0, costUsd: 0, head });
        return ended(
          'needs_you',
          `#${prNumber} needs you: ${check.name} fails on ${l.pr.baseBranch}'s head ${short(l.pr.baseSha)} too (${verdict.classification.message || check.conclusion}); the base or CI needs fixing, not this branch.`,
          l,
        );
      }
      if (verdict.ciClass === 'infrastructure') {
        const used = past.filter((r) => r.outcome === 'rerun' && on(r)).length;
        if (used >= limits.ci_infrastructure)
          return ended(
            'needs_you',
            `#${prNumber} needs you: ${check.name} lost its runner again on ${short(head)} after ${used} re-run${used === 1 ? '' : 's'} (limits.ci_infrastructure = ${limits.ci_infrastructure}).`,
            l,
          );
        await forge.rerunFailedJobs(check.id);
        actedOn.add(check.id);
        record(l, { kind: 'ci', trigger: check.name, outcome: 'rerun', attempts: 0, costUsd: 0, head });
        say(
          `${check.name} failed for the infrastructure's sake (${verdict.classification.message || check.conclusion}): its failed jobs re-run, no agent call.`,
        );
        return null;
      }
      // A real-looking failure: once per commit, a re-run tells flaky from real before an agent is paid for it.
      if (policy.flakyCheck && !rerunToTell.has(key) && !past.some((r) => on(r) && r.outcome === 'flaky')) {
        rerunToTell.set(
          key,
          verdict.failures.map((f) => f.name),
        );
        await forge.rerunFailedJobs(check.id);
        actedOn.add(check.id);
        say(
          `${check.name} failed on ${short(head)} (${verdict.failures.length} failing test${verdict.failures.length === 1 ? '' : 's'}): re-run once to tell flaky from real.`,
        );
        return null;
      }
      const fixes = past.filter((r) => ['pushed', 'failed', 'no_change', 'repeat'].includes(r.outcome));
      const k = fixes.length + 1;
      const n = limits.ci_failure;
      if (k > n) {
        record(l, { kind: 'ci', trigger: check.name, outcome: 'cap', attempts: 0, costUsd: 0, head });
        return ended(
          'needs_you',
          `#${prNumber} needs you: ${check.name} still fails on ${short(head)} after ${n} fix round${n === 1 ? '' : 's'} (limits.ci_failure = ${n}).`,
          l,
        );
      }
      const names = failureNames(verdict);
      const previous = fixes.at(-1)?.tests;
      if (previous && JSON.stringify(previous) === JSON.stringify(names)) {
        record(l, { kind: 'ci', trigger: check.name, outcome: 'repeat', attempts: 0, costUsd: 0, head, tests: names });
        return ended(
          'needs_you',
          `#${prNumber} needs you: ${check.name} fails the same way after its fix round (${names.join(', ')}); another round would not change that.`,
          l,
        );
      }
      if (k > 1) {
        const s = backoffDelayS(policy.backoff, k - 1);
        if (s > 0) {
          say(`waiting ${s}s before fix round ${k} of ${n}.`);
          await sleep(s * 1000);
        }
      }
      const run = store.getRun(runId)!;
      if (run.status !== 'succeeded') return ended('failed', `#${prNumber}: run ${runId} is ${run.status}; a CI fix round needs a succeeded run.`, l);
      say(`${check.name} failed on ${short(head)}: fix round ${k} of ${n} ("Fix CI: ${check.name}").`);
      const stepIndex = (store.getPlan(runId)?.steps.length ?? 0) + 1;
      deps.requireToRun(runId, o.trust ?? false);
      const doc = await deps.runStep(runId, ciFixStep(check.name, verdict, k, n, head), signal);
      const spend = stepSpend(stepIndex);
      const step = store.getSteps(runId).find((s) => s.step_index === stepIndex);
      const round = { kind: 'ci' as const, trigger: check.name, ...spend, head, tests: names };
      if (doc.status !== 'succeeded' || !step?.commit_sha) {
        record(l, { ...round, outcome: 'failed' });
        // Failed for good when its retries ran out; a run that stopped for you (budget, approval) needs you.
        return ended(
          doc.status === 'failed' ? 'failed' : 'needs_you',
          `#${prNumber} ${doc.status === 'failed' ? 'failed' : 'needs you'}: the fix for ${check.name} did not pass the local gates (run ${doc.status}); nothing was pushed.`,
          l,
        );
      }
      if (step.commit_sha === head) {
        record(l, { ...round, outcome: 'no_change' });
        return ended('needs_you', `#${prNumber} needs you: the fix round for ${check.name} changed nothing.`, l);
      }
      await pushRun(run.repo_path, run.branch, run.base_branch);
      record(l, { ...round, outcome: 'pushed', commit: step.commit_sha });
      say(`pushed ${short(step.commit_sha)} (Fix CI: ${check.name}); watching the new head.`);
      return null;
    }

    /** One review round for a submitted review's line comments: the comments kept, sent, pushed and replied to. */
    async function reviewRound(l: WatchLook, r: Review): Promise<PullLoopEnd | null> {
      const trigger = `review ${r.id}`;
      const comments = (await forge.reviewComments(prNumber, r.id)).filter((c) => c.inReplyTo === null);
      if (!comments.length) {
        // A review of replies only (Ratchet's own among them) or of a body alone: nothing for the agent.
        if (r.state !== 'CHANGES_REQUESTED') {
          noComments.add(r.id);
          return null;
        }
        record(l, { kind: 'review', trigger, outcome: 'no_comments', attempts: 0, costUsd: 0, head: l.pr.headSha });
        return ended('needs_you', `#${prNumber} needs you: ${r.author} requested changes without a line comment${r.body ? `: “${r.body}”` : ''}.`, l);
      }
      const kept: { id: number; external: number }[] = [];
      for (const c of comments) {
        try {
          if (c.line === null) throw new RatchetError('bad_arguments', 'its line is no longer in the pull request’s diff (outdated).');
          const row = await deps.review.comment(runId, { file: c.path, line: c.line, body: c.body, source: 'forge', externalId: String(c.id) });
          kept.push({ id: row.id, external: c.id });
        } catch (e) {
          await forge.replyToReviewComment(prNumber, c.id, `Not sent to the agent: ${(e as Error).message}`);
        }
      }
      if (!kept.length) {
        record(l, { kind: 'review', trigger, outcome: 'failed', attempts: 0, costUsd: 0, head: l.pr.headSha });
        return ended('needs_you', `#${prNumber} needs you: none of ${r.author}'s comments points at a line of the run's branch.`, l);
      }
      say(`${r.author}'s review: ${kept.length} comment${kept.length === 1 ? '' : 's'} in one round.`);
      const sent = await deps.review.send(runId, { signal, trust: o.trust ?? false });
      const spend = stepSpend(sent.round.step_index);
      const commit = sent.round.commit_sha;
      const round = { kind: 'review' as const, trigger, ...spend, head: l.pr.headSha };
      if (!commit || sent.doc.status !== 'succeeded') {
        record(l, { ...round, outcome: 'failed' });
        return ended(
          sent.doc.status === 'failed' ? 'failed' : 'needs_you',
          `#${prNumber} ${sent.doc.status === 'failed' ? 'failed' : 'needs you'}: the round for ${r.author}'s review did not pass the local gates (run ${sent.doc.status}); nothing was pushed.`,
          l,
        );
      }
      const run = store.getRun(runId)!;
      await pushRun(run.repo_path, run.branch, run.base_branch);
      const byId = new Map(sent.comments.map((c) => [c.id, c]));
      for (const k of kept) {
        const c = byId.get(k.id);
        await forge.replyToReviewComment(prNumber, k.external, threadReply({ verdict: c?.verdict ?? null, answer: c?.answer ?? null }, commit));
      }
      record(l, { ...round, outcome: 'answered', commit });
      say(`pushed ${short(commit)} for ${r.author}'s review; replied on ${kept.length} thread${kept.length === 1 ? '' : 's'}.`);
      return null;
    }

    /** What merging waits for on this look (empty: it is safe now). */
    function mergeBlockers(l: WatchLook): string[] {
      const out: string[] = [];
      for (const d of decidingChecks(l)) {
        if (!d.check) out.push(`${d.name} (not reported yet)`);
        else if (d.check.status !== 'completed') out.push(`${d.name} (${d.check.status})`);
        else if (d.check.conclusion !== 'success') out.push(`${d.name} (${d.check.conclusion})`);
      }
      if (decidingChecks(l).length === 0) out.push('a check to report');
      if (l.pr.mergeable === null) out.push('GitHub to compute mergeability');
      else if (!l.pr.mergeable) out.push(`a mergeable branch (GitHub says ${l.pr.mergeableState})`);
      return out;
    }

    for (;;) {
      if (signal.aborted) throw signal.reason;
      const { fix, merge } = o.current?.() ?? o;
      const l = await look(forge, prNumber, required);
      const v = watchVerdict(l);
      const sig = JSON.stringify([
        l.pr.headSha,
        l.pr.state,
        l.pr.merged,
        v.kind,
        l.checks.map((c) => [c.name, c.status, c.conclusion]),
        l.reviews.map((x) => x.id),
      ]);
      const changed = sig !== lastSig;
      lastSig = sig;
      if (changed) {
        save(l);
        o.onLook?.(l);
      }
      if (v.kind === 'merged') return ended('done', `#${prNumber} is merged.`, l);
      if (v.kind === 'closed') return ended('failed', `#${prNumber} was closed without being merged.`, l);

      // A failure seen earlier on this head, re-run to tell flaky from real, that passed: flaky, recorded, no agent.
      for (const [key, tests] of rerunToTell) {
        const [sha, name] = [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)];
        const now_ = l.checks.find((c) => c.name === name);
        if (sha !== l.pr.headSha || !now_ || now_.status !== 'completed' || now_.conclusion !== 'success') continue;
        rerunToTell.delete(key);
        record(l, { kind: 'ci', trigger: name, outcome: 'flaky', attempts: 0, costUsd: 0, head: sha, tests });
        const flaky = rounds().filter((r) => r.kind === 'ci' && r.trigger === name && r.outcome === 'flaky').length;
        say(`${name} is flaky on ${short(sha)}: ${tests.join(', ') || 'its job'} failed, then passed on a re-run (no agent call).`);
        if (flaky > limits.ci_flaky)
          return ended(
            'needs_you',
            `#${prNumber} needs you: ${name} was flaky ${flaky} times (limits.ci_flaky = ${limits.ci_flaky}); make its tests reliable.`,
            l,
          );
      }

      let acted = false;
      if (fix.has('review')) {
        const handled = new Set(rounds().flatMap((r) => (r.kind === 'review' ? [r.trigger] : [])));
        const next = l.reviews.find((r) => actionable(r) && !handled.has(`review ${r.id}`) && !noComments.has(r.id));
        if (next) {
          const e = await reviewRound(l, next);
          if (e) return e;
          acted = true;
        }
      }
      if (!acted && v.kind === 'failing') {
        if (!fix.has('ci'))
          return ended('failed', `#${prNumber} failed: ${v.failing.map((c) => `${c.name} (${c.conclusion})`).join(', ')} on ${short(l.pr.headSha)}.`, l);
        const next = v.failing.find((c) => c.id === null || !actedOn.has(c.id));
        if (next) {
          const e = await ciRound(l, next);
          if (e) return e;
          acted = true;
        }
      }
      if (acted) {
        wait = minMs;
        lastSig = '';
        continue;
      }
      if (v.kind === 'changes_requested') {
        const answered = rounds().some((r) => r.trigger === `review ${v.review.id}` && r.outcome === 'answered');
        const running = decidingChecks(l).some((d) => d.check?.status !== 'completed');
        if (!answered || !running)
          return ended(
            'needs_you',
            answered
              ? `#${prNumber} needs you: ${v.review.author}'s review was answered on ${short(l.pr.headSha)}; it still requests changes until they review again.`
              : `#${prNumber} needs you: ${v.review.author} requested changes.`,
            l,
          );
      }
      if (v.kind === 'green') {
        if (!merge) return ended('done', `#${prNumber} is green: every check that counts passed on ${short(l.pr.headSha)}.`, l);
        const blockers = mergeBlockers(l);
        if (!blockers.length) {
          const m = await forge.merge(prNumber, merge, l.pr.headSha);
          const after = { ...l, pr: { ...l.pr, merged: true, state: 'closed' as const } };
          save(after);
          return ended('done', `#${prNumber} is merged (${merge}) as ${short(m.sha)}: every required check passed on ${short(l.pr.headSha)}.`, after);
        }
        if (l.pr.mergeable === false) return ended('needs_you', `#${prNumber} needs you: not merged, it waits for ${blockers.join(', ')}.`, l);
      }
      if (merge) {
        const blockers = mergeBlockers(l);
        const line = `not merging yet: waiting for ${blockers.join(', ')}.`;
        if (line !== waitingSaid) say(line);
        waitingSaid = line;
      }
      if (l.pr.headSha !== headSince.sha) headSince = { sha: l.pr.headSha, at: now() };
      if (l.checks.length === 0 && required.length === 0 && now() - headSince.at >= noChecksMs)
        return ended('needs_you', `#${prNumber} needs you: no check ran on ${short(l.pr.headSha)}; is CI set up for this branch?`, l);
      if (o.maxWaitTotalMs !== undefined && now() - started >= o.maxWaitTotalMs) {
        const waiting = decidingChecks(l)
          .filter((d) => d.check?.status !== 'completed')
          .map((d) => d.name);
        return ended(
          'needs_you',
          `#${prNumber} needs you: still waiting${waiting.length ? ` for ${waiting.join(', ')}` : ''} after ${Math.round((now() - started) / 1000)}s${merge ? '; not merged' : ''}.`,
          l,
        );
      }
      wait = nextWaitMs(wait, changed, minMs, maxMs);
      await sleep(wait);
    }
  };
}

export type PullLoop = ReturnType<typeof createPullLoop>;

/** `--fix ci,review` as a set; `none` (or empty) fixes nothing. */
export function parseFix(value: string | undefined, watch: boolean): Set<FixKind> {
  if (value === undefined) return new Set(watch ? ['ci'] : []);
  const out = new Set<FixKind>();
  for (const part of value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (part === 'none') continue;
    if (part !== 'ci' && part !== 'review') throw new RatchetError('bad_arguments', `--fix takes ci, review or both (ci,review), or none; got \`${part}\`.`);
    out.add(part);
  }
  return out;
}
