// Dependencies reused from the checkout: a real copy (links kept as links, files never shared), and which setups a copy makes redundant.
import { lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/temp-repo';
import { copyTree } from './copy-tree';
import { onlyInstallsNodeModules } from './reuse-deps';

describe('copyTree', () => {
  it("copies files (never shares them), keeps relative links as links, and the folder's mode", async () => {
    const src = join(tempDir(), 'node_modules');
    mkdirSync(join(src, 'dep', 'lib'), { recursive: true });
    mkdirSync(join(src, '.bin'));
    for (let i = 0; i < 20; i++) writeFileSync(join(src, `pkg${i}.js`), `${i}\n`);
    writeFileSync(join(src, 'dep', 'lib', 'index.js'), 'x\n');
    symlinkSync('../dep/lib/index.js', join(src, '.bin', 'dep'));
    const dst = join(tempDir(), 'node_modules');
    await copyTree(src, dst);
    expect(readFileSync(join(dst, 'pkg19.js'), 'utf8')).toBe('19\n');
    expect(readlinkSync(join(dst, '.bin', 'dep'))).toBe('../dep/lib/index.js');
    expect(readFileSync(join(dst, '.bin', 'dep'), 'utf8')).toBe('x\n');
    expect(statSync(join(dst, 'dep', 'lib', 'index.js')).ino).not.toBe(statSync(join(src, 'dep', 'lib', 'index.js')).ino);
    expect(statSync(join(dst, 'dep', 'lib', 'index.js')).nlink).toBe(1);
    expect(lstatSync(dst).mode).toBe(lstatSync(src).mode);
  });
});

describe('onlyInstallsNodeModules', () => {
  it('is true for a setup that only installs from the lockfile, false when it does anything else', () => {
    expect(onlyInstallsNodeModules(['npm ci'])).toBe(true);
    expect(onlyInstallsNodeModules(['npm ci --no-audit --prefer-offline'])).toBe(true);
    expect(onlyInstallsNodeModules(['pnpm install --frozen-lockfile', 'yarn install --immutable'])).toBe(true);
    expect(onlyInstallsNodeModules(['bun install'])).toBe(true);
    expect(onlyInstallsNodeModules(['npm ci && npm run build'])).toBe(false);
    expect(onlyInstallsNodeModules(['npm install left-pad'])).toBe(false);
    expect(onlyInstallsNodeModules(['pip install -e .'])).toBe(false);
  });
});
