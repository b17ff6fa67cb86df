// Executes Anthropic's text editor tool (text_editor_20250728, named str_replace_based_edit_tool) on files inside the worktree.
import { mkdir, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ToolError, openConfined, resolveInside } from '../../fs/confine';
import { viewDirectory, viewFile } from './edit-view';
import { decodeText, errnoCode, statOrNull } from './text-file';
import { countNewlines, fitLines, lineOfOffset, numbered, splitLines, usesCrlf } from './text-lines';
import { describeInvalidInput, type ToolOutcome } from './tool-replies';
import { plural } from '../../../../shared/error-classes';

export type { ToolOutcome } from './tool-replies';

export interface EditToolOptions {
  /** Bound on the characters `view` returns; matches `max_characters` on the tool definition. */
  maxCharacters?: number;
  /** Test seam: runs between the path check and the open of a write, where a concurrent process could swap a folder. */
  afterCheck?: () => Promise<void>;
}

export const EDIT_TOOL_NAME = 'str_replace_based_edit_tool';
export const DEFAULT_VIEW_MAX_CHARACTERS = 50_000;
const SNIPPET_CONTEXT_LINES = 4;

const lineNumber = z.number().int();

const ViewInput = z.object({
  command: z.literal('view'),
  path: z.string(),
  view_range: z.tuple([lineNumber, lineNumber]).nullish(),
});
const CreateInput = z.object({
  command: z.literal('create'),
  path: z.string(),
  file_text: z.string(),
});
const StrReplaceInput = z.object({
  command: z.literal('str_replace'),
  path: z.string(),
  old_str: z.string(),
  new_str: z.string().nullish(),
});
const InsertInput = z.object({
  command: z.literal('insert'),
  path: z.string(),
  insert_line: lineNumber,
  insert_text: z.string().optional(),
  // Older docs (and some SDKs) call the inserted text new_str; accepting it costs nothing and saves a turn.
  new_str: z.string().optional(),
});
const EditInput = z.discriminatedUnion('command', [ViewInput, CreateInput, StrReplaceInput, InsertInput]);
type EditInput = z.infer<typeof EditInput>;

function fsFailure(err: unknown, shown: string, action: string): string {
  switch (errnoCode(err)) {
    case 'ENOENT':
      return `The path ${shown} does not exist.`;
    case 'EACCES':
    case 'EPERM':
      return `Permission denied: cannot ${action} ${shown}.`;
    case 'EISDIR':
      return `${shown} is a directory, not a file.`;
    case 'ENOTDIR':
      return `A parent of ${shown} is a file, not a directory.`;
    default:
      return `Could not ${action} ${shown}: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/** Numbered lines around an edit, so the model can check it without another view. */
function snippet(text: string, firstChanged: number, lastChanged: number, shown: string, max: number): string {
  const lines = splitLines(text);
  const from = Math.max(1, firstChanged - SNIPPET_CONTEXT_LINES);
  const to = Math.min(lines.length, lastChanged + SNIPPET_CONTEXT_LINES);
  const header = `Here's the result of running \`cat -n\` on a snippet of ${shown}:\n`;
  const fit = fitLines(numbered(lines.slice(from - 1, to), from), max - header.length);
  return header + fit.text;
}

/** Where a write goes: the worktree, the checked real path, and the test seam run before the open. */
interface WriteTarget {
  root: string;
  real: string;
  afterCheck: (() => Promise<void>) | undefined;
}

/** Opens the checked file through openConfined (race-free: see there) and hands its descriptor to `fn`. */
async function withConfined<T>(t: WriteTarget, create: boolean, fn: (h: FileHandle) => Promise<T>): Promise<T> {
  await t.afterCheck?.();
  const { handle } = await openConfined(t.root, t.real, { create });
  try {
    return await fn(handle);
  } finally {
    await handle.close();
  }
}

/** Replaces the whole content of the opened file, through its descriptor. */
async function rewrite(handle: FileHandle, text: string): Promise<void> {
  const bytes = Buffer.from(text, 'utf8');
  await handle.truncate(0);
  let done = 0;
  while (done < bytes.length) done += (await handle.write(bytes, done, bytes.length - done, done)).bytesWritten;
}

async function readThrough(handle: FileHandle, shown: string): Promise<string> {
  return decodeText(await handle.stat(), () => handle.readFile(), shown);
}

async function create(t: WriteTarget, shown: string, fileText: string): Promise<ToolOutcome> {
  const existing = await statOrNull(t.real);
  if (existing?.isDirectory()) throw new ToolError('wrong_kind', `${shown} is a directory; create needs a file path.`);
  await mkdir(path.dirname(t.real), { recursive: true });
  await withConfined(t, true, (h) => rewrite(h, fileText));
  const lines = splitLines(fileText).length;
  return {
    content: existing
      ? `File ${shown} already existed and was overwritten with the new content (${plural(lines, 'line')}).`
      : `File created successfully at ${shown} (${plural(lines, 'line')}).`,
    isError: false,
  };
}

async function strReplace(t: WriteTarget, shown: string, oldStr: string, newStr: string, max: number): Promise<ToolOutcome> {
  if (oldStr === '') {
    throw new ToolError('invalid_input', 'old_str is empty; give the exact text to replace, with enough context to be unique.');
  }
  return withConfined(t, false, async (h) => strReplaceIn(h, shown, oldStr, newStr, max));
}

async function strReplaceIn(h: FileHandle, shown: string, oldStr: string, newStr: string, max: number): Promise<ToolOutcome> {
  const original = await readThrough(h, shown);
  // In a CRLF file the model still writes \n; normalise both sides so the match and the result keep CRLF.
  const crlf = usesCrlf(original);
  const lf = (s: string): string => (crlf ? s.replaceAll('\r\n', '\n') : s);
  const text = lf(original);
  const needle = lf(oldStr);
  const replacement = lf(newStr);
  const matches: number[] = [];
  // Overlapping matches count too: "aa" in "aaa" is just as ambiguous.
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) matches.push(i);
  const [first] = matches;
  if (first === undefined) {
    throw new ToolError('no_match', `No replacement was performed, old_str did not appear verbatim in ${shown}.`);
  }
  if (matches.length > 1) {
    const lines = [...new Set(matches.map((m) => lineOfOffset(text, m)))];
    const listed = lines.length > 10 ? `${lines.slice(0, 10).join(', ')} and ${lines.length - 10} more` : lines.join(', ');
    throw new ToolError(
      'ambiguous_match',
      `No replacement was performed. old_str occurs ${matches.length} times in ${shown}, starting on lines ${listed}; include more surrounding lines to make it unique.`,
    );
  }
  const edited = text.slice(0, first) + replacement + text.slice(first + needle.length);
  await rewrite(h, crlf ? edited.replaceAll('\n', '\r\n') : edited);
  const startLine = lineOfOffset(edited, first);
  return {
    content: `The file ${shown} has been edited. ${snippet(edited, startLine, startLine + countNewlines(replacement), shown, max)}`,
    isError: false,
  };
}

