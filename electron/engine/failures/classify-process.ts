// Failures of the process itself rather than of the code under test: permissions, crashes and exhausted resources.
import type { GateResult } from '../gates/run-gate';
import { result, type Classification, type SideMessage } from './classify-result';

export function permissionError(r: GateResult, out: string, side: SideMessage): Classification | null {
  // The descriptive line first ("…: Read-only file system") over a bare errno line ("npm ERR! code EROFS").
  const line =
    // "PermissionError:" as a raised exception; a test that expects one ("DID NOT RAISE <class 'PermissionError'>",
    // pytest.raises(PermissionError)) names it without the colon. Seed 002 prints "Permission denied: /etc/godot/config".
    out.match(/^.*(?:: Permission denied\b|^[ \t]*Permission denied: \S|\bEACCES\b|\bPermissionError: ).*$/m) ??
    out.match(/^.*(?:(?:: |\] |")(?:Read-only file ?system|Operation not permitted)\b|cannot write to (?:a )?read-only file ?system).*$/im) ??
    out.match(/^.*\b(?:EROFS|EPERM)\b.*$/m);
  if (line && side(line[0])) return null;
  if (r.exitCode === 126 || line) {
    return result('permission_error', line ? line[0].trim() : 'Exit code 126: a command was found but could not be executed');
  }
  return null;
}

const SIGNAL_EXITS: Record<number, string> = { 134: 'SIGABRT', 137: 'SIGKILL', 139: 'SIGSEGV' };
// Godot's crash handler, and the wording of seed 002's Godot server.
const GODOT_CRASH = /^.*(?:handle_crash: Program crashed with signal \d+|\bGodot crashed with signal \d+).*$/m;

export function crashOrResources(r: GateResult, out: string, side: SideMessage): Classification | null {
  const crashLine = out.match(GODOT_CRASH) ?? out.match(/^.*(?:Segmentation fault|core dumped|Aborted|Killed).*$/m);
  const crashed =
    r.signal !== null || (r.exitCode !== null && r.exitCode in SIGNAL_EXITS) || /Segmentation fault|core dumped/.test(out) || GODOT_CRASH.test(out);
  // Out-of-memory wording is only trusted when the process actually died abnormally; the explicit errno names are
  // trusted anywhere.
  const strongResource = out.match(
    /^.*(?:JavaScript heap out of memory|\bENOSPC\b|No space left on device|\bENOMEM\b|Cannot allocate memory|^MemoryError\b|runtime: out of memory|Disk quota exceeded|\bEDQUOT\b|File size limit exceeded|File too large|\bEFBIG\b|fork: (?:retry: )?Resource temporarily unavailable|failed to create new OS thread|Array buffer allocation failed).*$/m,
  );
  // Seed 002's bare "Out of memory" and "Disk full" lines say it whatever the exit code.
  const seedResource = out.match(/^[ \t]*(?:[\w.-]+: )?(?:Out of memory|Disk full)\.?\s*$/im);
  const weakResource = crashed ? out.match(/^.*(?:out of memory|\bOOM\b|oom-kill).*$/im) : null;
  const resource = strongResource ?? seedResource ?? weakResource;
  if (resource && !side(resource[0])) return result('resource_exhaustion', resource[0].trim());
  if (r.signal === 'SIGXFSZ' || r.exitCode === 153)
    return result('resource_exhaustion', 'Killed by SIGXFSZ: a file grew past the file size limit (sandbox.limits.file_mb in ratchet.yml)');
  if (!crashed) return null;
  const how = r.signal
    ? `Killed by ${r.signal}`
    : r.exitCode !== null && r.exitCode in SIGNAL_EXITS
      ? `Exit code ${r.exitCode} (${SIGNAL_EXITS[r.exitCode]})`
      : `Exit code ${r.exitCode ?? 'none'}`;
  return result('crash', crashLine ? `${how}: ${crashLine[0].trim()}` : how);
}
