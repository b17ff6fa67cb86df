// Ratchet's own git runs no filter the worktree selects: the agent's .gitattributes names a driver (lfs, or any other
// configured one) and .lfsconfig points git-lfs at a host, yet commits, resets, status and a checkout of the run's
// branch run nothing (a marker file) and contact no URL (a local server that counts requests).
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, sh, tempDir } from '../testing/temp-repo';
import { commitAll, createWorktree, headCommit, isDirty, resetHard, restoreTree, snapshotTree, treeOf } from './repo-git';
import { landRun } from './run-merge';
import { recreateWorktree } from './run-refs';
import { pinWorktree } from './worktree-integrity';

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

describe("Ratchet's git and the worktree's filters", () => {
  it('a .gitattributes selecting lfs (with .lfsconfig) or any configured driver runs none of them on commit, reset, status or checkout', async () => {
    const hits: string[] = [];
    const server = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.statusCode = 404;
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/lfs`;
      const marker = join(realpathSync(tempDir('ratchet-filter-')), 'filter-ran');
      const repo = realpathSync(makeRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n' }));
      // Drivers the user configured (as `git lfs install` does), each leaving a mark and asking the URL if it ever runs.
      const driver = (name: string) => `echo ${name} >> ${q(marker)}; curl -s ${url} >/dev/null 2>&1; cat`;
      for (const name of ['lfs', 'pwn']) {
        sh(repo, 'config', `filter.${name}.clean`, driver(`${name}-clean`));
        sh(repo, 'config', `filter.${name}.smudge`, driver(`${name}-smudge`));
        sh(repo, 'config', `filter.${name}.required`, 'true');
      }
      sh(repo, 'config', 'filter.lfs.process', `sh -c ${q(`echo lfs-process >> ${q(marker)}; exit 1`)}`);
      const worktree = join(realpathSync(tempDir('ratchet-wt-')), 'wt');
      await createWorktree(repo, worktree, 'ratchet/run', sh(repo, 'rev-parse', 'HEAD'));
      const wt = pinWorktree(repo, worktree);
      // The agent's files (the edit tool or a command agent could write them).
      writeFileSync(join(worktree, '.gitattributes'), '*.txt filter=lfs\nb.txt filter=pwn\n');
      writeFileSync(join(worktree, '.lfsconfig'), `[lfs]\n\turl = ${url}\n`);
      writeFileSync(join(worktree, 'a.txt'), 'changed\n');
      await isDirty(wt);
      await snapshotTree(wt);
      const committed = await commitAll(wt, 'step 1');
      writeFileSync(join(worktree, 'b.txt'), 'changed too\n');
      await resetHard(wt, committed);
      await restoreTree(wt, await treeOf(wt, 'HEAD~1'));
      await resetHard(wt, await headCommit(wt));
      // The run's branch checked out again (resume after its worktree was lost).
      sh(repo, 'worktree', 'remove', '--force', worktree);
      await recreateWorktree(repo, worktree, 'ratchet/run');
      expect(existsSync(marker) ? readFileSync(marker, 'utf8') : '').toBe('');
      expect(hits).toEqual([]);
      // What was committed is the files' content, as written.
      expect(readFileSync(join(worktree, 'a.txt'), 'utf8')).toBe('changed\n');
    } finally {
      server.close();
    }
  });

  it("landing the run's branch in the user's checkout (ratchet merge) runs no filter its .gitattributes selects", async () => {
    const marker = join(realpathSync(tempDir('ratchet-filter-')), 'filter-ran');
    const repo = realpathSync(makeRepo({ 'a.txt': 'a\n' }));
    sh(repo, 'config', 'filter.lfs.smudge', `echo smudge >> ${q(marker)}; cat`);
    sh(repo, 'config', 'filter.lfs.process', `sh -c ${q(`echo lfs-process >> ${q(marker)}; exit 1`)}`);
    sh(repo, 'config', 'filter.lfs.required', 'true');
    const worktree = join(realpathSync(tempDir('ratchet-wt-')), 'wt');
    await createWorktree(repo, worktree, 'ratchet/run', sh(repo, 'rev-parse', 'HEAD'));
    const wt = pinWorktree(repo, worktree);
    writeFileSync(join(worktree, '.gitattributes'), '*.txt filter=lfs\n');
    writeFileSync(join(worktree, '.lfsconfig'), '[lfs]\n\turl = http://127.0.0.1:9/lfs\n');
    writeFileSync(join(worktree, 'a.txt'), 'changed\n');
    writeFileSync(join(worktree, 'b.txt'), 'new\n');
    await commitAll(wt, 'step 1');
    await landRun({ repo, branch: 'ratchet/run', base: 'main' }, 'ff-only');
    expect(existsSync(marker) ? readFileSync(marker, 'utf8') : '').toBe('');
    expect(readFileSync(join(repo, 'b.txt'), 'utf8')).toBe('new\n');
  });
});
