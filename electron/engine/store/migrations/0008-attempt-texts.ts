// Migration 8: large text lives apart from the rows lists and stats read — prompts, transcripts and diffs in attempt_texts
// (one row per attempt and kind), gate logs in gate_outputs — so the attempts and gate_results rows stay narrow.
import type { Migration } from '../migration';

export const migration0008: Migration = {
  version: 8,
  name: 'attempt-texts',
  up(db) {
    db.exec(`
      CREATE TABLE attempt_texts (
        attempt_id INTEGER NOT NULL REFERENCES attempts(id),
        kind TEXT NOT NULL CHECK (kind IN ('prompt', 'transcript', 'diff')),
        text TEXT NOT NULL,
        PRIMARY KEY (attempt_id, kind)
      );
      INSERT INTO attempt_texts (attempt_id, kind, text) SELECT id, 'prompt', prompt FROM attempts;
      INSERT INTO attempt_texts (attempt_id, kind, text) SELECT id, 'transcript', transcript_json FROM attempts WHERE transcript_json <> '[]';
      INSERT INTO attempt_texts (attempt_id, kind, text) SELECT id, 'diff', diff FROM attempts WHERE diff IS NOT NULL;
      ALTER TABLE attempts DROP COLUMN prompt;
      ALTER TABLE attempts DROP COLUMN transcript_json;
      ALTER TABLE attempts DROP COLUMN diff;

      CREATE TABLE gate_outputs (
        gate_result_id INTEGER PRIMARY KEY REFERENCES gate_results(id),
        output TEXT NOT NULL
      );
      INSERT INTO gate_outputs (gate_result_id, output) SELECT id, output FROM gate_results;
      ALTER TABLE gate_results DROP COLUMN output;
    `);
  },
};
