// The one reader of worktree files: what it reads, what it refuses, and that nothing at a path can make it block.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWorktreeFile, readWorktreeFileSync, type FileRead } from './worktree-file';

let root: string;
let outside: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ratchet-wtfile-'));
  outside = mkdtempSync(join(tmpdir(), 'ratchet-wtfile-out-'));
  writeFileSync(join(outside, 'secret.txt'), 'SECRET');
  writeFileSync(join(root, 'a.txt'), 'hello');
  mkdirSync(join(root, 'sub'));
  writeFileSync(join(root, 'sub', 'b.txt'), 'below');
  symlinkSync('sub/b.txt', join(root, 'inside-link'));
  symlinkSync(join(outside, 'secret.txt'), join(root, 'outside-link'));
  symlinkSync(outside, join(root, 'outdir'));
  symlinkSync('/dev/zero', join(root, 'zero'));
  symlinkSync('/dev', join(root, 'devdir'));
  execFileSync('mkfifo', [join(root, 'fifo')]);
  writeFileSync(join(root, 'big.txt'), 'x'.repeat(1000));
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const kind = (r: FileRead) => (r.ok ? `ok:${r.bytes.toString('utf8')}` : r.kind);

describe('readWorktreeFile / readWorktreeFileSync', () => {
  const cases: Array<[string, string]> = [
    ['a.txt', 'ok:hello'],
    ['sub/b.txt', 'ok:below'],
    ['inside-link', 'ok:below'],
    ['outside-link', 'outside'],
    ['outdir/secret.txt', 'outside'],
    // A name no other test makes next to the temp folder (a plain `../x` existed there once, made by another test).
    [`../ratchet-wtfile-none-${process.pid}`, 'absent'],
    ['zero', 'outside'],
    ['devdir/zero', 'outside'],
    ['fifo', 'not_regular'],
    ['sub', 'not_regular'],
    ['missing.txt', 'absent'],
  ];

  it('reads regular files inside the folder (links that stay inside followed); refuses links out, devices, FIFOs and folders, without blocking', async () => {
    for (const [p, want] of cases) {
      expect(`${p} ${kind(await readWorktreeFile(root, p))}`).toBe(`${p} ${want}`);
      expect(`${p} ${kind(readWorktreeFileSync(root, p))}`).toBe(`${p} ${want}`);
    }
  });

  it('a FIFO and a device inside the folder (as the root itself would see them) are refused as not regular, said so', async () => {
    const fifo = await readWorktreeFile(root, 'fifo');
    expect(fifo.ok ? '' : fifo.message).toMatch(/fifo is not a regular file \(a FIFO\)/);
    const dev = await readWorktreeFile('/dev', 'zero');
    expect(dev.ok ? '' : dev.message).toMatch(/a device/);
    expect(kind(readWorktreeFileSync('/dev', 'null'))).toBe('not_regular');
  });

  it('reads up to the cap and says the file was cut', async () => {
    const r = await readWorktreeFile(root, 'big.txt', { maxBytes: 10 });
    expect(r.ok && [r.bytes.length, r.size, r.truncated]).toEqual([10, 1000, true]);
    const s = readWorktreeFileSync(root, join(root, 'big.txt'), { maxBytes: 2000 });
    expect(s.ok && [s.bytes.length, s.truncated]).toEqual([1000, false]);
  });
});
