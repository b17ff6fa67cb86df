// In a packaged app the sandbox's vendored helpers are named at their unpacked place beside app.asar; in the development tree the library finds them itself.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/temp-repo';
import { sandboxRuntimeRoot, unpackedPath, vendoredPaths } from './vendor-paths';

describe('vendoredPaths', () => {
  it('maps a path inside app.asar to app.asar.unpacked, and leaves others alone', () => {
    expect(unpackedPath('/opt/Ratchet/resources/app.asar/node_modules/x')).toBe('/opt/Ratchet/resources/app.asar.unpacked/node_modules/x');
    expect(unpackedPath('C:\\R\\resources\\app.asar\\node_modules\\x')).toBe('C:\\R\\resources\\app.asar.unpacked\\node_modules\\x');
    expect(unpackedPath('/work/app.asarx/y')).toBe('/work/app.asarx/y');
  });

  it('names apply-seccomp and the Java agent from the unpacked copy when the library sits in an archive', () => {
    const resources = tempDir('ratchet-packaged-');
    const lib = 'node_modules/@anthropic-ai/sandbox-runtime';
    const unpacked = join(resources, 'app.asar.unpacked', lib, 'vendor');
    mkdirSync(join(unpacked, 'seccomp', 'x64'), { recursive: true });
    mkdirSync(join(unpacked, 'java-proxy-agent'), { recursive: true });
    writeFileSync(join(unpacked, 'seccomp', 'x64', 'apply-seccomp'), '');
    chmodSync(join(unpacked, 'seccomp', 'x64', 'apply-seccomp'), 0o755);
    writeFileSync(join(unpacked, 'java-proxy-agent', 'srt-proxy-agent.jar'), '');
    expect(vendoredPaths(join(resources, 'app.asar', lib), 'x64')).toEqual({
      seccomp: { applyPath: join(unpacked, 'seccomp', 'x64', 'apply-seccomp') },
      javaAgentJarPath: join(unpacked, 'java-proxy-agent', 'srt-proxy-agent.jar'),
    });
  });

  it('adds nothing in the development tree, where the library resolves vendor/ itself', () => {
    expect(sandboxRuntimeRoot()).toMatch(/node_modules[\\/]@anthropic-ai[\\/]sandbox-runtime$/);
    expect(vendoredPaths()).toEqual({});
  });
});
