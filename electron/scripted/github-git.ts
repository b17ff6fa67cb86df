// The scripted GitHub server's remote: a bare repository on disk, read and written with git as GitHub's own storage
// would be (branch heads, merges of a pull request, a commit's tree checked out for CI, a diff hunk for a line comment).
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const IDENTITY = {
  GIT_AUTHOR_NAME: 'GitHub',
  GIT_AUTHOR_EMAIL: 'noreply@github.com',
  GIT_COMMITTER_NAME: 'GitHub',
  GIT_COMMITTER_EMAIL: 'noreply@github.com',
};

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

export class BareRemote {
  constructor(readonly gitDir: string) {}

  run(args: string[], env: Record<string, string> = {}): Promise<GitResult> {
    return new Promise((resolve) => {
      execFile(
        'git',
        [`--git-dir=${this.gitDir}`, ...args],
        { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmpdir(), GIT_CONFIG_NOSYSTEM: '1', ...IDENTITY, ...env }, maxBuffer: 64 * 1024 * 1024 },
        (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
      );
    });
  }

  async ok(args: string[], env: Record<string, string> = {}): Promise<string> {
    const r = await this.run(args, env);
    if (r.code !== 0) throw new Error(`git ${args.join(' ')} failed (${r.code}): ${r.stderr.trim()}`);
    return r.stdout.trim();
  }

  /** Every branch and its head commit. */
  async branches(): Promise<Map<string, string>> {
    const out = await this.ok(['for-each-ref', '--format=%(refname:strip=2) %(objectname)', 'refs/heads']);
    const map = new Map<string, string>();
    for (const line of out.split('\n')) {
      const [name, sha] = line.split(' ');
      if (name && sha) map.set(name, sha);
    }
    return map;
  }

  /** The commit a name points at (a sha, a branch, heads/<branch>), or null. */
  async resolve(ref: string): Promise<string | null> {
    const name = ref.startsWith('heads/') ? `refs/${ref}` : ref;
    const r = await this.run(['rev-parse', '--verify', '--quiet', `${name}^{commit}`]);
    return r.code === 0 ? r.stdout.trim() : null;
  }

  async isAncestor(ancestor: string, of: string): Promise<boolean> {
    return (await this.run(['merge-base', '--is-ancestor', ancestor, of])).code === 0;
  }

  /** The tree that merging `head` into `base` makes, or null when they conflict. */
  async mergeTree(base: string, head: string): Promise<string | null> {
    const r = await this.run(['merge-tree', '--write-tree', base, head]);
    return r.code === 0 ? (r.stdout.split('\n')[0] ?? '').trim() : null;
  }

  /** Merges `head` into `branch` the way the method says; the branch's new head, or null when it cannot be done. */
  async merge(branch: string, head: string, method: 'merge' | 'squash' | 'rebase', title: string): Promise<string | null> {
    const base = await this.resolve(`heads/${branch}`);
    if (!base) return null;
    let next: string;
    if (method === 'rebase') {
      // Enough for the scripted forge: a head that already sits on the base goes on as it is.
      if (!(await this.isAncestor(base, head))) return null;
      next = head;
    } else {
      const tree = await this.mergeTree(base, head);
      if (!tree) return null;
      const parents = method === 'merge' ? ['-p', base, '-p', head] : ['-p', base];
      next = await this.ok(['commit-tree', tree, ...parents, '-m', title]);
    }
    await this.ok(['update-ref', `refs/heads/${branch}`, next, base]);
    return next;
  }

  /** A fresh folder holding the commit's files (no .git), for a CI job to run in. */
  async checkout(sha: string): Promise<string> {
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-scripted-ci-'));
    // The index sits beside the folder, not in it: the job sees the commit's files and nothing else.
    const env = { GIT_INDEX_FILE: `${dir}.index` };
    await this.ok([`--work-tree=${dir}`, 'read-tree', sha], env);
    await this.ok([`--work-tree=${dir}`, 'checkout-index', '-a', '-f'], env);
    return dir;
  }

  /** The files a pull request changes, as `git diff` counts them between the merge base and the head. */
  async changedFiles(base: string, head: string): Promise<number> {
    const out = await this.ok(['diff', '--name-only', `${base}...${head}`]);
    return out ? out.split('\n').length : 0;
  }

  /**
   * The diff hunk a line comment refers to, as GitHub gives it: from the hunk's header down to the commented line of
   * the new side. Null when the line is not in the pull request's diff (GitHub refuses such a comment).
   */
  async diffHunk(base: string, head: string, path: string, line: number): Promise<string | null> {
    const diff = await this.ok(['diff', '-U3', `${base}...${head}`, '--', path]);
    const lines = diff.split('\n');
    let hunkStart = -1;
    let newLine = 0;
    for (const [i, text] of lines.entries()) {
      const header = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
      if (header) {
        hunkStart = i;
        newLine = Number(header[1]);
        continue;
      }
      if (hunkStart < 0 || text.startsWith('-')) continue;
      if (text.startsWith('+') || text.startsWith(' ')) {
        if (newLine === line) return lines.slice(hunkStart, i + 1).join('\n');
        newLine++;
      }
    }
    return null;
  }
}
