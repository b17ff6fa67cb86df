// Migration 8: large text lives apart from the rows lists and stats read — prompts in attempt_prompts, transcripts and
// diffs in attempt_results, gate logs in gate_outputs — so the attempts and gate_results rows stay narrow.
import { creates, type Migration } from '../migration';

export const migration0008: Migration = {
  version: 8,
  name: 'attempt-texts',
  present: creates('table', 'attempt_prompts'),
  up(db) {
    db.exec(`
      -- Keyed by the attempt's id (the rowid: no second index). The prompt is written when the attempt starts; the
      -- transcript and the diff together, in one row, at its end (the checkpoint writes one text row, not two).
      CREATE TABLE attempt_prompts (
        attempt_id INTEGER PRIMARY KEY REFERENCES attempts(id),
        prompt TEXT NOT NULL
      );
      CREATE TABLE attempt_results (
        attempt_id INTEGER PRIMARY KEY REFERENCES attempts(id),
        transcript_json TEXT NOT NULL,
        diff TEXT
      );
      INSERT INTO attempt_prompts (attempt_id, prompt) SELECT id, prompt FROM attempts;
      INSERT INTO attempt_results (attempt_id, transcript_json, diff) SELECT id, transcript_json, diff FROM attempts
        WHERE transcript_json <> '[]' OR diff IS NOT NULL;
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
