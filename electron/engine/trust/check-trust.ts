// Workspace trust at the start of a run: the repository's workflow file runs only in a content the user trusted, and only in the very content they were shown.
import { RatchetError } from '../errors';
import type { LoadedWorkflow } from '../workflow/load-workflow';
import type { RunWorkflowTrust } from './run-trust';
import { trustItems, trustLines, type TrustItem } from './trust-items';
import type { TrustStore } from '../store/trust-queries';

/** The repository's workflow file is not trusted in this content: what it would do (`items`) and the hash of what was read. */
export class UntrustedWorkflow extends RatchetError {
  /** What a prompt shows before its question: the file and everything it would run and allow. */
  readonly shown: string;
  constructor(
    readonly file: string,
    readonly sha256: string,
    readonly items: TrustItem[],
  ) {
    const shown = `${file} comes from the repository and is not trusted yet (new or changed since you trusted it). It would run and allow:\n${trustLines(items).join('\n') || '  (nothing)'}`;
    super('workflow_untrusted', `${shown}\nRead it, then pass --trust (or trust it in the app's New task screen) to run it.`);
    this.shown = shown;
  }
}

export interface TrustAnswer {
  /** The user trusts the file (`--trust`, the prompt's yes, the app's Trust button). */
  trust: boolean;
  /** The hash of the content the user was shown; the run starts only if the file read now has exactly this content. */
  shownSha256?: string;
  now: () => Date;
}

/**
 * Checks (and on the user's word records) trust in `source`, the file as read once for this run. A content other than
 * the one shown is refused whatever the answer — it would run what the user never saw — and nothing is trusted then.
 */
export function checkTrust(store: TrustStore, repoRoot: string, source: LoadedWorkflow, answer: TrustAnswer): RunWorkflowTrust {
  const { file, sha256 } = source;
  if (answer.shownSha256 !== undefined && answer.shownSha256 !== sha256) {
    throw new RatchetError(
      'workflow_untrusted',
      `${file} changed after it was shown to you (sha256 ${answer.shownSha256.slice(0, 12)} shown, ${sha256.slice(0, 12)} now). Nothing was run and nothing was trusted: look at the file again and trust the version you read.`,
    );
  }
  if (store.isTrusted(repoRoot, file, sha256)) return { file, sha256 };
  if (answer.trust) {
    store.trust(repoRoot, file, sha256, answer.now().toISOString());
    return { file, sha256 };
  }
  throw new UntrustedWorkflow(file, sha256, trustItems(source.workflow));
}
