// Where a comment's lines are after a later commit: moved with the change around them, found again by their text, or
// gone (outdated), as code hosts place a comment on a newer diff. Pure.
import { diffFileFor, mapOldLine, parseUnifiedDiff } from '../../../shared/unified-diff';

export interface Anchor {
  file: string;
  line: number;
  endLine: number;
  /** The commented lines' text when the comment was made. */
  text: string;
}

/**
 * `diff`: `git diff <anchor commit> <new commit> -- <file>`; `newContent`: the file at the new commit (null: deleted).
 * Returns the lines in the new commit, or null when they are gone.
 */
export function moveAnchor(a: Anchor, diff: string, newContent: string | null): { line: number; endLine: number } | null {
  if (newContent === null) return null;
  const file = diffFileFor(parseUnifiedDiff(diff), a.file) ?? parseUnifiedDiff(diff).find((f) => f.oldPath === a.file);
  const line = mapOldLine(file, a.line);
  const endLine = mapOldLine(file, a.endLine);
  if (line !== null && endLine !== null && endLine - line === a.endLine - a.line) return { line, endLine };
  // Rewritten around it: the same text found once in the new file moves the comment there.
  if (!a.text.trim()) return null;
  const want = a.text.split('\n');
  const have = newContent.split('\n');
  let found: number | null = null;
  for (let i = 0; i + want.length <= have.length; i++) {
    if (want.every((w, k) => have[i + k] === w)) {
      if (found !== null) return null;
      found = i + 1;
    }
  }
  return found === null ? null : { line: found, endLine: found + want.length - 1 };
}
