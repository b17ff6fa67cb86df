// `copy:` writes only inside the worktree: a folder link the repository commits never carries a copy out of it.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { copyFromCheckout } from './copy-files';

const made: string[] = [];
const dir = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  made.push(d);
  return d;
};
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('copyFromCheckout', () => {
  it('refuses a destination whose folder is a link out of the worktree (conf -> /tmp/outside): nothing is written outside, and it says why', () => {
    const checkout = dir('ratchet-checkout-');
    const worktree = dir('ratchet-wt-');
    const outside = dir('ratchet-outside-');
    mkdirSync(join(checkout, 'conf', 'sub'), { recursive: true });
    writeFileSync(join(checkout, 'conf', '.env'), 'SECRET=1\n');
    writeFileSync(join(checkout, 'conf', 'sub', 'x.json'), '{}\n');
    mkdirSync(join(checkout, 'gone'));
    writeFileSync(join(checkout, 'gone', '.env'), 'G=1\n');
    writeFileSync(join(checkout, 'top.env'), 'TOP=1\n');
    // What the repository commits in the worktree: a folder link out of it, and a dangling one.
    symlinkSync(outside, join(worktree, 'conf'));
    symlinkSync(join(outside, 'not-there'), join(worktree, 'gone'));
    const r = copyFromCheckout(checkout, worktree, ['conf/.env', 'conf/sub/x.json', 'gone/.env', 'top.env']);
    expect(readdirSync(outside)).toEqual([]);
    expect(r.copied).toEqual(['top.env']);
    expect(r.outside.map((o) => o.path)).toEqual(['conf/.env', 'conf/sub/x.json', 'gone/.env']);
    expect(r.outside[0]!.why).toMatch(/conf.*outside the worktree/);
    expect(readFileSync(join(worktree, 'top.env'), 'utf8')).toBe('TOP=1\n');
  });

  it('still copies into folders the worktree has, and makes missing ones inside it', () => {
    const checkout = dir('ratchet-checkout-');
    const worktree = dir('ratchet-wt-');
    mkdirSync(join(checkout, 'config', 'local'), { recursive: true });
    writeFileSync(join(checkout, 'config', 'local', 'a.json'), '{"a":1}\n');
    mkdirSync(join(worktree, 'real'));
    symlinkSync('real', join(worktree, 'config'));
    const r = copyFromCheckout(checkout, worktree, ['config/local/a.json']);
    expect(r.copied).toEqual(['config/local/a.json']);
    expect(existsSync(join(worktree, 'real', 'local', 'a.json'))).toBe(true);
  });
});
