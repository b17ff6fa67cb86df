// Migration 8: large text lives apart from the rows lists and stats read — prompts, transcripts and diffs in attempt_texts
// (one row per attempt and kind, keyed attempt_id × 4 + kind), gate logs in gate_outputs — so the attempts and gate_results rows stay narrow.
import type { Migration } from '../migration';

export const migration0008: Migration = {
  version: 8,
  name: 'attempt-texts',
  up(db) {
    db.exec(`
      -- Keyed by its rowid, attempt_id × 4 + the kind's number (0 prompt, 1 transcript, 2 diff): one b-tree and no
      -- second index to write at each checkpoint; an attempt's texts are the range attempt_id × 4 … × 4 + 3.
      CREATE TABLE attempt_texts (
        id INTEGER PRIMARY KEY,
        attempt_id INTEGER NOT NULL REFERENCES attempts(id),
        kind TEXT NOT NULL CHECK (kind IN ('prompt', 'transcript', 'diff')),
        text TEXT NOT NULL,
        CHECK (id = attempt_id * 4 + (CASE kind WHEN 'prompt' THEN 0 WHEN 'transcript' THEN 1 ELSE 2 END))
      );
      INSERT INTO attempt_texts (id, attempt_id, kind, text) SELECT id * 4, id, 'prompt', prompt FROM attempts;
      INSERT INTO attempt_texts (id, attempt_id, kind, text) SELECT id * 4 + 1, id, 'transcript', transcript_json FROM attempts WHERE transcript_json <> '[]';
      INSERT INTO attempt_texts (id, attempt_id, kind, text) SELECT id * 4 + 2, id, 'diff', diff FROM attempts WHERE diff IS NOT NULL;
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
