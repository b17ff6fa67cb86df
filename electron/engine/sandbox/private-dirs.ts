// Each run's private folder (HOME and TMPDIR inside the sandbox) under <tmp>/ratchet-sandbox: made when the run starts, removed when it ends, and swept at engine start when the process that made it is gone.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export function privateRoot(): string {
  return path.join(tmpdir(), 'ratchet-sandbox');
}

export interface PrivateDir {
  dir: string;
  home: string;
  tmp: string;
}

/** Who holds a private folder: a file beside it (not in it, where the sandbox could rewrite it). */
function ownerFile(dir: string): string {
  return `${dir}.owner`;
}

export function makePrivateDir(worktree: string, root = privateRoot()): PrivateDir {
  const dir = path.join(root, path.basename(worktree));
  const home = path.join(dir, 'home');
  const tmp = path.join(dir, 'tmp');
  mkdirSync(home, { recursive: true });
  mkdirSync(tmp, { recursive: true });
  writeFileSync(ownerFile(dir), `${process.pid}\n`);
  return { dir, home, tmp };
}

/** Removes a tree whatever its modes (Go writes its module cache read-only, and so may any build). */
export function removeTree(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true });
    return;
  } catch {
    // Read-only folders: make them writable, then remove.
  }
  const walk = (d: string) => {
    try {
      chmodSync(d, 0o700);
      for (const e of readdirSync(d, { withFileTypes: true })) if (e.isDirectory()) walk(path.join(d, e.name));
    } catch {
      // Gone meanwhile, or not ours to change: rmSync says which.
    }
  };
  walk(dir);
  rmSync(dir, { recursive: true, force: true });
}

export function removePrivateDir(dir: string): void {
  removeTree(dir);
  rmSync(ownerFile(dir), { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A folder left by a version that wrote no owner file counts as dead once it has not changed for this long. */
const UNOWNED_AFTER_MS = 60 * 60 * 1000;

/** Removes private folders whose process is gone (and old ones no process owns); returns what it removed. */
export function sweepPrivateDirs(root = privateRoot(), now = Date.now()): string[] {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (name.endsWith('.owner')) continue;
    const dir = path.join(root, name);
    let dead: boolean;
    if (existsSync(ownerFile(dir))) {
      const pid = Number.parseInt(readFileSync(ownerFile(dir), 'utf8'), 10);
      dead = !Number.isInteger(pid) || pid <= 0 || !alive(pid);
    } else {
      try {
        dead = now - statSync(dir).mtimeMs > UNOWNED_AFTER_MS;
      } catch {
        continue;
      }
    }
    if (!dead) continue;
    try {
      removePrivateDir(dir);
      removed.push(dir);
    } catch {
      // In use or not ours: the next sweep tries again.
    }
  }
  for (const name of names.filter((n) => n.endsWith('.owner'))) {
    if (!existsSync(path.join(root, name.slice(0, -'.owner'.length)))) rmSync(path.join(root, name), { force: true });
  }
  return removed;
}
