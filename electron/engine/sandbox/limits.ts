// Per-command limits in the sandbox (ratchet.yml `sandbox.limits`): memory, processes, file size and disk use, with defaults a normal test suite never reaches; what hitting one prints is what the classifier calls resource_exhaustion.
import type { SandboxLimits } from '../workflow/schema';

/** Defaults: far above a normal test suite, low enough that a runaway one stops before the machine does. */
export const DEFAULT_LIMITS = { memory_mb: 8192, processes: 4096, file_mb: 4096 } as const;

export interface EffectiveLimits {
  memory_mb: number;
  processes: number;
  file_mb: number;
  /** Unset by default: measuring it means walking the worktree while the command runs. */
  disk_mb?: number;
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
 * the command's own processes and threads. With `disk_mb`, a watcher stops the command once the worktree and its
 * private folder together have grown by more than that, saying so as "Disk quota exceeded".
 */
export function limitsScript(l: EffectiveLimits, watched: readonly string[]): string {
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
  if (l.disk_mb !== undefined && watched.length) {
    const dirs = watched.map(q).join(' ');
    const kb = l.disk_mb * 1024;
    lines.push(
      `__ratchet_used() { du -sk ${dirs} 2>/dev/null | awk '{s+=$1} END {print s+0}'; }`,
      `__ratchet_base=$(__ratchet_used)`,
      `( while sleep 2; do if [ $(( $(__ratchet_used) - __ratchet_base )) -gt ${kb} ]; then ` +
        `echo "Disk quota exceeded: the command wrote more than ${l.disk_mb} MB in the worktree and its temporary folders (sandbox.limits.disk_mb in ratchet.yml)" >&2; ` +
        'kill -KILL -1; fi; done ) </dev/null >/dev/null &',
    );
  }
  return lines.join('\n');
}
