// Reads a worktree file as UTF-8 text for the editor, refusing directories, huge files and binaries in words the model can act on.
import { stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { readWorktreeFile } from '../../fs/worktree-file';
import { ToolError } from '../../fs/confine';

// Reading a multi-gigabyte log into memory to show 50 000 characters of it is not worth the risk.
const MAX_FILE_BYTES = 16 * 1024 * 1024;

export function errnoCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined;
}

export async function statOrNull(real: string): Promise<Stats | null> {
  try {
    return await stat(real);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return null;
    throw err;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Reads a UTF-8 text file, refusing directories, huge files and binaries with messages the model can act on. The bytes
 * are read as every worktree file is (readWorktreeFile: no link followed at the end, an open that cannot block, a
 * regular file, capped), so a FIFO or a link to /dev/zero swapped in after the stat is refused, never waited on.
 */
export async function readTextFile(real: string, shown: string): Promise<string> {
  return decodeText(
    await statOrNull(real),
    async () => {
      const r = await readWorktreeFile('/', real, { maxBytes: MAX_FILE_BYTES });
      if (!r.ok) throw new ToolError(r.kind === 'absent' ? 'not_found' : 'path_changed', `${shown} changed while it was being read: ${r.message}.`);
      return r.bytes;
    },
    shown,
  );
}

export async function decodeText(info: Stats | null, readBytes: () => Promise<Buffer>, shown: string): Promise<string> {
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
