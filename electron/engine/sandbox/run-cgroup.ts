// One cgroup per run, where the machine gives one (cgroup v2, or v1's memory and pids hierarchies, writable here): the run's memory and processes bounded together, not each process on its own.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { processAlive } from '../process/process-alive';

/** Where this process's cgroups are, and so where a run's go (below them). */
export type CgroupPlace = { version: 2; dir: string } | { version: 1; memory: string; pids: string };

export interface RunCgroup {
  version: 1 | 2;
  /** The `cgroup.procs` files a process joins by writing its pid to each (one per hierarchy). */
  procs: string[];
  /** The file that counts the kernel's OOM kills in the run's cgroup (`oom_kill N`): readable inside the sandbox too. */
  oomFile: string;
  /** The run is over: kills what is left in it and removes it. */
  release(): void;
}

export interface CgroupLimits {
  memoryBytes: number;
  pids: number;
}

interface Mount {
  root: string;
  point: string;
  fstype: string;
  superOptions: string[];
}

/** /proc/self/mountinfo's cgroup mounts. */
function cgroupMounts(mountinfo: string): Mount[] {
  const out: Mount[] = [];
  for (const line of mountinfo.split('\n')) {
    const [left, right] = line.split(' - ');
    if (!left || !right) continue;
    const f = left.split(' ');
    const [fstype, , opts] = right.split(' ');
    if (fstype !== 'cgroup' && fstype !== 'cgroup2') continue;
    const unescape = (s: string) => s.replace(/\\(\d{3})/g, (_, o: string) => String.fromCharCode(Number.parseInt(o, 8)));
    out.push({ root: unescape(f[3] ?? '/'), point: unescape(f[4] ?? ''), fstype, superOptions: (opts ?? '').split(',') });
  }
  return out;
}

/** The folder of `cgPath` (a path in /proc/self/cgroup) under a mount of its hierarchy. */
function under(m: Mount, cgPath: string): string {
  const rel = m.root !== '/' && (cgPath === m.root || cgPath.startsWith(`${m.root}/`)) ? cgPath.slice(m.root.length) : cgPath;
  return path.join(m.point, rel);
}

/**
 * Where this process's cgroups are, from /proc/self/cgroup and /proc/self/mountinfo: cgroup v2 when its unified
 * hierarchy has the memory and pids controllers; else v1 when both its memory and pids hierarchies are mounted; else
 * null (macOS, Windows, a Linux without them). Whether they can be written is learnt by making one (makeRunCgroup).
 */
export function cgroupPlace(read: (file: string) => string = (f) => readFileSync(f, 'utf8')): CgroupPlace | null {
  let self: string;
  let mountinfo: string;
  try {
    self = read('/proc/self/cgroup');
    mountinfo = read('/proc/self/mountinfo');
  } catch {
    return null;
  }
  const mounts = cgroupMounts(mountinfo);
  const lines = self
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [, , controllers = '', p = '/'] = /^(\d+):([^:]*):(.*)$/.exec(l) ?? [];
      return { controllers: controllers.split(','), path: p };
    });
  const v2 = lines.find((l) => l.controllers.length === 1 && l.controllers[0] === '');
  const unified = mounts.find((m) => m.fstype === 'cgroup2');
  if (v2 && unified) {
    const dir = under(unified, v2.path);
    try {
      const controllers = read(path.join(dir, 'cgroup.controllers')).split(/\s+/);
      if (controllers.includes('memory') && controllers.includes('pids')) return { version: 2, dir };
    } catch {
      // Not readable: try v1.
    }
  }
  const v1 = (controller: string): string | null => {
    const line = lines.find((l) => l.controllers.includes(controller));
    const mount = mounts.find((m) => m.fstype === 'cgroup' && m.superOptions.includes(controller));
    return line && mount ? under(mount, line.path) : null;
  };
  const memory = v1('memory');
  const pids = v1('pids');
  return memory && pids ? { version: 1, memory, pids } : null;
}

function write(file: string, value: string): void {
  writeFileSync(file, value);
}

/**
 * The run cgroups a process that is gone left in `dir` (named `ratchet-<pid>-…`: it was killed outright): what still
 * runs in them has outlived its run, so it is killed and the cgroup removed.
 */
function sweep(dir: string, version: 1 | 2): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const orphans = names.filter((name) => {
    const pid = /^ratchet-(\d+)-\d+$/.exec(name)?.[1];
    return pid !== undefined && !processAlive(Number(pid));
  });
  if (orphans.length)
    destroy(
      orphans.map((name) => path.join(dir, name)),
      version,
    );
}

