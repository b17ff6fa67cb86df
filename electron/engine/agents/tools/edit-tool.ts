// Executes Anthropic's text editor tool (text_editor_20250728, named str_replace_based_edit_tool) on files inside the worktree.
import { mkdir, readFile, readdir, stat, type FileHandle } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ToolError, openConfined, resolveInside } from './confine';
import { plural } from '../../../../shared/error-classes';

/** What a tool execution hands back to the model as a tool_result. */
export interface ToolOutcome {
  content: string;
  isError: boolean;
}

export interface EditToolOptions {
  /** Bound on the characters `view` returns; matches `max_characters` on the tool definition. */
  maxCharacters?: number;
  /** Test seam: runs between the path check and the open of a write, where a concurrent process could swap a folder. */
  afterCheck?: () => Promise<void>;
}

export const EDIT_TOOL_NAME = 'str_replace_based_edit_tool';
export const DEFAULT_VIEW_MAX_CHARACTERS = 50_000;
// Reading a multi-gigabyte log into memory to show 50 000 characters of it is not worth the risk.
const MAX_FILE_BYTES = 16 * 1024 * 1024;
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

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value === 'number' ? 'the number' : typeof value} ${String(value)}`;
}

function expectedPhrase(expected: string): string {
  if (expected === 'int') return 'an integer';
  if (expected === 'array' || expected === 'object' || expected === 'integer') return `an ${expected}`;
  return `a ${expected}`;
}

function valueAt(input: unknown, keys: readonly PropertyKey[]): unknown {
  let cur: unknown = input;
  for (const key of keys) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

function fieldName(keys: readonly PropertyKey[]): string {
  return keys.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? String(k) : `.${String(k)}`)).join('');
}

/**
 * Turns zod's issues into one sentence the model can act on: which field, what was expected, what came.
 * Shared with the bash tool so both tools word input errors the same way.
 */
export function describeInvalidInput(toolName: string, input: unknown, error: z.ZodError): string {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return `Invalid input for ${toolName}: expected a JSON object, got ${describeValue(input)}.`;
  }
  const parts = error.issues.slice(0, 4).map((issue) => {
    const field = fieldName(issue.path);
    const got = valueAt(input, issue.path);
    if (issue.code === 'invalid_union' && 'options' in issue && Array.isArray(issue.options)) {
      const options = issue.options.map((o: unknown) => JSON.stringify(o)).join(', ');
      const hint = got === 'undo_edit' ? ' (undo_edit does not exist in this version of the tool)' : '';
      return `\`${field}\` must be one of ${options}, got ${got === undefined ? 'nothing' : describeValue(got)}${hint}`;
    }
    if (issue.code === 'invalid_type') {
      const expected = expectedPhrase(String(issue.expected));
      if (got === undefined) return `\`${field}\` is missing (expected ${expected})`;
      return `\`${field}\` must be ${expected}, got ${describeValue(got)}`;
    }
    return `\`${field || 'input'}\`: ${issue.message}`;
  });
  return `Invalid input for ${toolName}: ${parts.join('; ')}.`;
}

function errnoCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined;
}

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

async function statOrNull(real: string): Promise<Stats | null> {
  try {
    return await stat(real);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return null;
    throw err;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Reads a UTF-8 text file, refusing directories, huge files and binaries with messages the model can act on. */
async function readTextFile(real: string, shown: string): Promise<string> {
  return decodeText(await statOrNull(real), () => readFile(real), shown);
}

async function decodeText(info: Stats | null, readBytes: () => Promise<Buffer>, shown: string): Promise<string> {
  if (!info) throw new ToolError('not_found', `The path ${shown} does not exist.`);
  if (info.isDirectory()) throw new ToolError('wrong_kind', `${shown} is a directory, not a file.`);
  if (!info.isFile()) throw new ToolError('wrong_kind', `${shown} is not a regular file.`);
  if (info.size > MAX_FILE_BYTES) {
    throw new ToolError(
      'too_large',
      `${shown} is ${info.size} bytes, too large for the editor (limit ${MAX_FILE_BYTES}); use bash (sed -n, head, grep) to read parts of it.`,
    );
  }
  const bytes = await readBytes();
  const binary = (): ToolError =>
    new ToolError(
      'binary_file',
      `${shown} looks like a binary file (${bytes.length} bytes); the editor handles UTF-8 text only — use bash (file, xxd | head) to inspect it.`,
    );
  if (bytes.subarray(0, 8192).includes(0)) throw binary();
  try {
    return utf8.decode(bytes);
  } catch {
    throw binary();
  }
}

/** Lines as `cat -n` sees them: a final newline ends the last line rather than starting an empty one. */
function splitLines(text: string): string[] {
  if (text === '') return [];
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
}

function numbered(lines: readonly string[], firstLineNumber: number): string[] {
  return lines.map((line, i) => `${String(firstLineNumber + i).padStart(6)}\t${line.replace(/\r$/, '')}`);
}

/** Whether every newline is CRLF; mixed files are edited byte for byte rather than normalised. */
function usesCrlf(text: string): boolean {
  return text.includes('\r\n') && !/(^|[^\r])\n/.test(text);
}

/** Keeps whole lines while they fit in `budget` characters; returns how many lines were kept. */
function fitLines(lines: readonly string[], budget: number): { text: string; kept: number } {
  let used = 0;
  let kept = 0;
  for (const line of lines) {
    const cost = line.length + (kept > 0 ? 1 : 0);
    if (used + cost > budget) break;
    used += cost;
    kept += 1;
  }
  if (kept === 0 && lines.length > 0) {
    // A single line longer than the budget: show its start rather than nothing at all.
    return { text: (lines[0] ?? '').slice(0, Math.max(0, budget)), kept: 0 };
  }
  return { text: lines.slice(0, kept).join('\n'), kept };
}

async function viewFile(real: string, shown: string, range: readonly [number, number] | null | undefined, max: number): Promise<ToolOutcome> {
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
  const what =
    fit.kept === 0
      ? `line ${start} alone is longer than the limit and was cut`
      : `showing lines ${start}-${shownUpTo} of ${lines.length}`;
  const next = Math.max(shownUpTo + 1, start + 1);
  return {
    content: `${header}${fit.text}\n<response clipped: ${what}; output is limited to ${max} characters. Use view_range, e.g. [${next}, -1], to see more.>`,
    isError: false,
  };
}

async function viewDirectory(real: string, shown: string, max: number): Promise<ToolOutcome> {
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

/** Numbered lines around an edit, so the model can check it without another view. */
function snippet(text: string, firstChanged: number, lastChanged: number, shown: string, max: number): string {
  const lines = splitLines(text);
  const from = Math.max(1, firstChanged - SNIPPET_CONTEXT_LINES);
  const to = Math.min(lines.length, lastChanged + SNIPPET_CONTEXT_LINES);
  const header = `Here's the result of running \`cat -n\` on a snippet of ${shown}:\n`;
  const fit = fitLines(numbered(lines.slice(from - 1, to), from), max - header.length);
  return header + fit.text;
}

function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n += 1;
  return n;
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
