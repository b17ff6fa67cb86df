// A realistic review diff for the diff benchmark (P20): git's own diff of a change to real files — this repository's
// TypeScript, TSX, CSS, JSON and Python — edited as an agent edits (lines rewritten, inserted, deleted), with a rename,
// an added, a deleted and a binary file, cut on file boundaries to about `lines` lines.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const KINDS = /\.(ts|tsx|css|json|py)$/;

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** An agent-like edit of a file: every 29th line rewritten, a line added after every 17th, every 23rd removed. */
function edit(text: string, path: string): string {
  const comment = path.endsWith('.py') ? '#' : path.endsWith('.css') ? null : '//';
  const out: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (i % 23 === 7 && line.trim() !== '') return;
    out.push(i % 29 === 11 ? line.replace(/([A-Za-z_]\w*)/, '$1Next') : line);
    if (i % 17 === 3 && !path.endsWith('.json')) {
      const indent = /^\s*/.exec(line)![0];
      out.push(comment ? `${indent}${comment} checked: line ${i} keeps its meaning` : `${indent}/* checked: line ${i} */`);
    }
  });
  return out.join('\n');
}

/** The whole change's diff, split into its files (each `diff --git …` to the next). */
function wholeDiff(): string[] {
  const files = git(ROOT, 'ls-files')
    .split('\n')
    .filter((f) => KINDS.test(f) && !/(gates\/corpus|classify-corpus)\//.test(f) && !f.endsWith('package-lock.json'));
  const repo = mkdtempSync(join(tmpdir(), 'ratchet-bench-diff-'));
  try {
    git(repo, 'init', '-q', '-b', 'main');
    for (const f of files) {
      mkdirSync(dirname(join(repo, f)), { recursive: true });
      writeFileSync(join(repo, f), readFileSync(join(ROOT, f)));
    }
    writeFileSync(join(repo, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]));
    git(repo, 'add', '-A');
    git(repo, '-c', 'user.name=b', '-c', 'user.email=b@x', 'commit', '-qm', 'base');
    files.forEach((f, k) => {
      const p = join(repo, f);
      if (k === 5) rmSync(p);
      else if (k === 9) git(repo, 'mv', f, f.replace(/(\.\w+)$/, '-renamed$1'));
      else writeFileSync(p, edit(readFileSync(p, 'utf8'), f));
    });
    writeFileSync(join(repo, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 9, 8, 7, 6, 0]));
    writeFileSync(join(repo, 'added-module.ts'), Array.from({ length: 40 }, (_, i) => `export const value${i} = ${i};`).join('\n') + '\n');
    git(repo, 'add', '-A');
    const chunks = git(repo, 'diff', '--cached', '-M', 'HEAD')
      .split(/^(?=diff --git )/m)
      .filter((s) => s.startsWith('diff --git '));
    // The files git shows specially first, then the languages taken in turn, so even 100 lines mix them.
    const special = chunks.filter((c) => /^(Binary files|rename from|deleted file|new file)/m.test(c));
    const byKind = new Map<string, string[]>();
    for (const c of chunks.filter((c) => !special.includes(c))) {
      const kind = /^diff --git \S+\.(\w+) /.exec(c)?.[1] ?? '';
      byKind.set(kind, [...(byKind.get(kind) ?? []), c]);
    }
    const queues = [...byKind.values()];
    const mixed: string[] = [];
    for (let i = 0; mixed.length < chunks.length - special.length; i++) for (const q of queues) if (q[i]) mixed.push(q[i]!);
    return [...special, ...mixed];
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
}

let cache: string[] | null = null;

/** About `lines` lines of the change (whole files, never more than `lines`), as `git diff` prints them. */
export function realisticDiff(lines: number): string {
  cache ??= wholeDiff();
  let total = 0;
  let out = '';
  for (const chunk of cache) {
    const n = chunk.split('\n').length - 1;
    if (total + n > lines) continue;
    total += n;
    out += chunk;
    if (total > lines * 0.98) break;
  }
  return out;
}
