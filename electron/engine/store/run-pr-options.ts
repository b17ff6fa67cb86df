// Each run's pull-request options in the store (migration 22): the PR panel's toggles, which the watch reads each round.
import { DEFAULT_PR_OPTIONS, PrOptions } from '../../../shared/pull-request';
import type { Store } from './store';

export class RunPrOptionsStore {
  constructor(private readonly store: Store) {}

  /** The run's options; the defaults when none were set (or the saved ones no longer parse). */
  get(runId: string): PrOptions {
    const row = this.store.db.prepare('SELECT options_json FROM run_pr_options WHERE run_id = ?').get(runId) as { options_json: string } | undefined;
    if (!row) return { ...DEFAULT_PR_OPTIONS, fix: [...DEFAULT_PR_OPTIONS.fix] };
    try {
      return PrOptions.parse(JSON.parse(row.options_json));
    } catch {
      return { ...DEFAULT_PR_OPTIONS, fix: [...DEFAULT_PR_OPTIONS.fix] };
    }
  }

  put(runId: string, options: PrOptions, at: string): void {
    const parsed = PrOptions.parse(options);
    const fix = [...new Set(parsed.fix)].sort();
    this.store.db
      .prepare(
        `INSERT INTO run_pr_options (run_id, options_json, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (run_id) DO UPDATE SET options_json = excluded.options_json, updated_at = excluded.updated_at`,
      )
      .run(runId, JSON.stringify({ fix, merge: parsed.merge }), at);
  }
}
