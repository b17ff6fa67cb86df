// Where sandbox-runtime's vendored helpers (apply-seccomp, the Java proxy agent) really are: in a packaged app they are unpacked beside app.asar, where bwrap and java can run them.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** A path inside `app.asar` as the unpacked copy electron-builder's `asarUnpack` puts beside it; other paths unchanged. */
export function unpackedPath(p: string): string {
  return p.replace(/([\\/])app\.asar(?=[\\/]|$)/, '$1app.asar.unpacked');
}

/** The library's package folder, as Node resolves it from here (the main bundle keeps it external). */
export function sandboxRuntimeRoot(): string | null {
  try {
    return path.dirname(createRequire(import.meta.url).resolve('@anthropic-ai/sandbox-runtime/package.json'));
  } catch {
    return null;
  }
}

/**
 * The library finds `vendor/` relative to its own file, which in a packaged app is a path inside app.asar: it
 * "exists" for Electron's fs, but bwrap runs apply-seccomp by that name outside Node, where only the unpacked copy
 * is real. Inside an archive, name the unpacked files explicitly; elsewhere let the library look them up.
 */
export function vendoredPaths(root = sandboxRuntimeRoot(), arch: string = process.arch): { seccomp?: { applyPath: string }; javaAgentJarPath?: string } {
  if (!root || unpackedPath(root) === root) return {};
  const vendor = path.join(unpackedPath(root), 'vendor');
  const out: { seccomp?: { applyPath: string }; javaAgentJarPath?: string } = {};
  const apply = path.join(vendor, 'seccomp', arch, 'apply-seccomp');
  if (existsSync(apply)) out.seccomp = { applyPath: apply };
  const jar = path.join(vendor, 'java-proxy-agent', 'srt-proxy-agent.jar');
  if (existsSync(jar)) out.javaAgentJarPath = jar;
  return out;
}