async function insert(t: WriteTarget, shown: string, afterLine: number, insertText: string, max: number): Promise<ToolOutcome> {
  return withConfined(t, false, async (h) => insertIn(h, shown, afterLine, insertText, max));
}

async function insertIn(h: FileHandle, shown: string, afterLine: number, insertText: string, max: number): Promise<ToolOutcome> {
  const original = await readThrough(h, shown);
  const crlf = usesCrlf(original);
  const text = crlf ? original.replaceAll('\r\n', '\n') : original;
  const lines = splitLines(text);
  if (afterLine < 0 || afterLine > lines.length) {
    throw new ToolError(
      'out_of_range',
      `Invalid insert_line ${afterLine}: it must be between 0 and ${lines.length} (${shown} has ${lines.length} lines; 0 inserts at the top).`,
    );
  }
  const normalised = crlf ? insertText.replaceAll('\r\n', '\n') : insertText;
  const added = splitLines(normalised);
  // Inserting "" still means "add a line", so it becomes one empty line rather than a no-op.
  const newLines = added.length > 0 ? added : [''];
  const result = [...lines.slice(0, afterLine), ...newLines, ...lines.slice(afterLine)];
  const trailingNewline = text.endsWith('\n') || lines.length === 0;
  const edited = result.join('\n') + (trailingNewline ? '\n' : '');
  await rewrite(h, crlf ? edited.replaceAll('\n', '\r\n') : edited);
  const plural = newLines.length === 1 ? 'line' : 'lines';
  return {
    content: `Inserted ${newLines.length} ${plural} after line ${afterLine} of ${shown}. ${snippet(edited, afterLine + 1, afterLine + newLines.length, shown, max)}`,
    isError: false,
  };
}

async function execute(root: string, input: EditInput, max: number, afterCheck?: () => Promise<void>): Promise<ToolOutcome> {
  const shown = input.path;
  const target = async (): Promise<WriteTarget> => ({ root, real: await resolveInside(root, input.path), afterCheck });
  switch (input.command) {
    case 'view': {
      const real = await resolveInside(root, input.path, 'read');
      const info = await statOrNull(real);
      if (!info) throw new ToolError('not_found', `The path ${shown} does not exist.`);
      if (info.isDirectory()) {
        if (input.view_range) throw new ToolError('invalid_input', `view_range is only allowed for files, and ${shown} is a directory.`);
        return viewDirectory(real, shown, max);
      }
      return viewFile(real, shown, input.view_range, max);
    }
    case 'create':
      return create(await target(), shown, input.file_text);
    case 'str_replace':
      return strReplace(await target(), shown, input.old_str, input.new_str ?? '', max);
    case 'insert': {
      const text = input.insert_text ?? input.new_str;
      if (text === undefined) throw new ToolError('invalid_input', `Invalid input for ${EDIT_TOOL_NAME}: \`insert_text\` is missing (expected a string).`);
      return insert(await target(), shown, input.insert_line, text, max);
    }
  }
}

/** Runs one text-editor call. Never throws: every failure becomes an error result the model can read. */
export async function runEditTool(root: string, input: unknown, opts: EditToolOptions = {}): Promise<ToolOutcome> {
  const parsed = EditInput.safeParse(input);
  if (!parsed.success) return { content: describeInvalidInput(EDIT_TOOL_NAME, input, parsed.error), isError: true };
  const max = opts.maxCharacters !== undefined && opts.maxCharacters > 0 ? opts.maxCharacters : DEFAULT_VIEW_MAX_CHARACTERS;
  try {
    return await execute(root, parsed.data, max, opts.afterCheck);
  } catch (err) {
    if (err instanceof ToolError) return { content: err.message, isError: true };
    const action = parsed.data.command === 'view' ? 'read' : 'edit';
    return { content: fsFailure(err, parsed.data.path, action), isError: true };
  }
}
