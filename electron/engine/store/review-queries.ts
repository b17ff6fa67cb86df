// Review comments and review rounds (migration 0018): the typed queries electron/engine/review/ works through.
import type { StoreDb } from './store-rows';

export type CommentState = 'pending' | 'sent' | 'answered' | 'outdated';
export type CommentVerdict = 'done' | 'declined' | 'unanswered';
export type CommentSource = 'app' | 'cli' | 'forge';

export interface ReviewCommentRow {
  id: number;
  run_id: string;
  source: CommentSource;
  external_id: string | null;
  made_on: string;
  file: string;
  line: number;
  end_line: number;
  line_text: string;
  body: string;
  anchor_commit: string;
  /** Null when the commented lines are gone from the anchor commit (outdated). */
  anchor_line: number | null;
  anchor_end_line: number | null;
  state: CommentState;
  round_id: number | null;
  verdict: CommentVerdict | null;
  answer: string | null;
  addressed_commit: string | null;
  created_at: string;
  updated_at: string;
}

export interface ReviewRoundRow {
  id: number;
  run_id: string;
  step_index: number;
  on_step: number | null;
  head_before: string;
  status: 'running' | 'answered' | 'failed';
  commit_sha: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface NewComment {
  runId: string;
  source: CommentSource;
  externalId?: string | null;
  madeOn: string;
  file: string;
  line: number;
  endLine: number;
  lineText: string;
  body: string;
}

export class ReviewStore {
  constructor(
    private readonly db: StoreDb,
    private readonly now: () => Date,
  ) {}

  private iso(): string {
    return this.now().toISOString();
  }

  addComment(c: NewComment): ReviewCommentRow {
    const at = this.iso();
    const id = this.db
      .prepare(
        `INSERT INTO review_comments (run_id, source, external_id, made_on, file, line, end_line, line_text, body, anchor_commit, anchor_line,
           anchor_end_line, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
      )
      .run(
        c.runId,
        c.source,
        c.externalId ?? null,
        c.madeOn,
        c.file,
        c.line,
        c.endLine,
        c.lineText,
        c.body,
        c.madeOn,
        c.line,
        c.endLine,
        at,
        at,
      ).lastInsertRowid;
    return this.comment(Number(id))!;
  }

  comment(id: number): ReviewCommentRow | undefined {
    return this.db.prepare('SELECT * FROM review_comments WHERE id = ?').get(id) as ReviewCommentRow | undefined;
  }

  comments(runId: string): ReviewCommentRow[] {
    return this.db.prepare('SELECT * FROM review_comments WHERE run_id = ? ORDER BY id').all(runId) as ReviewCommentRow[];
  }

  /** A pending comment's new text; false when it is no longer pending (sent comments are kept as sent). */
  editComment(id: number, body: string): boolean {
    return this.db.prepare("UPDATE review_comments SET body = ?, updated_at = ? WHERE id = ? AND state = 'pending'").run(body, this.iso(), id).changes > 0;
  }

  /** Removes a pending comment; false when it is no longer pending. */
  deleteComment(id: number): boolean {
    return this.db.prepare("DELETE FROM review_comments WHERE id = ? AND state = 'pending'").run(id).changes > 0;
  }

  /** Where a comment points now (null lines: gone from `commit`); a pending comment whose lines are gone is outdated. */
  moveComment(id: number, commit: string, line: number | null, endLine: number | null): void {
    this.db
      .prepare(
        `UPDATE review_comments SET anchor_commit = ?, anchor_line = ?, anchor_end_line = ?,
           state = CASE WHEN ? IS NULL AND state = 'pending' THEN 'outdated' ELSE state END, updated_at = ? WHERE id = ?`,
      )
      .run(commit, line, endLine, line, this.iso(), id);
  }

  /** A round starts: its comments are sent with it, in one transaction. */
  startRound(runId: string, r: { stepIndex: number; onStep: number | null; headBefore: string; commentIds: readonly number[] }): ReviewRoundRow {
    return this.db.transaction(() => {
      const at = this.iso();
      const id = Number(
        this.db
          .prepare("INSERT INTO review_rounds (run_id, step_index, on_step, head_before, status, created_at) VALUES (?, ?, ?, ?, 'running', ?)")
          .run(runId, r.stepIndex, r.onStep, r.headBefore, at).lastInsertRowid,
      );
      const send = this.db.prepare("UPDATE review_comments SET state = 'sent', round_id = ?, updated_at = ? WHERE id = ? AND run_id = ? AND state = 'pending'");
      for (const c of r.commentIds) send.run(id, at, c, runId);
      return this.round(id)!;
    })();
  }

  round(id: number): ReviewRoundRow | undefined {
    return this.db.prepare('SELECT * FROM review_rounds WHERE id = ?').get(id) as ReviewRoundRow | undefined;
  }

  rounds(runId: string): ReviewRoundRow[] {
    return this.db.prepare('SELECT * FROM review_rounds WHERE run_id = ? ORDER BY id').all(runId) as ReviewRoundRow[];
  }

  /** A round's end: each sent comment's answer, and the commit that addressed it (null when the round committed nothing). */
  finishRound(
    roundId: string | number,
    end: {
      status: 'answered' | 'failed';
      commit: string | null;
      answers: ReadonlyArray<{ commentId: number; verdict: CommentVerdict; answer: string | null }>;
    },
  ): void {
    this.db.transaction(() => {
      const at = this.iso();
      this.db.prepare('UPDATE review_rounds SET status = ?, commit_sha = ?, finished_at = ? WHERE id = ?').run(end.status, end.commit, at, roundId);
      const answer = this.db.prepare(
        "UPDATE review_comments SET state = 'answered', verdict = ?, answer = ?, addressed_commit = ?, updated_at = ? WHERE id = ? AND round_id = ?",
      );
      for (const a of end.answers) answer.run(a.verdict, a.answer, a.verdict === 'done' ? end.commit : null, at, a.commentId, roundId);
    })();
  }
}
