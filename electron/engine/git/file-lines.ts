// A file as a commit holds it, read from the object store (never through a checkout): whole, for the review's anchors,
// or a bounded range of its lines, for a diff's "N unchanged lines" opened on demand. Binary and very large files are
// refused with a sentence, as a code host shows them, rather than sent to the app line by line.
import { RatchetError } from '../errors';
import { git, type GitPlace } from './git-command';

/** Lines one call hands over at most (the app asks again for the next ones). */
export const FILE_LINES_MAX = 2000;
/** A file bigger than this is not read for its lines: a diff view has no use for a 5 MB file's text. */
export const FILE_LINES_MAX_BYTES = 5 * 1024 * 1024;

/** `path` as `commit` holds it, or null when the commit has no such file. */
export async function fileAt(place: GitPlace, commit: string, path: string): Promise<string | null> {
  const r = await git(place).run(['cat-file', 'blob', `${commit}:${path}`]);
  return r.code === 0 ? r.stdout : null;
}

/** A file's lines without the newline that ends the last one. */
export function splitLines(content: string): string[] {
  const lines = content.split('\n');
  if (content.endsWith('\n')) lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/**
 * Lines `from`..`from + count - 1` (1-based) of `path` at `commit`, and how many lines the file has. Fewer lines come
 * back at the file's end. Refused (bad_arguments, with its sentence) when the commit has no such file, it is binary (a NUL byte in its
 * first 8,000, git's own test) or bigger than FILE_LINES_MAX_BYTES.
 */
export async function fileLines(place: GitPlace, commit: string, path: string, from: number, count: number): Promise<{ lines: string[]; total: number }> {
  if (/^\.{0,2}\/|(^|\/)\.\.(\/|$)/.test(path)) throw new RatchetError('bad_arguments', `${path} is not a path inside the repository.`);
  const size = await git(place).run(['cat-file', '-s', `${commit}:${path}`]);
  if (size.code !== 0) throw new RatchetError('bad_arguments', `Commit ${commit.slice(0, 10)} has no file ${path}.`);
  const bytes = Number(size.stdout.trim());
  if (bytes > FILE_LINES_MAX_BYTES)
    throw new RatchetError(
      'bad_arguments',
      `${path} is ${(bytes / 1024 / 1024).toFixed(1)} MB; files over ${FILE_LINES_MAX_BYTES / 1024 / 1024} MB are not shown line by line.`,
    );
  const content = (await fileAt(place, commit, path)) ?? '';
  if (content.slice(0, 8000).includes('\0')) throw new RatchetError('bad_arguments', `${path} is a binary file; it has no lines to show.`);
  const all = splitLines(content);
  const start = Math.max(1, from);
  return { lines: all.slice(start - 1, start - 1 + Math.min(count, FILE_LINES_MAX)), total: all.length };
}
