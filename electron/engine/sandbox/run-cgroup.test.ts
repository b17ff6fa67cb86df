// Where a run's cgroup goes, read from /proc/self/cgroup and mountinfo as the kernel writes them (v2, v1, hybrid, none), and a real one made and removed where this machine allows.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/temp-repo';
import { cgroupPlace, joinCgroup, makeRunCgroup } from './run-cgroup';

function files(map: Record<string, string>): (f: string) => string {
  return (f) => {
    const v = map[f];
    if (v === undefined) throw Object.assign(new Error(`ENOENT: ${f}`), { code: 'ENOENT' });
    return v;
  };
}

const V2_MOUNTS = '30 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n';
const HYBRID_MOUNTS = [
  '31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755',
  '35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory',
  '39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids',
  '41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw',
].join('\n');

describe('cgroupPlace', () => {
  it('cgroup v2 with memory and pids: below this process’s own cgroup', () => {
    const read = files({
      '/proc/self/cgroup': '0::/user.slice/user-1000.slice/session-2.scope\n',
      '/proc/self/mountinfo': V2_MOUNTS,
      '/sys/fs/cgroup/user.slice/user-1000.slice/session-2.scope/cgroup.controllers': 'cpu io memory pids\n',
    });
    expect(cgroupPlace(read)).toEqual({ version: 2, dir: '/sys/fs/cgroup/user.slice/user-1000.slice/session-2.scope' });
  });

  it('a hybrid machine whose v2 hierarchy has no memory controller: the v1 memory and pids hierarchies', () => {
    const read = files({
      '/proc/self/cgroup': '8:pids:/\n4:memory:/process_api/abc\n1:cpu:/\n0::/\n',
      '/proc/self/mountinfo': HYBRID_MOUNTS,
      '/sys/fs/cgroup/unified/cgroup.controllers': 'hugetlb\n',
    });
    expect(cgroupPlace(read)).toEqual({ version: 1, memory: '/sys/fs/cgroup/memory/process_api/abc', pids: '/sys/fs/cgroup/pids/' });
  });

  it('a mount whose root is the cgroup itself (a container’s namespace) is not counted twice', () => {
    const read = files({
      '/proc/self/cgroup': '0::/docker/1234\n',
      '/proc/self/mountinfo': '30 23 0:26 /docker/1234 /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n',
      '/sys/fs/cgroup/cgroup.controllers': 'memory pids\n',
    });
    expect(cgroupPlace(read)).toEqual({ version: 2, dir: '/sys/fs/cgroup' });
  });

  it('none: no cgroup file (macOS), or no memory controller anywhere', () => {
    expect(cgroupPlace(files({}))).toBeNull();
    const read = files({ '/proc/self/cgroup': '0::/\n', '/proc/self/mountinfo': V2_MOUNTS, '/sys/fs/cgroup/cgroup.controllers': 'cpu pids\n' });
    expect(cgroupPlace(read)).toBeNull();
  });
});

describe('makeRunCgroup on a cgroup v2 layout (a folder standing in for cgroupfs)', () => {
  it('below a cgroup that hands memory and pids down: memory.max and pids.max written, the OOM count read from memory.events', () => {
    const dir = tempDir('ratchet-cgv2-');
    try {
      writeFileSync(path.join(dir, 'cgroup.subtree_control'), 'cpu memory pids\n');
      const cg = makeRunCgroup({ memoryBytes: 512 * 1024 * 1024, pids: 50 }, { version: 2, dir })!;
      const run = path.dirname(cg.procs[0]!);
      expect(path.dirname(run)).toBe(dir);
      expect(path.basename(run)).toMatch(new RegExp(`^ratchet-${process.pid}-\\d+$`));
      expect(readFileSync(path.join(run, 'memory.max'), 'utf8')).toBe(String(512 * 1024 * 1024));
      expect(readFileSync(path.join(run, 'pids.max'), 'utf8')).toBe('50');
      expect(cg.oomFile).toBe(path.join(run, 'memory.events'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('joinCgroup', () => {
  it('writes its own pid to each cgroup.procs, then execs the command with its arguments as they were', () => {
    const j = joinCgroup(
      { version: 1, procs: ["/c/mem/it's/cgroup.procs", '/c/pids/x/cgroup.procs'], oomFile: '', release() {} },
      { file: 'bwrap', args: ['--a', 'b c'] },
    );
    expect(j.file).toBe('/bin/sh');
    expect(j.args[1]).toContain(`echo $$ > '/c/mem/it'\\''s/cgroup.procs' && echo $$ > '/c/pids/x/cgroup.procs'`);
    expect(j.args[1]).toContain('exit 125');
    expect(j.args.slice(2)).toEqual(['bwrap', '--a', 'b c']);
  });
});

const place = process.platform === 'linux' ? cgroupPlace() : null;
const probe = place ? makeRunCgroup({ memoryBytes: 64 * 1024 * 1024, pids: 16 }, place) : null;
probe?.release();

describe.skipIf(!probe)(probe ? 'a run cgroup on this machine' : 'a run cgroup — skipped: no writable cgroup here', () => {
  it('is made with its limits, counts OOM kills, and is gone once released', async () => {
    const cg = makeRunCgroup({ memoryBytes: 64 * 1024 * 1024, pids: 16 })!;
    const dirs = cg.procs.map((p) => path.dirname(p));
    expect(dirs.every((d) => existsSync(d))).toBe(true);
    expect(existsSync(cg.oomFile)).toBe(true);
    cg.release();
    expect(dirs.some((d) => existsSync(d))).toBe(false);
  });
});
