// Limits in the sandbox (ratchet.yml `sandbox.limits`): memory, processes, file size and disk use, with defaults a normal test suite never reaches; what hitting one prints is what the classifier calls resource_exhaustion.
import type { SandboxLimits } from '../workflow/schema';

/** Defaults: far above a normal test suite, low enough that a runaway one stops before the machine does. */
export const DEFAULT_LIMITS = { memory_mb: 8192, processes: 4096, file_mb: 4096, disk_mb: 20480 } as const;

export interface EffectiveLimits {
  memory_mb: number;
  processes: number;
  file_mb: number;
  disk_mb: number;
}

/** /dev/shm inside the sandbox: a quarter of the memory limit, at most 512 MB (what a browser under test needs, with room). */
export function shmMb(l: EffectiveLimits): number {
  return Math.max(16, Math.min(512, Math.floor(l.memory_mb / 4)));
}

/**
 * bubblewrap's arguments for a sized `/dev/shm` (its `--dev` gives an unsized one, which holds up to half the
 * machine's memory outside any process's limit); nothing for a bubblewrap older than `--size` (0.5).
 */
export function shmArgs(l: EffectiveLimits, bwrapHasSize: boolean): string {
  return bwrapHasSize ? `--perms 1777 --size ${shmMb(l) * 1024 * 1024} --tmpfs /dev/shm` : '';
}

export function effectiveLimits(limits: SandboxLimits | undefined): EffectiveLimits {
  return { ...DEFAULT_LIMITS, ...Object.fromEntries(Object.entries(limits ?? {}).filter(([, v]) => v !== undefined)) };
}

function q(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * Shell lines (sh and bash alike) that the command runs behind, inside the sandbox: `prlimit` on the shell itself
 * (bytes, no unit to guess), else `ulimit`. Memory is RLIMIT_DATA (what a process has allocated, not the address
 * space runtimes reserve up front); processes is RLIMIT_NPROC set inside the sandbox's user namespace, where it counts
 * the command's own processes and threads. Those bound each process; the run's cgroup, where there is one, bounds
 * them together, and `oomFile` (its OOM-kill count) lets the shell say so when the kernel killed one of them. A
 * watcher stops the command once the worktree and its private folder together have grown by more than `disk_mb`,
 * saying so as "Disk quota exceeded"; it measures in the background (the command does not wait for its first walk)
 * and walks at most a sixth of the time.
 */
export function limitsScript(l: EffectiveLimits, watched: readonly string[], oomFile?: string): string {
  const mb = 1024 * 1024;
  const data = l.memory_mb * mb;
  const fsize = l.file_mb * mb;
  const lines = [
    `if ! prlimit --pid $$ --data=${data}:${data} --fsize=${fsize}:${fsize} --nproc=${l.processes}:${l.processes} 2>/dev/null; then`,
    `  ulimit -d ${l.memory_mb * 1024} 2>/dev/null`,
    // bash counts -f in KiB unless in POSIX mode; sh, dash and bash as sh in 512-byte blocks.
    `  case "\${BASH_VERSION:-}:\${SHELLOPTS:-}" in :*|*posix*) ulimit -f ${l.file_mb * 2048} 2>/dev/null ;; *) ulimit -f ${l.file_mb * 1024} 2>/dev/null ;; esac`,
    `  ulimit -u ${l.processes} 2>/dev/null || ulimit -p ${l.processes} 2>/dev/null`,
    'fi',
  ];
  if (oomFile) {
    const oom = q(oomFile);
    lines.push(
      `__ratchet_oom() { sed -n 's/^oom_kill //p' ${oom} 2>/dev/null; }`,
      '__ratchet_oom0=$(__ratchet_oom)',
      // Seed 002's wording ("<who>: Out of memory" on a line of its own), which the classifier takes whatever the exit code.
      `trap '__ratchet_rc=$?; if [ "$(__ratchet_oom)" != "$__ratchet_oom0" ]; then echo "ratchet: Out of memory" >&2; ` +
        `echo "The kernel killed a process of this run: its processes together reached ${l.memory_mb} MB (sandbox.limits.memory_mb in ratchet.yml)." >&2; fi; exit $__ratchet_rc' EXIT`,
    );
  }
  if (watched.length) {
    const dirs = watched.map(q).join(' ');
    const kb = l.disk_mb * 1024;
    lines.push(
      `__ratchet_used() { du -sk ${dirs} 2>/dev/null | awk '{s+=$1} END {print s+0}'; }`,
      // Started twice removed, so it is no job of the command's shell: a bare `wait` in the command does not wait for it.
      `( ( __ratchet_base=$(__ratchet_used); while :; do __ratchet_t=$(date +%s); __ratchet_now=$(__ratchet_used); ` +
        `if [ $(( __ratchet_now - __ratchet_base )) -gt ${kb} ]; then ` +
        `echo "Disk quota exceeded: the command wrote more than ${l.disk_mb} MB in the worktree and its temporary folders (sandbox.limits.disk_mb in ratchet.yml)" >&2; ` +
        'kill -KILL -1; fi; __ratchet_d=$(( ($(date +%s) - __ratchet_t) * 5 )); [ $__ratchet_d -lt 2 ] && __ratchet_d=2; sleep $__ratchet_d; done ) </dev/null >/dev/null & )',
    );
  }
  return lines.join('\n');
}
