// Reads completed steps from the branch's history: `step N: <title>` subjects between the base commit and the branch.
import { git } from './repo-git';

export interface StepCommit {
  index: number;
  sha: string;
  subject: string;
}

const STEP_SUBJECT = /^step (\d+):/;

/** Pure: parse `git log --format=%H%x09%s` output (newest first) into step commits, oldest first, first commit per step. */
export function parseStepCommits(log: string): StepCommit[] {
  const byIndex = new Map<number, StepCommit>();
  const lines = log.split('\n');
  // Oldest first, so a step committed twice keeps its first commit.
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i];
    if (!line) continue;
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const subject = line.slice(tab + 1);
    const m = STEP_SUBJECT.exec(subject);
    if (!m) continue;
    const index = Number(m[1]);
    if (!byIndex.has(index)) byIndex.set(index, { index, sha: line.slice(0, tab), subject });
  }
  return [...byIndex.values()].sort((a, b) => a.index - b.index);
}

/** Steps committed on `branch` since `base` (a two-dot range: commits reachable from branch, not from base). */
export async function completedSteps(repoDir: string, base: string, branch: string): Promise<StepCommit[]> {
  const out = await git(repoDir).raw(['log', '--no-color', '--format=%H%x09%s', `${base}..${branch}`]);
  return parseStepCommits(out);
}
