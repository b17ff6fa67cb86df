// Review rounds: line comments on a run's change, kept in the store, and "send": every pending comment in one agent
// round, run as a new step "Address review" through the run's own step machine, retry policy, gates and budget. The
// agent's answers and the commit that addressed them are read back per comment; comments then follow their lines.
// Forge-agnostic: a pull request's review comments come in through comment() with source 'forge' and go out the same way.
import { existsSync } from 'node:fs';
import { diffFileFor, hunkAt, hunkText, parseUnifiedDiff } from '../../../shared/unified-diff';
import { TranscriptEntryDoc } from '../../../shared/engine-events';
import type { ReviewCommentDoc, ReviewRoundDoc } from '../../../shared/contract/review';
import type { StatusDocument } from '../../../shared/domain';
import { StepSpec } from '../../../shared/domain';
import { RatchetError, runNotFound } from '../errors';
import { fileAt, fileLines } from '../git/file-lines';
import { branchTip, git, isAncestor } from '../git/repo-git';
import type { RunRow, Store } from '../store/store';
import type { CommentSource, NewComment, ReviewCommentRow, ReviewRoundRow, ReviewStore } from '../store/review-queries';
import type { StepConfig } from '../workflow/schema';
import { moveAnchor } from './comment-anchor';
import { commonStep, parseAnswers, reviewStep } from './review-prompt';

/** What the round needs from the engine (engine.ts builds it over its own parts). */
export interface ReviewDeps {
  store: Store;
  reviews: ReviewStore;
  /** The API key and the sandbox a round needs, and the run's workflow trust (`trust`: trust it again). */
  requireToRun(runId: string, trust: boolean): void;
  revisePlan(runId: string, steps: StepConfig[]): Promise<unknown>;
  /** Runs `fn` holding the run's lease; `execute` runs the run's next steps under that lease. */
  runHeld<T>(runId: string, fn: (execute: (signal: AbortSignal) => Promise<StatusDocument>) => Promise<T>): Promise<T>;
}

export interface NewReviewComment {
  file: string;
  line: number;
  endLine?: number;
  body: string;
  source?: CommentSource;
  externalId?: string | null;
}

async function diffOf(repo: string, from: string, to: string, file?: string): Promise<string> {
  return git(repo).raw(['diff', '--no-color', '--no-ext-diff', '--no-textconv', '--find-renames', from, to, ...(file ? ['--', file] : [])]);
}

async function runHead(run: RunRow): Promise<string> {
  const tip = await branchTip(run.repo_path, run.branch);
  if (!tip) throw new RatchetError('no_branch', `Run ${run.id} has no branch ${run.branch} any more; there is no change to review.`);
  return tip;
}

