// Test helper: a store as Ratchet wrote it before the layout migration (schema 7): the old Store's own statements, texts
// inline in attempts and gate_results. Used to check that migrations 8–10 keep every row and every text.
import type Database from 'better-sqlite3';
import { rng } from './varied-history';

/** Fills a schema-7 database with `runs` runs: steps, attempts (some with 30 KB transcripts), gates, API calls, events, resumes. */
export function fillV7(db: Database.Database, runs: number, end: Date): void {
  const rand = rng(11);
  let t = end.getTime() - 20 * 86_400_000;
  const iso = () => new Date((t += Math.floor(rand() * 3_600_000))).toISOString();
  const ins = {
    repo: db.prepare('INSERT INTO repos (id, path, name, created_at) VALUES (?, ?, ?, ?)'),
    task: db.prepare('INSERT INTO tasks (id, repo_id, title, description, workflow_json, created_at) VALUES (?, ?, ?, ?, ?, ?)'),
    plan: db.prepare('INSERT INTO plans (task_id, revision, steps_json, created_at) VALUES (?, 1, ?, ?)'),
    run: db.prepare(
      `INSERT INTO runs (id, task_id, repo_id, status, reason, base_branch, base_commit, branch, worktree, plan_revision,
         owner_pid, owner_host, heartbeat_at, created_at, updated_at)
       VALUES (?, ?, ?, 'planning', NULL, ?, ?, ?, ?, 1, NULL, NULL, NULL, ?, ?)`,
    ),
    step: db.prepare("INSERT INTO step_runs (run_id, step_index, title, phase, status) VALUES (?, ?, ?, ?, 'pending')"),
    attempt: db.prepare(
      `INSERT INTO attempts (run_id, step_index, n, outcome, agent_kind, model, prompt, started_at, round)
       VALUES (?, ?, ?, 'running', ?, ?, ?, ?, ?)`,
    ),
    call: db.prepare(
      `INSERT INTO api_calls (attempt_id, model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_usd, at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    usage: db.prepare(
      `UPDATE attempts SET input_tokens = input_tokens + ?, output_tokens = output_tokens + ?,
         cache_read_tokens = cache_read_tokens + ?, cache_write_tokens = cache_write_tokens + ?,
         cost_usd = COALESCE(cost_usd, 0) + COALESCE(?, 0), cost_known = cost_known AND ? WHERE id = ?`,
    ),
    gate: db.prepare(
      `INSERT INTO gate_results (attempt_id, gate, command, passed, exit_code, signal, timed_out, duration_ms, output, output_bytes, failures_json)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    finish: db.prepare(
      `UPDATE attempts SET outcome = ?, error_class = ?, error_message = ?, summary = ?, tree_ref = ?, tree_sha = ?, diff = ?,
         failures_json = ?, transcript_json = ?, session_id = ?, fingerprint = ?, finished_at = ? WHERE id = ?`,
    ),
    decision: db.prepare('UPDATE attempts SET decision_json = ? WHERE id = ?'),
    complete: db.prepare(`UPDATE step_runs SET status = 'succeeded', commit_sha = ?, finished_at = ? WHERE run_id = ? AND step_index = ?`),
    stepStatus: db.prepare(`UPDATE step_runs SET status = ?, finished_at = ? WHERE run_id = ? AND step_index = ?`),
    runStatus: db.prepare('UPDATE runs SET status = ?, reason = ?, updated_at = ?, finished_at = ? WHERE id = ?'),
    event: db.prepare('INSERT INTO events (run_id, at, type, payload_json) VALUES (?, ?, ?, ?)'),
    resume: db.prepare('INSERT INTO resumes (run_id, kind, at, from_step, from_status, turn_budget, auto, notes_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
    trust: db.prepare('INSERT INTO workflow_trust (repo, file, sha256, trusted_at) VALUES (?, ?, ?, ?)'),
  };
  const big = JSON.stringify(Array.from({ length: 300 }, (_, i) => ({ kind: 'tool_result', text: `line ${i} `.repeat(10) })));
  db.transaction(() => {
    ins.repo.run('repo-1', '/repo/one', 'one', iso());
    ins.trust.run('/repo/one', 'ratchet.yml', 'f'.repeat(64), iso());
    for (let r = 0; r < runs; r++) {
      const runId = `run-${r}`;
      const taskId = `task-${r}`;
      const steps = 1 + (r % 3);
      const at = iso();
      ins.task.run(taskId, 'repo-1', `Task ${r % 4}`, `description ${r}`, JSON.stringify({ steps: [] }), at);
      ins.plan.run(taskId, '[]', at);
      ins.run.run(runId, taskId, 'repo-1', 'main', '0'.repeat(40), `ratchet/${runId}`, `/tmp/${runId}`, at, at);
      ins.event.run(runId, at, 'run.created', JSON.stringify({ steps }));
      for (let s = 1; s <= steps; s++) {
        ins.step.run(runId, s, `step ${s}`, s === 1 ? 'setup' : null);
        const tries = 1 + Math.floor(rand() * 3);
        for (let n = 1; n <= tries; n++) {
          const id = Number(
            ins.attempt.run(runId, s, n, 'anthropic', 'claude-sonnet-5-5', `prompt ${runId}/${s}/${n} ${'context '.repeat(50)}`, iso(), 0).lastInsertRowid,
          );
          const cost = rand() < 0.1 ? null : 0.01 * n;
          ins.call.run(id, 'claude-sonnet-5-5', 1000, 100, 50, 10, cost, iso());
          ins.usage.run(1000, 100, 50, 10, cost, cost === null ? 0 : 1, id);
          const passed = n === tries;
          ins.gate.run(id, 'test', 'npm test', passed ? 1 : 0, passed ? 0 : 1, null, 0, 1200, `ok 1\n${passed ? '' : 'not ok 2\n'}`.repeat(20), 200, '[]');
          if (n === 2 && rand() < 0.3) continue; // left running: the process died there
          ins.finish.run(
            passed ? 'passed' : 'failed',
            passed ? null : 'test_failure',
            passed ? null : 'not ok 2',
            'did it',
            `refs/ratchet/${runId}/${s}/${n}`,
            'e'.repeat(40),
            rand() < 0.3 ? null : `diff --git a/x b/x\n+${r}`,
            '[]',
            rand() < 0.2 ? big : JSON.stringify([{ kind: 'text', text: 'hi' }]),
            null,
            passed ? null : `fp-${s}`,
            iso(),
            id,
          );
          if (!passed) ins.decision.run(JSON.stringify({ action: 'retry', reason: 'test failure', delayS: 0, overrides: {} }), id);
          ins.event.run(runId, iso(), 'attempt.finished', JSON.stringify({ attemptId: id }));
        }
        if (rand() < 0.8) ins.complete.run('c'.repeat(40), iso(), runId, s);
        else ins.stepStatus.run('failed', iso(), runId, s);
      }
      ins.runStatus.run(rand() < 0.7 ? 'succeeded' : 'failed', null, iso(), iso(), runId);
      if (r % 5 === 0) ins.resume.run(runId, 'retry', iso(), 1, 'failed', null, 'run', '[]');
    }
  })();
}
