// The diff of a worktree as it is now (tracked and new files) against a commit or tree, for an attempt still under way
// or one a dead process left: read through a throwaway index, so the worktree's own index and files are never touched.
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { git } from './repo-git';

/** `git diff <from>` of everything in the worktree now, new files included, through a temporary index. */
export async function worktreeDiff(worktree: string, from: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'ratchet-live-diff-'));
  try {
    const index = join(dir, 'index');
    // A copy of the worktree's index keeps git's file stats: only files changed since are read again.
    const own = (await git(worktree).raw(['rev-parse', '--git-path', 'index'])).trim();
    const ownPath = isAbsolute(own) ? own : join(worktree, own);
    if (existsSync(ownPath)) copyFileSync(ownPath, index);
    const g = git(worktree, [], { GIT_INDEX_FILE: index });
    await g.raw(['add', '-A']);
    return await g.raw(['diff', '--cached', '--no-color', '--no-ext-diff', '--no-textconv', from]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
