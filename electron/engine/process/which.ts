// Finding a program on PATH, the project's one way (as the shell would: executable files only, an empty entry is the current folder).
import fs from 'node:fs';
import path from 'node:path';

/** What a missing PATH means: the shell's own default. */
export const FALLBACK_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

export function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function pathDirs(env: NodeJS.ProcessEnv, cwd: string): string[] {
  const raw = env.PATH ?? FALLBACK_PATH;
  // An empty PATH entry means the current directory, as in the shell.
  return raw.split(path.delimiter).map((dir) => (dir === '' ? cwd : path.resolve(cwd, dir)));
}

/** The executable `name` resolves to on `env`'s PATH (a name with a slash is taken as a path), or null. */
export function whichIn(name: string, env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string | null {
  if (name.includes('/')) return isExecutableFile(path.resolve(cwd, name)) ? path.resolve(cwd, name) : null;
  const exts = process.platform === 'win32' ? ['.exe', '.cmd', '.bat', ''] : [''];
  for (const dir of pathDirs(env, cwd)) {
    for (const ext of exts) {
      const candidate = path.join(dir, name + ext);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return null;
}