function pidsIn(procs: string): number[] {
  try {
    return readFileSync(procs, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map(Number)
      .filter((n) => Number.isInteger(n) && n > 0);
  } catch {
    return [];
  }
}

/** Kills every process in the cgroups and removes them; one still emptying is tried again shortly. */
function destroy(dirs: string[], version: 1 | 2, tries = 20): void {
  for (const dir of dirs) {
    if (version === 2 && existsSync(path.join(dir, 'cgroup.kill'))) {
      try {
        write(path.join(dir, 'cgroup.kill'), '1');
      } catch {
        // Older kernel: one by one below.
      }
    }
    for (const pid of pidsIn(path.join(dir, 'cgroup.procs'))) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone.
      }
    }
  }
  const left = dirs.filter((dir) => {
    try {
      rmdirSync(dir);
      return false;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code !== 'ENOENT';
    }
  });
  // A killed process leaves its cgroup when the kernel has reaped it: a few milliseconds.
  if (left.length && tries > 0) setTimeout(() => destroy(left, version, tries - 1), 50).unref();
}

/**
 * v2: a child of `dir` gets memory and pids only if `dir` hands them down, which a cgroup holding processes cannot
 * (the root aside). When this process is what holds `dir`, it moves to a leaf of its own (`ratchet-engine-<pid>`) and
 * `dir` hands them down; with other processes there (a terminal's scope: the shell too) it gives up and moves back.
 */
function enableV2(dir: string): string | null {
  const wanted = ['memory', 'pids'];
  const enable = () => {
    try {
      const on = readFileSync(path.join(dir, 'cgroup.subtree_control'), 'utf8').split(/\s+/);
      if (wanted.every((c) => on.includes(c))) return true;
      write(path.join(dir, 'cgroup.subtree_control'), wanted.map((c) => `+${c}`).join(' '));
      return true;
    } catch {
      return false;
    }
  };
  if (enable()) return dir;
  const leaf = path.join(dir, `ratchet-engine-${process.pid}`);
  try {
    mkdirSync(leaf, { recursive: true });
    write(path.join(leaf, 'cgroup.procs'), String(process.pid));
  } catch {
    return null;
  }
  if (enable()) return dir;
  try {
    write(path.join(dir, 'cgroup.procs'), String(process.pid));
    rmdirSync(leaf);
  } catch {
    // Stays in its leaf: the same limits as before, one level down.
  }
  return null;
}

let counter = 0;

/**
 * The run's cgroup below this process's, bounded by `limits` (memory without swap, processes and threads), or null
 * where none can be made here (no hierarchy, or not writable: another user without a delegated subtree). Made by
 * Ratchet outside the sandbox; inside, /sys is read-only, so a command cannot leave it or raise its limits.
 */
export function makeRunCgroup(limits: CgroupLimits, place: CgroupPlace | null = cgroupPlace()): RunCgroup | null {
  if (!place) return null;
  const name = `ratchet-${process.pid}-${++counter}`;
  const made: string[] = [];
  try {
    if (place.version === 2) {
      const parent = enableV2(place.dir);
      if (!parent) return null;
      sweep(parent, 2);
      const dir = path.join(parent, name);
      mkdirSync(dir);
      made.push(dir);
      write(path.join(dir, 'memory.max'), String(limits.memoryBytes));
      if (existsSync(path.join(dir, 'memory.swap.max'))) write(path.join(dir, 'memory.swap.max'), '0');
      write(path.join(dir, 'pids.max'), String(limits.pids));
      return { version: 2, procs: [path.join(dir, 'cgroup.procs')], oomFile: path.join(dir, 'memory.events'), release: () => destroy(made, 2) };
    }
    sweep(place.memory, 1);
    sweep(place.pids, 1);
    const memory = path.join(place.memory, name);
    const pids = path.join(place.pids, name);
    mkdirSync(memory);
    made.push(memory);
    mkdirSync(pids);
    made.push(pids);
    write(path.join(memory, 'memory.limit_in_bytes'), String(limits.memoryBytes));
    // With swap accounting, memory and swap together: the same bound, so nothing goes to swap instead.
    if (existsSync(path.join(memory, 'memory.memsw.limit_in_bytes'))) write(path.join(memory, 'memory.memsw.limit_in_bytes'), String(limits.memoryBytes));
    write(path.join(pids, 'pids.max'), String(limits.pids));
    return {
      version: 1,
      procs: [path.join(memory, 'cgroup.procs'), path.join(pids, 'cgroup.procs')],
      oomFile: path.join(memory, 'memory.oom_control'),
      release: () => destroy(made, 1),
    };
  } catch {
    destroy(made, place.version, 0);
    return null;
  }
}

function q(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The process that puts itself in the run's cgroup, then becomes `file args` (bubblewrap): `sh -c` writes its own pid
 * to each `cgroup.procs` and execs, so everything the command starts is counted from its first instruction. A join
 * that fails stops the command (exit 125) rather than run it unbounded.
 */
export function joinCgroup(cg: RunCgroup, launch: { file: string; args: string[] }): { file: string; args: string[] } {
  const joins = cg.procs.map((p) => `echo $$ > ${q(p)}`).join(' && ');
  // A caller that died before this shell execs would leave bubblewrap's --die-with-parent bound to init: not started then.
  const script = `{ ${joins}; } 2>/dev/null || { echo "Ratchet could not put this command in its run's cgroup" >&2; exit 125; }; kill -0 "$PPID" 2>/dev/null || exit 125; exec "$0" "$@"`;
  return { file: '/bin/sh', args: ['-c', script, launch.file, ...launch.args] };
}
