// Git-side state that lets a run be rebuilt without the database: its metadata and plan (refs/ratchet/<run>/meta) and how it stood when it last ended (…/state).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { assertWorktreeIntact, git, type PinnedWorktree } from './repo-git';
import { serialized } from './repo-lock';
import { pinnedOrNull } from './worktree-integrity';

/** One attempt as a run's state ref in git keeps it (for `ratchet recover`) (its row's facts; prompts, transcripts and gate logs stay in the database). */
export interface RestoredAttempt {
  step: number;
  n: number;
  round: number;
  outcome: string;
  errorClass: string | null;
  errorMessage: string | null;
  summary: string | null;
  agentKind: string;
  model: string | null;
  treeRef: string | null;
  treeSha: string | null;
  failures: unknown[];
  decision: unknown;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number | null;
  startedAt: string;
  finishedAt: string | null;
}

export interface RunMeta {
  runId: string;
  branch: string;
  baseCommit: string;
  baseBranch: string | null;
  worktree: string;
  title: string;
  description: string;
  /** The workflow, with the latest plan revision's steps. */
  workflow: unknown;
  planRevision: number;
  createdAt: string;
}

/** Stores the run's metadata in the repository, so `ratchet recover` can rebuild the run from git alone. */
export function writeRunMeta(repo: string, meta: RunMeta): Promise<void> {
  return writeBlobRef(repo, `refs/ratchet/${meta.runId}/meta`, meta);
}

/** How a run stood when its process last let go of it: enough for `ratchet recover` to bring it back as it was. */
export interface RunState {
  status: string;
  reason: string | null;
  /** The reason as a code (RunReasonCode); absent in states kept before reason codes. */
  reasonCode?: string | null;
  finishedAt: string | null;
  steps: Array<{ index: number; status: string; commit: string | null }>;
  attempts: RestoredAttempt[];
}

async function writeBlobRef(repo: string, ref: string, value: unknown): Promise<void> {
  const g = git(repo);
  // hash-object -w reads the JSON from a temporary file.
  const dir = mkdtempSync(join(tmpdir(), 'ratchet-meta-'));
  const file = join(dir, 'blob.json');
  try {
    writeFileSync(file, JSON.stringify(value, null, 2));
    const sha = (await g.raw(['hash-object', '-w', file])).trim();
    await g.raw(['update-ref', ref, sha]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Keeps the run's state (status, reason, steps, attempts) under refs/ratchet/<run>/state, written when an execution ends. */
export function writeRunState(repo: string, runId: string, state: RunState): Promise<void> {
  return writeBlobRef(repo, `refs/ratchet/${runId}/state`, state);
}

/** The run's kept state, or null when there is none (a run from before it was kept) or it cannot be read. */
export async function readRunState(repo: string, runId: string): Promise<RunState | null> {
  const g = git(repo);
  try {
    const sha = (await g.raw(['rev-parse', '--verify', '-q', `refs/ratchet/${runId}/state`])).trim();
    return sha ? (JSON.parse(await g.raw(['cat-file', 'blob', sha])) as RunState) : null;
  } catch {
    return null;
  }
}

/** One run's metadata (refs/ratchet/<run>/meta), or null when it has none or it cannot be read. */
export async function readRunMeta(repo: string, runId: string): Promise<RunMeta | null> {
  const g = git(repo);
  try {
    const sha = (await g.raw(['rev-parse', '--verify', '-q', `refs/ratchet/${runId}/meta`])).trim();
    return sha ? (JSON.parse(await g.raw(['cat-file', 'blob', sha])) as RunMeta) : null;
  } catch {
    return null;
  }
}

export async function readRunMetas(repo: string): Promise<RunMeta[]> {
  const g = git(repo);
  const refs = (await g.raw(['for-each-ref', '--format=%(refname) %(objectname)', 'refs/ratchet/'])).split('\n').filter((l) => /\/meta /.test(l));
  const out: RunMeta[] = [];
  for (const line of refs) {
    const sha = line.split(' ')[1];
    if (!sha) continue;
    try {
      out.push(JSON.parse(await g.raw(['cat-file', 'blob', sha])) as RunMeta);
    } catch {
      /* a damaged meta blob is skipped; the branch itself is still there */
    }
  }
  return out;
}

/**
 * Removes index.lock files a killed git left in the worktree's admin dir (its owner is gone: only this run's process
 * works there). The admin dir is the one the user's repository names for the worktree, never what its .git file says.
 */
export function clearStaleLocks(repo: string, worktree: string): string[] {
  const wt = pinnedOrNull(repo, worktree);
  if (!wt) return [];
  const removed: string[] = [];
  for (const name of ['index.lock', 'HEAD.lock']) {
    const p = resolve(wt.gitDir, name);
    if (existsSync(p)) {
      rmSync(p, { force: true });
      removed.push(p);
    }
  }
  return removed;
}

/** Would merging the moved base into the branch conflict? (git merge-tree, nothing written to any checkout.) */
export async function mergeConflicts(repo: string, branch: string, otherRev: string): Promise<string[]> {
  // Its exit code is the answer (1: conflicts), which raw() does not tell apart from success when git writes no stderr.
  const r = await git(repo)
    .run(['merge-tree', '--write-tree', '--name-only', '--no-messages', branch, otherRev])
    .catch(() => null);
  if (!r || r.code !== 1) return [];
  // The first line is the merged tree; the conflicted paths follow.
  return r.stdout
    .split('\n')
    .slice(1)
    .map((l) => l.trim())
    .filter(Boolean);
}

export async function recreateWorktree(repo: string, worktree: string, branch: string): Promise<void> {
  await serialized(repo, async () => {
    await git(repo).raw(['worktree', 'prune']);
    // The run's branch holds the agent's .gitattributes and .lfsconfig: its checkout runs no filter.
    await git(repo, [], {}, { filtersOff: true }).raw(['worktree', 'add', worktree, branch]);
  });
}

export async function checkoutBranch(wt: PinnedWorktree, branch: string): Promise<void> {
  await assertWorktreeIntact(wt);
  await git(wt).raw(['checkout', '-q', branch]);
}

export async function stashAll(wt: PinnedWorktree, message: string): Promise<string | null> {
  await assertWorktreeIntact(wt);
  const g = git(wt);
  await g.raw(['stash', 'push', '--include-untracked', '-m', message]);
  try {
    return (await g.raw(['rev-parse', 'stash@{0}'])).trim();
  } catch {
    return null;
  }
}
