// Each run's pull-request options in the store (migration 22): the PR panel's toggles, which the watch reads each round,
// and which host watches the pull request now (kept beside them in the same JSON, under `watch`), so a host restarted
// while it watched takes the watch up again.
import { DEFAULT_PR_OPTIONS, PrOptions } from '../../../shared/pull-request';
import type { Store } from './store';

/** Who watches a run's pull request: the host's process, and the token of the service in it (one process may hold several). */
export interface PrWatchOwner {
  pid: number;
  host: string;
  token: string;
  since: string;
}

export class RunPrOptionsStore {
  constructor(private readonly store: Store) {}

  private raw(runId: string): Record<string, unknown> | null {
    const row = this.store.db.prepare('SELECT options_json FROM run_pr_options WHERE run_id = ?').get(runId) as { options_json: string } | undefined;
    if (!row) return null;
    try {
      const json: unknown = JSON.parse(row.options_json);
      return json && typeof json === 'object' ? (json as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  }

  private write(runId: string, json: Record<string, unknown>, at: string): void {
    this.store.db
      .prepare(
        `INSERT INTO run_pr_options (run_id, options_json, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (run_id) DO UPDATE SET options_json = excluded.options_json, updated_at = excluded.updated_at`,
      )
      .run(runId, JSON.stringify(json), at);
  }

  /** The run's options; the defaults when none were set (or the saved ones no longer parse). */
  get(runId: string): PrOptions {
    const parsed = PrOptions.safeParse(this.raw(runId));
    return parsed.success ? parsed.data : { ...DEFAULT_PR_OPTIONS, fix: [...DEFAULT_PR_OPTIONS.fix] };
  }

  put(runId: string, options: PrOptions, at: string): void {
    const parsed = PrOptions.parse(options);
    const fix = [...new Set(parsed.fix)].sort();
    const watch = this.raw(runId)?.watch;
    this.write(runId, { fix, merge: parsed.merge, ...(watch ? { watch } : {}) }, at);
  }

  /** Marks the run's pull request as watched by `owner`, or no longer watched (null). */
  setWatch(runId: string, owner: PrWatchOwner | null, at: string): void {
    const { watch: _was, ...rest } = this.raw(runId) ?? { ...this.get(runId) };
    this.write(runId, { ...rest, ...(owner ? { watch: owner } : {}) }, at);
  }

  /** The runs whose pull request a host marked as watched, with who it was. */
  watched(): { runId: string; owner: PrWatchOwner }[] {
    const rows = this.store.db.prepare(`SELECT run_id, options_json FROM run_pr_options WHERE options_json LIKE '%"watch":%'`).all() as {
      run_id: string;
      options_json: string;
    }[];
    return rows.flatMap((r) => {
      try {
        const w = (JSON.parse(r.options_json) as { watch?: Partial<PrWatchOwner> }).watch;
        if (!w || typeof w.pid !== 'number' || typeof w.host !== 'string' || typeof w.token !== 'string') return [];
        return [{ runId: r.run_id, owner: { pid: w.pid, host: w.host, token: w.token, since: String(w.since ?? '') } }];
      } catch {
        return [];
      }
    });
  }
}
