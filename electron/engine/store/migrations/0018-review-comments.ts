// Migration 18: review comments on a run's change and the rounds that send them to the agent (electron/engine/review/).
// A comment keeps the commit it was made on and the line it points at; its line follows later commits (or the comment
// is marked outdated), and the round that sent it records the agent's answer and the commit that addressed it.
import { creates, type Migration } from '../migration';

export const migration0018: Migration = {
  version: 18,
  name: 'review-comments',
  present: creates('table', 'review_comments'),
  up(db) {
    db.exec(`
      -- One round per "send": the step it ran as, the head it started from, and how it ended.
      CREATE TABLE review_rounds (
        id INTEGER PRIMARY KEY,
        run_id TEXT NOT NULL REFERENCES runs(id),
        step_index INTEGER NOT NULL,
        -- The step whose change holds every comment (null: they span steps, or lie outside any).
        on_step INTEGER,
        head_before TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'answered', 'failed')),
        commit_sha TEXT,
        created_at TEXT NOT NULL,
        finished_at TEXT
      );
      CREATE INDEX review_rounds_run ON review_rounds(run_id);
      CREATE TABLE review_comments (
        id INTEGER PRIMARY KEY,
        run_id TEXT NOT NULL REFERENCES runs(id),
        -- Where the comment came from: the app, the CLI, or a forge's review (with the forge's own id).
        source TEXT NOT NULL DEFAULT 'app',
        external_id TEXT,
        -- The commit it was made on, and the file and lines (new side) it points at there.
        made_on TEXT NOT NULL,
        file TEXT NOT NULL,
        line INTEGER NOT NULL,
        end_line INTEGER NOT NULL,
        -- The commented lines' text: what the comment follows when lines move.
        line_text TEXT NOT NULL DEFAULT '',
        body TEXT NOT NULL,
        -- Where it points now: the commit its line/end_line refer to (made_on until a later commit moves it).
        anchor_commit TEXT NOT NULL,
        anchor_line INTEGER,
        anchor_end_line INTEGER,
        state TEXT NOT NULL CHECK (state IN ('pending', 'sent', 'answered', 'outdated')),
        round_id INTEGER REFERENCES review_rounds(id),
        verdict TEXT CHECK (verdict IN ('done', 'declined', 'unanswered')),
        answer TEXT,
        addressed_commit TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX review_comments_run ON review_comments(run_id, state);
    `);
  },
};
