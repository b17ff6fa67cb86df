// Opening a run's worktree from the desktop app: in a terminal, an editor, or the file manager (runs.openWorktree).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { RatchetError, whichIn } from '../engine';

export type OpenWith = 'terminal' | 'editor' | 'folder';

/** A program to start (detached), or the file manager. */
export type Launch = { kind: 'spawn'; command: string; args: string[]; cwd: string } | { kind: 'folder'; path: string };

/** Linux terminals, in the order tried: the Debian alternative first, then common ones. */
const LINUX_TERMINALS: Array<[string, (dir: string) => string[]]> = [
  ['x-terminal-emulator', () => []],
  ['gnome-terminal', (d) => [`--working-directory=${d}`]],
  ['konsole', (d) => ['--workdir', d]],
  ['xfce4-terminal', (d) => [`--working-directory=${d}`]],
  ['kitty', (d) => ['--directory', d]],
  ['alacritty', (d) => ['--working-directory', d]],
  ['xterm', () => []],
];
/** Editors that open a folder from the command line, in the order tried ($VISUAL first, when set). */
const EDITORS = ['code', 'cursor', 'codium', 'zed', 'subl'];

/** What to start for `with` on `platform`, given which programs are on PATH (`has`); null when nothing fits. Pure. */
export function launchFor(withWhat: OpenWith, dir: string, platform: NodeJS.Platform, has: (program: string) => boolean, visual?: string): Launch | null {
  if (withWhat === 'folder') return { kind: 'folder', path: dir };
  if (withWhat === 'terminal') {
    if (platform === 'darwin') return { kind: 'spawn', command: 'open', args: ['-a', 'Terminal', dir], cwd: dir };
    if (platform === 'win32') return { kind: 'spawn', command: 'cmd.exe', args: ['/c', 'start', '', 'cmd.exe', '/K', `cd /d "${dir}"`], cwd: dir };
    const t = LINUX_TERMINALS.find(([p]) => has(p));
    return t ? { kind: 'spawn', command: t[0], args: t[1](dir), cwd: dir } : null;
  }
  const editor = [visual?.trim(), ...EDITORS].find((e): e is string => Boolean(e) && has(e as string));
  if (editor) return { kind: 'spawn', command: editor, args: [dir], cwd: dir };
  if (platform === 'darwin') return { kind: 'spawn', command: 'open', args: ['-t', dir], cwd: dir };
  return null;
}

export function onPath(program: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return whichIn(program, env) !== null;
}

/** Opens `dir`; `openFolder` is Electron's shell.openPath. Throws a sentence saying what to do when nothing can open it. */
export async function openWorktree(dir: string, withWhat: OpenWith, openFolder: (path: string) => Promise<string>): Promise<void> {
  if (!existsSync(dir)) throw new RatchetError('no_worktree', `The worktree ${dir} no longer exists.`);
  const launch = launchFor(withWhat, dir, process.platform, (p) => onPath(p), process.env.VISUAL);
  if (!launch) {
    const what = withWhat === 'terminal' ? 'No terminal program was found' : 'No editor that opens a folder (code, cursor, zed, subl, or $VISUAL) was found';
    throw new RatchetError('not_available', `${what}: run \`cd ${dir}\` in your terminal.`);
  }
  if (launch.kind === 'folder') {
    const error = await openFolder(launch.path);
    if (error) throw new RatchetError('not_available', `The file manager could not open ${dir}: ${error}`);
    return;
  }
  await new Promise<void>((ok, fail) => {
    const child = spawn(launch.command, launch.args, { cwd: launch.cwd, detached: true, stdio: 'ignore' });
    child.once('error', (e) =>
      fail(new RatchetError('not_available', `${launch.command} could not start (${e.message}): run \`cd ${dir}\` in your terminal.`)),
    );
    child.once('spawn', () => {
      child.unref();
      ok();
    });
  });
}
