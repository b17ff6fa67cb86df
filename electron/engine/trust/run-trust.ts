// A run keeps the trust decision it started with: retry and resume ask nothing for that workflow, and refuse once that version is no longer trusted.
import { RatchetError } from '../errors';
import type { Store } from '../store/store';
import type { TrustStore } from '../store/trust-queries';
import { readWorkflowBytes } from '../workflow/load-workflow';
import { workflowHash } from '../workflow/workflow-hash';

/** The repository workflow file a run was started from, by the hash of the content the user trusted. */
export interface RunWorkflowTrust {
  file: string;
  sha256: string;
}

/** Records, with the run, which trusted version of the repository's workflow file it runs (its stored copy). */
export function recordRunTrust(store: Store, runId: string, trusted: RunWorkflowTrust): void {
  store.event(runId, 'workflow.trusted', trusted);
}

/** The trusted workflow version a run started from; null for a workflow that needed no trust (named by the user, written in the app). */
export function runTrust(store: Store, runId: string): RunWorkflowTrust | null {
  const e = store.eventsSince(runId).find((ev) => ev.type === 'workflow.trusted');
  if (!e) return null;
  const p = e.payload as { file?: unknown; sha256?: unknown };
  return typeof p.file === 'string' && typeof p.sha256 === 'string' ? { file: p.file, sha256: p.sha256 } : null;
}

/**
 * Before a retry or resume: the run goes on with the workflow stored when it started, so it needs no new question
 * as long as that version is still the trusted one. When the trust was revoked, or the file changed and another
 * content was trusted since, it refuses (`workflow_untrusted`, exit 2) unless `trust` re-trusts the run's version.
 */
export function assertRunTrusted(store: Store, trustStore: TrustStore, runId: string, opts: { trust?: boolean; now: () => Date }): void {
  const run = store.getRun(runId);
  const rec = run ? runTrust(store, runId) : null;
  if (!run || !rec) return;
  if (trustStore.isTrusted(run.repo_path, rec.file, rec.sha256)) return;
  if (opts.trust) {
    trustStore.trust(run.repo_path, rec.file, rec.sha256, opts.now().toISOString());
    return;
  }
  const bytes = (() => {
    try {
      return readWorkflowBytes(rec.file);
    } catch {
      return null;
    }
  })();
  const current = bytes ? workflowHash(bytes) : null;
  const why =
    current === rec.sha256
      ? 'its trust was revoked (`ratchet trust --revoke`, or Revoke trust in the app)'
      : current === null
        ? 'the file is gone and its trust no longer stands'
        : 'the file changed since the run started, and the version the run uses is no longer the trusted one';
  throw new RatchetError(
    'workflow_untrusted',
    `Run ${runId} was started with ${rec.file} as you trusted it then (sha256 ${rec.sha256.slice(0, 12)}), but ${why}. Nothing was run. The run would go on with the version it started with: pass --trust to trust that version again and continue, or start a new run.`,
  );
}
