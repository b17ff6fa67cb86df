// Migration 10: an index for every query path (a run's events, budget alerts, an attempt's gates and API calls, a task's
// runs, the runs list's order, active runs), so none of them scans a table that grows with history.
import { creates, type Migration } from '../migration';

export const migration0010: Migration = {
  version: 10,
  name: 'query-indexes',
  present: creates('index', 'events_run'),
  up(db) {
    db.exec(`
      CREATE INDEX events_run ON events(run_id, id);
      CREATE INDEX events_budget_alert ON events(json_extract(payload_json, '$.key'), at) WHERE type = 'budget.alert';
      CREATE INDEX gate_results_attempt ON gate_results(attempt_id, id);
      CREATE INDEX api_calls_attempt ON api_calls(attempt_id, at);
      CREATE INDEX runs_task ON runs(task_id);
      CREATE INDEX runs_repo ON runs(repo_id, created_at);
      CREATE INDEX runs_list ON runs(created_at DESC, id DESC);
      CREATE INDEX runs_status ON runs(status, created_at);
      CREATE INDEX tasks_repo_title ON tasks(repo_id, title);
      DROP INDEX runs_created;
    `);
  },
};
