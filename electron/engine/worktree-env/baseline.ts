// The baseline check: the workflow's setup and gates run once on the base commit, before any agent money is spent — is the project ready to test, and which tests already fail?
import type { BaselineDoc } from '../../../shared/worktree-env';
import type { OsSandbox } from '../sandbox/os-sandbox';
import type { Workflow } from '../workflow/schema';

/** Live progress of a baseline check (the app's "Check project" shows it as it comes). */
export type BaselineProgress =
  | { kind: 'setup.started'; commands: string[] }
  | { kind: 'setup.output'; text: string }
  | { kind: 'setup.finished'; ok: boolean; durationMs: number }
  | { kind: 'gate.started'; gate: string; command: string }
  | { kind: 'gate.output'; gate: string; text: string }
  | { kind: 'gate.finished'; gate: string; passed: boolean; durationMs: number };

/** What "Check project" (New task) gives baselineCheck. */
export interface BaselineCheckOptions {
  /** The user's repository: its root or any folder inside it. */
  repo: string;
  /** The workflow to check (detected, the repository's own, or written in the app): its `setup`, `copy` and gates. */
  workflow: Workflow;
  /** The commit to check; default the repository's HEAD. */
  commit?: string;
  /** The engine's OS sandbox: setup and gates run in it exactly as in a run. */
  sandbox: OsSandbox;
  /** The engine's environment (the user's PATH and variables; the sandbox keeps only its allowlist). */
  env: NodeJS.ProcessEnv;
  /** Where the temporary worktree is made (it is removed at the end); default the system's temporary folder. */
  worktreeRoot?: string;
  signal?: AbortSignal;
  onProgress?: (p: BaselineProgress) => void;
}

/**
 * Makes a temporary worktree of the repository at `commit`, prepares it as a run would (`copy`, dependencies reused
 * from the checkout, `setup`), runs every gate a step uses once, removes the worktree and answers: ready or not (and
 * why, with what to fix), setup's time, each gate's result, and the tests that already fail. Never throws for a
 * failing setup or gate (that is the answer); throws a RatchetError for an unusable repository.
 */
export async function baselineCheck(opts: BaselineCheckOptions): Promise<BaselineDoc> {
  void opts;
  throw new Error('baselineCheck: not implemented yet');
}
