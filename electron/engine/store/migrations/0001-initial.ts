// Migration 1: repos, tasks, versioned plans, runs, step runs, attempts, gate results, API calls and the event log.
import type { Migration } from '../migration';

export const migration0001: Migration = {
  version: 1,
  name: 'initial',
  up(db) {
    db.exec(`
      CREATE TABLE repos (
        id TEXT PRIMARY KEY,
        path TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE tasks (
        id TEXT PRIMARY KEY,
        repo_id TEXT NOT NULL REFERENCES repos(id),
        title TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        workflow_json TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE plans (
        task_id TEXT NOT NULL REFERENCES tasks(id),
        revision INTEGER NOT NULL,
        steps_json TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (task_id, revision)
      );
      CREATE TABLE runs (
        id TEXT PRIMARY KEY,
        task_id TEXT NOT NULL REFERENCES tasks(id),
        repo_id TEXT NOT NULL REFERENCES repos(id),
        status TEXT NOT NULL,
        reason TEXT,
        base_branch TEXT,
        base_commit TEXT NOT NULL,
        branch TEXT NOT NULL,
        worktree TEXT NOT NULL,
        plan_revision INTEGER NOT NULL,
        owner_pid INTEGER,
        owner_host TEXT,
        heartbeat_at TEXT,
        wake_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        finished_at TEXT,
        first_event_id INTEGER
      );
      CREATE INDEX runs_created ON runs(created_at);
      CREATE TABLE step_runs (
        run_id TEXT NOT NULL REFERENCES runs(id),
        step_index INTEGER NOT NULL,
        title TEXT NOT NULL,
        status TEXT NOT NULL,
        commit_sha TEXT,
        pre_commit TEXT,
        started_at TEXT,
        finished_at TEXT,
        PRIMARY KEY (run_id, step_index)
      );
      CREATE TABLE attempts (
        id INTEGER PRIMARY KEY,
        run_id TEXT NOT NULL REFERENCES runs(id),
        step_index INTEGER NOT NULL,
        n INTEGER NOT NULL,
        outcome TEXT NOT NULL,
        error_class TEXT,
        error_message TEXT,
        summary TEXT,
        agent_kind TEXT NOT NULL,
        model TEXT,
        session_id TEXT,
        prompt TEXT NOT NULL,
        transcript_json TEXT NOT NULL DEFAULT '[]',
        tree_ref TEXT,
        tree_sha TEXT,
        diff TEXT,
        failures_json TEXT NOT NULL DEFAULT '[]',
        input_tokens INTEGER NOT NULL DEFAULT 0,
        output_tokens INTEGER NOT NULL DEFAULT 0,
        cache_read_tokens INTEGER NOT NULL DEFAULT 0,
        cache_write_tokens INTEGER NOT NULL DEFAULT 0,
        cost_usd REAL,
        cost_known INTEGER NOT NULL DEFAULT 1,
        started_at TEXT NOT NULL,
        finished_at TEXT,
        UNIQUE (run_id, step_index, n)
      );
      CREATE TABLE gate_results (
        id INTEGER PRIMARY KEY,
        attempt_id INTEGER NOT NULL REFERENCES attempts(id),
        gate TEXT NOT NULL,
        command TEXT NOT NULL,
        passed INTEGER NOT NULL,
        exit_code INTEGER,
        signal TEXT,
        timed_out INTEGER NOT NULL,
        duration_ms INTEGER NOT NULL,
        output TEXT NOT NULL,
        output_bytes INTEGER NOT NULL,
        failures_json TEXT NOT NULL DEFAULT '[]'
      );
      CREATE TABLE api_calls (
        id INTEGER PRIMARY KEY,
        attempt_id INTEGER NOT NULL REFERENCES attempts(id),
        model TEXT NOT NULL,
        input_tokens INTEGER NOT NULL,
        output_tokens INTEGER NOT NULL,
        cache_read_tokens INTEGER NOT NULL,
        cache_write_tokens INTEGER NOT NULL,
        cost_usd REAL,
        at TEXT NOT NULL
      );
      -- Append-only, one global sequence (the rowid) and no secondary index: an append touches one b-tree,
      -- which keeps a checkpoint cheap. A run's events are found from runs.first_event_id onwards.
      CREATE TABLE events (
        id INTEGER PRIMARY KEY,
        run_id TEXT NOT NULL,
        at TEXT NOT NULL,
        type TEXT NOT NULL,
        payload_json TEXT NOT NULL
      );
    `);
  },
};
