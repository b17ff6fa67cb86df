// Setup's inputs: the lockfiles and manifests found at any depth by default, the workflow's globs when it names them, and which of them changed.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/temp-repo';
import { changedInputs, hashInputs, inputMatcher } from './setup-inputs';

describe('setup inputs', () => {
  it('are, by default, the lockfiles and manifests of every ecosystem, at any depth', () => {
    const m = inputMatcher(undefined);
    const yes = [
      'package-lock.json',
      'packages/a/package.json',
      'requirements-dev.txt',
      'build.gradle.kts',
      'go.sum',
      'Cargo.lock',
      'uv.lock',
      'pnpm-lock.yaml',
      'bun.lockb',
      'pom.xml',
    ];
    const no = ['src/index.ts', 'package.json.bak', 'requirements.md', 'README.md'];
    expect(yes.filter(m)).toEqual(yes);
    expect(no.filter(m)).toEqual([]);
  });

  it("are the workflow's globs when it names them (exact paths and patterns)", () => {
    const m = inputMatcher(['scripts/setup.sh', 'deps/**/*.txt']);
    expect(['scripts/setup.sh', 'deps/a/b.txt', 'package.json', 'scripts/other.sh'].filter(m)).toEqual(['scripts/setup.sh', 'deps/a/b.txt']);
  });

  it('are hashed by content, so the inputs that changed (added, removed, edited) can be named', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'package.json'), '{}');
    writeFileSync(join(dir, 'package-lock.json'), '{"a":1}');
    const before = await hashInputs(dir, ['package.json', 'package-lock.json', 'src.ts'], undefined);
    expect(Object.keys(before)).toEqual(['package-lock.json', 'package.json']);
    writeFileSync(join(dir, 'package-lock.json'), '{"a":2}');
    writeFileSync(join(dir, 'go.mod'), 'module x\n');
    const after = await hashInputs(dir, ['package.json', 'package-lock.json', 'go.mod'], undefined);
    expect(changedInputs(before, after)).toEqual(['go.mod', 'package-lock.json']);
    expect(changedInputs(after, after)).toEqual([]);
  });
});

describe('setup inputs the agent or the repository planted', () => {
  it('a package.json linked to /dev/zero, a FIFO lockfile and a link out of the folder are left out at once, with memory bounded', async () => {
    const dir = tempDir();
    const outside = tempDir();
    writeFileSync(join(outside, 'package-lock.json'), '{"secret":1}');
    symlinkSync('/dev/zero', join(dir, 'package.json'));
    execFileSync('mkfifo', [join(dir, 'yarn.lock')]);
    symlinkSync(join(outside, 'package-lock.json'), join(dir, 'package-lock.json'));
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'go.mod'), 'module x\n');
    symlinkSync('sub/go.mod', join(dir, 'go.mod'));
    const rss = process.memoryUsage().rss;
    const started = performance.now();
    const hashes = await hashInputs(dir, ['package.json', 'yarn.lock', 'package-lock.json', 'go.mod', 'sub/go.mod'], undefined);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(process.memoryUsage().rss - rss).toBeLessThan(100 * 1024 * 1024);
    // A link that stays inside the folder is read as its target; none of the others is an input.
    expect(Object.keys(hashes)).toEqual(['go.mod', 'sub/go.mod']);
    expect(hashes['go.mod']).toBe(hashes['sub/go.mod']);
  }, 10_000);
});
