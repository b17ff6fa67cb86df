// The diff of a worktree as it is now (tracked and new files) against a commit or tree, for an attempt still under way
// or one a dead process left: read through a throwaway index, so the worktree's own index and files are never touched.
// Like every git command of Ratchet's over a run's worktree it is pinned (--git-dir/--work-tree from the user's
// repository, never the worktree's .git file) and walks the work tree only when the worktree is intact.
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RatchetError } from '../errors';
import { describeViolations } from './worktree-integrity';
import { git, placeholderExcludes, worktreeViolations, type PinnedWorktree } from './repo-git';

/** `git diff <from>` of everything in the worktree now, new files included, through a temporary index. */
export async function worktreeDiff(p: PinnedWorktree, from: string): Promise<string> {
  // Looked at, never repaired here: the step runner's own check must still find (and report) what the agent did.
  const found = await worktreeViolations(p);
  if (found.length) throw new RatchetError('sandbox_violation', `The worktree cannot be read safely now: ${describeViolations(found)}`);
  const dir = mkdtempSync(join(tmpdir(), 'ratchet-live-diff-'));
  try {
    const index = join(dir, 'index');
    // A copy of the worktree's index (in its admin dir) keeps git's file stats: only files changed since are read again.
    const own = join(p.gitDir, 'index');
    if (existsSync(own)) copyFileSync(own, index);
    const g = git(p, [], { GIT_INDEX_FILE: index });
    await g.raw(['add', '-A', ...placeholderExcludes(p)]);
    return await g.raw(['diff', '--cached', '--no-color', '--no-ext-diff', '--no-textconv', from]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
