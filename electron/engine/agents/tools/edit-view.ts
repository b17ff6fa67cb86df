// The editor's `view` command: a file's numbered lines (or a range of them), or a folder's listing two levels deep,
// clipped to the character limit with a note that says how to see the rest.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from '../../fs/confine';
import { errnoCode, readTextFile } from './text-file';
import { fitLines, numbered, splitLines } from './text-lines';
import type { ToolOutcome } from './tool-replies';

export async function viewFile(real: string, shown: string, range: readonly [number, number] | null | undefined, max: number): Promise<ToolOutcome> {
  const lines = splitLines(await readTextFile(real, shown));
  if (lines.length === 0) return { content: `The file ${shown} is empty.`, isError: false };
  let start = 1;
  let end = lines.length;
  if (range) {
    const [from, to] = range;
    if (from < 1 || from > lines.length) {
      throw new ToolError(
        'out_of_range',
        `Invalid view_range [${from}, ${to}]: the first number must be between 1 and ${lines.length} (the file has ${lines.length} lines).`,
      );
    }
    if (to !== -1 && to < from) {
      throw new ToolError('out_of_range', `Invalid view_range [${from}, ${to}]: the second number must be -1 (to the end) or at least ${from}.`);
    }
    start = from;
    end = to === -1 ? lines.length : Math.min(to, lines.length);
  }
  const header = `Here's the result of running \`cat -n\` on ${shown}:\n`;
  const rows = numbered(lines.slice(start - 1, end), start);
  const fit = fitLines(rows, max - header.length);
  if (fit.kept === rows.length) return { content: header + fit.text, isError: false };
  const shownUpTo = start + fit.kept - 1;
  const what = fit.kept === 0 ? `line ${start} alone is longer than the limit and was cut` : `showing lines ${start}-${shownUpTo} of ${lines.length}`;
  const next = Math.max(shownUpTo + 1, start + 1);
  return {
    content: `${header}${fit.text}\n<response clipped: ${what}; output is limited to ${max} characters. Use view_range, e.g. [${next}, -1], to see more.>`,
    isError: false,
  };
}

export async function viewDirectory(real: string, shown: string, max: number): Promise<ToolOutcome> {
  const entries: string[] = [];
  const walk = async (dir: string, rel: string, depth: number): Promise<void> => {
    let children;
    try {
      children = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      entries.push(`${path.join(shown, rel)}/ (unreadable: ${errnoCode(err) ?? 'error'})`);
      return;
    }
    children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const child of children) {
      // Hidden entries (.git above all) and node_modules drown the listing in noise.
      if (child.name.startsWith('.') || child.name === 'node_modules') continue;
      const childRel = path.join(rel, child.name);
      const display = path.join(shown, childRel);
      if (child.isDirectory()) {
        entries.push(`${display}/`);
        if (depth < 2) await walk(path.join(dir, child.name), childRel, depth + 1);
      } else {
        entries.push(child.isSymbolicLink() ? `${display}@` : display);
      }
    }
  };
  await walk(real, '', 1);
  const header = `Here are the files and directories up to 2 levels deep in ${shown}, excluding hidden items and node_modules:\n`;
  if (entries.length === 0) return { content: `${header}(empty directory)`, isError: false };
  const fit = fitLines(entries, max - header.length);
  if (fit.kept === entries.length) return { content: header + fit.text, isError: false };
  return {
    content: `${header}${fit.text}\n<response clipped: ${entries.length - fit.kept} more entries not shown; view a subdirectory to see them.>`,
    isError: false,
  };
}
