// Each run's worktree environment in the store: copy and dependency reuse done once, the last setup with its inputs' hashes (kept here, not in the worktree the agent can write), the baseline check.
import { BaselineDoc, ReusedDoc, SetupDoc, type WorktreeEnvDoc } from '../../../shared/worktree-env';
import { z } from 'zod';
import type { Store } from './store';

const Prepared = z.object({
  copied: z.array(z.string()).default([]),
  reused: z.array(ReusedDoc).default([]),
  fixes: z.array(z.string()).default([]),
  /** The worktree folder it was done in (device:inode): a worktree made again (recovery) is prepared again. */
  worktreeId: z.string().nullable().default(null),
});
const Inputs = z.record(z.string(), z.string());

interface RunEnvRow {
  prepared_at: string | null;
  prepared_json: string;
  setup_inputs_json: string | null;
  setup_json: string | null;
  baseline_json: string | null;
}

export interface RunEnvState {
  preparedAt: string | null;
  copied: string[];
  reused: ReusedDoc[];
  /** How the environment was changed so gates test the worktree's code (as of the last execution). */
  fixes: string[];
  /** The worktree folder copy and setup were done in (device:inode). */
  worktreeId: string | null;
  /** path -> sha256 of setup's inputs when it last succeeded; null when setup has to run. */
  setupInputs: Record<string, string> | null;
  setup: SetupDoc | null;
  baseline: BaselineDoc | null;
}

function parsed<T>(schema: z.ZodType<T>, json: string | null): T | null {
  if (json === null) return null;
  const r = schema.safeParse(JSON.parse(json));
  return r.success ? r.data : null;
}

export class RunEnvStore {
  constructor(private readonly store: Store) {}

  private get db() {
    return this.store.db;
  }

  private ensure(runId: string): void {
    this.db.prepare('INSERT INTO run_env (run_id) VALUES (?) ON CONFLICT (run_id) DO NOTHING').run(runId);
  }

  get(runId: string): RunEnvState {
    const row = this.db.prepare('SELECT prepared_at, prepared_json, setup_inputs_json, setup_json, baseline_json FROM run_env WHERE run_id = ?').get(runId) as
      RunEnvRow | undefined;
    const prepared = parsed(Prepared, row?.prepared_json ?? null) ?? { copied: [], reused: [], fixes: [], worktreeId: null };
    return {
      preparedAt: row?.prepared_at ?? null,
      copied: prepared.copied,
      reused: prepared.reused,
      fixes: prepared.fixes,
      worktreeId: prepared.worktreeId,
      setupInputs: parsed(Inputs, row?.setup_inputs_json ?? null),
      setup: parsed(SetupDoc, row?.setup_json ?? null),
      baseline: parsed(BaselineDoc, row?.baseline_json ?? null),
    };
  }

  /** Copy and dependency reuse are done: a retry or resume of the run does not do them again. */
  markPrepared(runId: string, at: string, copied: readonly string[], reused: readonly ReusedDoc[], worktreeId: string): void {
    const fixes = this.get(runId).fixes;
    this.ensure(runId);
    this.db
      .prepare('UPDATE run_env SET prepared_at = ?, prepared_json = ? WHERE run_id = ?')
      .run(at, JSON.stringify({ copied, reused, fixes, worktreeId }), runId);
  }

  /** The worktree was made again: copy, dependencies and setup are to be done again (the baseline stays: same base commit). */
  forgetWorktree(runId: string): void {
    this.db.prepare('UPDATE run_env SET prepared_at = NULL, setup_inputs_json = NULL WHERE run_id = ?').run(runId);
  }

  /** How this execution changed the environment so that gates test the worktree's code. */
  recordFixes(runId: string, fixes: readonly string[]): void {
    const { copied, reused, worktreeId } = this.get(runId);
    this.ensure(runId);
    this.db.prepare('UPDATE run_env SET prepared_json = ? WHERE run_id = ?').run(JSON.stringify({ copied, reused, fixes, worktreeId }), runId);
  }

  /** The last setup; `inputs` (its inputs' hashes) only when it succeeded or had nothing to do — otherwise it runs again. */
  recordSetup(runId: string, doc: SetupDoc, inputs: Record<string, string> | null, output: string): void {
    this.ensure(runId);
    this.db
      .prepare('UPDATE run_env SET setup_json = ?, setup_inputs_json = ?, setup_output = ? WHERE run_id = ?')
      .run(JSON.stringify(doc), inputs ? JSON.stringify(inputs) : null, output, runId);
  }

  /** The last setup's whole (bounded) output. */
  setupOutput(runId: string): string | null {
    return (
      (this.db.prepare('SELECT setup_output FROM run_env WHERE run_id = ?').get(runId) as { setup_output: string | null } | undefined)?.setup_output ?? null
    );
  }

  recordBaseline(runId: string, doc: BaselineDoc): void {
    this.ensure(runId);
    this.db.prepare('UPDATE run_env SET baseline_json = ? WHERE run_id = ?').run(JSON.stringify(doc), runId);
  }

  /** The status document's `environment`, or null for a run whose worktree Ratchet did nothing to. */
  doc(runId: string): WorktreeEnvDoc | null {
    const s = this.get(runId);
    if (!s.copied.length && !s.reused.length && !s.fixes.length && !s.setup && !s.baseline) return null;
    return { copied: s.copied, reused: s.reused, setup: s.setup, baseline: s.baseline, fixes: s.fixes };
  }
}