/** A file path as a comment names it: relative to the repository, `/`-separated, inside it. */
function repoPath(file: string): string {
  const p = file.replace(/\\/g, '/').replace(/^\.\//, '');
  if (!p || p.startsWith('/') || p.split('/').includes('..'))
    throw new RatchetError('bad_arguments', `A comment names a file by its path in the repository (got \`${file}\`).`);
  return p;
}

/** The agent's words in an attempt's transcript (its text entries, in order). */
function agentText(store: Store, attemptId: number): string {
  let entries: unknown;
  try {
    entries = JSON.parse(store.getAttemptTexts(attemptId).transcript_json);
  } catch {
    return '';
  }
  const parsed = TranscriptEntryDoc.array().safeParse(entries);
  return parsed.success
    ? parsed.data
        .filter((e) => e.kind === 'text')
        .map((e) => e.text)
        .join('\n')
    : '';
}

export function createReviewRounds(deps: ReviewDeps) {
  const { store, reviews } = deps;

  const runOf = (runId: string): RunRow => {
    const run = store.getRun(runId);
    if (!run) throw runNotFound(runId);
    return run;
  };

  /** A comment checked against the run's branch as it is now (the lines must exist there), ready to keep. */
  async function check(runId: string, c: NewReviewComment): Promise<NewComment> {
    const run = runOf(runId);
    const file = repoPath(c.file);
    const endLine = c.endLine ?? c.line;
    if (!Number.isInteger(c.line) || c.line < 1 || !Number.isInteger(endLine) || endLine < c.line)
      throw new RatchetError(
        'bad_arguments',
        `A comment's line is a number from 1 (a range: first-last, in order); got ${c.line}${endLine !== c.line ? `-${endLine}` : ''}.`,
      );
    if (!c.body.trim()) throw new RatchetError('bad_arguments', `The comment on ${file}:${c.line} has no text.`);
    const head = await runHead(run);
    const content = await fileAt(run.repo_path, head, file);
    if (content === null) throw new RatchetError('bad_arguments', `${file} is not in run ${runId}'s change (its branch has no such file).`);
    const lines = content.split('\n');
    if (content.endsWith('\n')) lines.pop();
    if (endLine > lines.length)
      throw new RatchetError('bad_arguments', `${file} has ${lines.length} lines on run ${runId}'s branch; line ${endLine} is not one of them.`);
    return {
      runId,
      source: c.source ?? 'app',
      externalId: c.externalId ?? null,
      madeOn: head,
      file,
      line: c.line,
      endLine,
      lineText: lines.slice(c.line - 1, endLine).join('\n'),
      body: c.body.trim(),
    };
  }

  /** A comment on the run's change as its branch holds it now, kept pending until the review is sent. */
  async function comment(runId: string, c: NewReviewComment): Promise<ReviewCommentRow> {
    const row = reviews.addComment(await check(runId, c));
    commentsChanged(runId);
    return row;
  }

  /** Says the pending comments changed (the app's review follows it). */
  function commentsChanged(runId: string): void {
    const pending = reviews.comments(runId).filter((c) => c.state === 'pending').length;
    store.event(runId, 'review.round', { round: null, step: null, status: 'comments', commit: null, comments: pending });
  }

  /** A pending comment of the run, else a sentence saying why it cannot change. */
  function pendingComment(runId: string, id: number): ReviewCommentRow {
    const c = reviews.comment(id);
    if (!c || c.run_id !== runId) throw new RatchetError('bad_arguments', `Run ${runId} has no review comment ${id}.`);
    if (c.state !== 'pending') throw new RatchetError('bad_arguments', `Comment ${id} was already sent to the agent; it is kept as it was sent.`);
    return c;
  }

  /** Moves every comment not yet at `head` to where its lines are there (or marks it outdated). */
  async function follow(run: RunRow, head: string): Promise<void> {
    for (const c of reviews.comments(run.id)) {
      if (c.anchor_commit === head || c.anchor_line === null || c.anchor_end_line === null) continue;
      const [diff, content] = await Promise.all([diffOf(run.repo_path, c.anchor_commit, head, c.file), fileAt(run.repo_path, head, c.file)]);
      const moved = moveAnchor({ file: c.file, line: c.anchor_line, endLine: c.anchor_end_line, text: c.line_text }, diff, content);
      reviews.moveComment(c.id, head, moved?.line ?? null, moved?.endLine ?? null);
    }
  }

  /** Ends the rounds whose step has ended (here or in another process): answers read back, comments moved. */
  async function settle(runId: string): Promise<void> {
    const run = runOf(runId);
    const open = reviews.rounds(runId).filter((r) => r.status === 'running');
    let moved = false;
    for (const r of open) {
      const step = store.getSteps(runId).find((s) => s.step_index === r.step_index);
      const ended = step && (step.status === 'succeeded' || step.status === 'failed' || step.status === 'skipped');
      if (!ended) continue;
      const last = store.getAttempts(runId, r.step_index).at(-1);
      const said = parseAnswers(last ? agentText(store, last.id) : '');
      const sent = reviews.comments(runId).filter((c) => c.round_id === r.id);
      const commit = step.status === 'succeeded' ? step.commit_sha : null;
      reviews.finishRound(r.id, {
        status: commit ? 'answered' : 'failed',
        commit,
        answers: sent.map((c, i) => {
          const a = said.get(i + 1);
          return { commentId: c.id, verdict: a?.verdict ?? 'unanswered', answer: a?.text || null };
        }),
      });
      store.event(runId, 'review.round', { round: r.id, step: r.step_index, status: commit ? 'answered' : 'failed', commit, comments: sent.length });
      store.event(runId, 'log', {
        level: commit ? 'info' : 'warn',
        message: commit
          ? `review round ${r.id}: step ${r.step_index} committed ${commit.slice(0, 10)}; ${said.size} of ${sent.length} comments answered`
          : `review round ${r.id}: step ${r.step_index} ${step.status}; nothing was committed for its ${sent.length} comments`,
      });
      moved = true;
    }
    if (moved || reviews.comments(runId).some((c) => c.state === 'pending')) {
      const head = await branchTip(run.repo_path, run.branch);
      if (head) await follow(run, head);
    }
  }

  /** The run's comments (and its rounds), with ended rounds settled first. */
  async function list(runId: string): Promise<{ comments: ReviewCommentRow[]; rounds: ReviewRoundRow[] }> {
    await settle(runId);
    return { comments: reviews.comments(runId), rounds: reviews.rounds(runId) };
  }

  /** The step that last changed each comment's first line (by the run's `step N:` commits), or null. */
  async function stepsOf(run: RunRow, head: string, comments: readonly ReviewCommentRow[]): Promise<Array<number | null>> {
    const byCommit = new Map(store.getSteps(run.id).flatMap((s) => (s.commit_sha ? [[s.commit_sha, s.step_index] as const] : [])));
    const out: Array<number | null> = [];
    for (const c of comments) {
      const r = await git(run.repo_path, [], {}, { filtersOff: true }).run([
        'blame',
        '--porcelain',
        '-L',
        `${c.anchor_line},${c.anchor_line}`,
        head,
        '--',
        c.file,
      ]);
      const sha = r.code === 0 ? /^([0-9a-f]{40}) /.exec(r.stdout)?.[1] : undefined;
      out.push(sha ? (byCommit.get(sha) ?? null) : null);
    }
    return out;
  }

  /**
   * Sends every pending comment in one agent round: a new step of the run with them all in its prompt, run now under
   * the run's lease through its step machine (gates, retries, budget). Resolves when the round has ended.
   */
  /** Throws the sentence that says why the run's review cannot be sent now (its status, its worktree, no pending comment). */
  function assertSendable(runId: string): RunRow {
    const run = runOf(runId);
    if (run.status === 'running' || run.status === 'planning' || run.status === 'queued')
      throw new RatchetError('run_busy', `Run ${runId} is ${run.status}; send the review once it has ended.`);
    if (run.status !== 'succeeded')
      throw new RatchetError(
        'bad_arguments',
        `Run ${runId} is ${run.status}; a review is sent to a run that has succeeded. Retry it first (\`ratchet retry ${runId}\`), then send the review.`,
      );
    if (!existsSync(run.worktree))
      throw new RatchetError('bad_arguments', `Run ${runId}'s worktree ${run.worktree} is gone (landed or removed); a review round needs it.`);
    if (!reviews.comments(runId).some((c) => c.state === 'pending'))
      throw new RatchetError(
        'bad_arguments',
        `Run ${runId} has no pending review comment to send. Add one first: ratchet review ${runId} --comment <file>:<line> "<text>".`,
      );
    return run;
  }

  async function send(
    runId: string,
    opts: { signal: AbortSignal; trust?: boolean },
  ): Promise<{ round: ReviewRoundRow; doc: StatusDocument; comments: ReviewCommentRow[] }> {
    const run = assertSendable(runId);
    deps.requireToRun(runId, Boolean(opts.trust));
    const head = await runHead(run);
    await follow(run, head);
    const pending = reviews.comments(runId).filter((c) => c.state === 'pending' && c.anchor_line !== null);
    if (!pending.length)
      throw new RatchetError(
        'bad_arguments',
        `Run ${runId} has no pending review comment to send. Add one first: ratchet review ${runId} --comment <file>:<line> "<text>".`,
      );
    const runDiff = parseUnifiedDiff(await diffOf(run.repo_path, run.base_commit, head));
    const onStep = commonStep(await stepsOf(run, head, pending));
    const step = reviewStep(
      pending.map((c) => {
        const f = diffFileFor(runDiff, c.file);
        const h = f && hunkAt(f, c.anchor_line!);
        return { id: c.id, file: c.file, line: c.anchor_line!, endLine: c.anchor_end_line ?? c.anchor_line!, body: c.body, hunk: h ? hunkText(h) : null };
      }),
      onStep,
    );
    const plan = store.getPlan(runId);
    if (!plan) throw new RatchetError('no_plan', 'No plan found.');
    return deps.runHeld(runId, async (execute) => {
      await deps.revisePlan(runId, [...plan.steps, StepSpec.parse(step)]);
      const round = reviews.startRound(runId, { stepIndex: plan.steps.length + 1, onStep, headBefore: head, commentIds: pending.map((c) => c.id) });
      store.event(runId, 'review.round', { round: round.id, step: round.step_index, status: 'running', commit: null, comments: pending.length });
      let doc: StatusDocument;
      try {
        doc = await execute(opts.signal);
      } finally {
        await settle(runId).catch(() => undefined);
      }
      return { round: reviews.round(round.id)!, doc, comments: reviews.comments(runId).filter((c) => c.round_id === round.id) };
    });
  }

  /** The run's change as a unified diff: the whole run (base → head) or one committed step's. */
  async function diff(runId: string, scope: { step?: number }): Promise<{ diff: string; from: string; to: string }> {
    const run = runOf(runId);
    if (scope.step === undefined) {
      const head = await runHead(run);
      return { diff: await diffOf(run.repo_path, run.base_commit, head), from: run.base_commit, to: head };
    }
    const step = store.getSteps(runId).find((s) => s.step_index === scope.step);
    if (!step?.commit_sha)
      throw new RatchetError('bad_arguments', `Step ${scope.step} of run ${runId} has no commit; its attempts' diffs are in the step's attempts.`);
    const from = step.pre_commit ?? `${step.commit_sha}^`;
    return { diff: await diffOf(run.repo_path, from, step.commit_sha), from, to: step.commit_sha };
  }

  /**
   * Lines of a file as one of the run's commits holds it (a diff's unchanged lines, opened in the app). Only a commit of
   * the run's change is read — its base, its head or one between — not any object of the repository.
   */
  async function fileLinesOf(runId: string, at: { commit: string; path: string; from: number; count: number }): Promise<{ lines: string[]; total: number }> {
    const run = runOf(runId);
    const head = await runHead(run);
    const inRun = at.commit === head || ((await isAncestor(run.repo_path, run.base_commit, at.commit)) && (await isAncestor(run.repo_path, at.commit, head)));
    if (!inRun) throw new RatchetError('bad_arguments', `Commit ${at.commit.slice(0, 10)} is not part of run ${runId}'s change.`);
    return fileLines(run.repo_path, at.commit, at.path, at.from, at.count);
  }

  return {
    assertSendable: (runId: string): void => void assertSendable(runId),
    diff,
    fileLines: fileLinesOf,
    check: async (runId: string, c: NewReviewComment): Promise<void> => void (await check(runId, c)),
    comment,
    list,
    send,
    settle,
    /** A pending comment's new text. */
    edit(runId: string, id: number, body: string): void {
      pendingComment(runId, id);
      if (!body.trim()) throw new RatchetError('bad_arguments', `Comment ${id} needs some text; remove it instead.`);
      reviews.editComment(id, body.trim());
      commentsChanged(runId);
    },
    /** Removes a pending comment. */
    remove(runId: string, id: number): void {
      pendingComment(runId, id);
      reviews.deleteComment(id);
      commentsChanged(runId);
    },
  };
}

export type ReviewRounds = ReturnType<typeof createReviewRounds>;

/** A comment as the contract carries it (shared/contract/review.ts). */
export function commentDoc(c: ReviewCommentRow): ReviewCommentDoc {
  return {
    id: c.id,
    runId: c.run_id,
    source: c.source,
    externalId: c.external_id,
    madeOn: c.made_on,
    file: c.file,
    line: c.line,
    endLine: c.end_line,
    body: c.body,
    anchorCommit: c.anchor_commit,
    anchorLine: c.anchor_line,
    anchorEndLine: c.anchor_end_line,
    outdated: c.anchor_line === null,
    state: c.state,
    roundId: c.round_id,
    verdict: c.verdict,
    answer: c.answer,
    addressedCommit: c.addressed_commit,
    createdAt: c.created_at,
  };
}

/** A round as the contract carries it. */
export function roundDoc(r: ReviewRoundRow): ReviewRoundDoc {
  return {
    id: r.id,
    runId: r.run_id,
    step: r.step_index,
    onStep: r.on_step,
    headBefore: r.head_before,
    status: r.status,
    commit: r.commit_sha,
    createdAt: r.created_at,
    finishedAt: r.finished_at,
  };
}
