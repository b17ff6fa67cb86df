// Finding programs: Ratchet's own are found through absolute PATH folders outside the checkout it started in.
import { chmodSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from '../testing/temp-repo';
import { hardenOwnPath, ownProgram, trustedPath } from './which';

const saved = { path: process.env.PATH, cwd: process.cwd() };
afterEach(() => {
  process.env.PATH = saved.path;
  process.chdir(saved.cwd);
});

function program(dir: string, name: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, '#!/bin/sh\nexit 0\n');
  chmodSync(file, 0o755);
  return file;
}

describe('trustedPath', () => {
  it('keeps absolute entries in order and drops relative and empty ones and those inside the given folders', () => {
    expect(trustedPath(['node_modules/.bin', '/usr/local/bin', '', '.', './bin', '/repo/node_modules/.bin', '/usr/bin'].join(':'), ['/repo'])).toBe(
      '/usr/local/bin:/usr/bin',
    );
    expect(trustedPath(undefined)).toBeUndefined();
  });
  it('hardenOwnPath leaves Ratchet a PATH without relative or empty entries (a system default when nothing is left)', () => {
    const env: NodeJS.ProcessEnv = { PATH: 'node_modules/.bin::/opt/x/bin:.' };
    hardenOwnPath(env);
    expect(env.PATH).toBe('/opt/x/bin');
    const none: NodeJS.ProcessEnv = { PATH: '.:bin' };
    hardenOwnPath(none);
    expect(none.PATH).toMatch(/^\/usr\/local\/sbin:/);
  });
});

describe('ownProgram', () => {
  it('never finds a program through a relative entry, nor in the checkout Ratchet was started in, even by an absolute entry', () => {
    const name = `ratchet-probe-${process.pid}-${Date.now()}`;
    const repo = realpathSync(makeRepo({ 'README.md': 'x\n' }));
    const elsewhere = realpathSync(tempDir('ratchet-bin-'));
    program(join(repo, 'node_modules', '.bin'), name);
    program(join(repo, 'bin'), name);
    const real = program(elsewhere, name);
    process.chdir(repo);
    process.env.PATH = ['node_modules/.bin', '', '.', join(repo, 'bin'), elsewhere].join(':');
    expect(ownProgram(name)).toBe(real);
    // Found once: a later change of PATH or folder does not swap it.
    process.env.PATH = join(repo, 'node_modules', '.bin');
    expect(ownProgram(name)).toBe(real);
  });
  it('answers the bare name when the program is nowhere, so starting it fails as not found', () => {
    expect(ownProgram('ratchet-no-such-program-anywhere')).toBe('ratchet-no-such-program-anywhere');
  });
});
