// The docs stay a front door plus a reference that holds together: README.md stays short, and every relative link or
// image in the README, CONTRIBUTING.md, STYLE.md and docs/ points at a file that exists (and a #anchor at a heading).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const README_LIMIT = 12 * 1024;

function markdownUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? markdownUnder(p) : e.name.endsWith('.md') ? [p] : [];
  });
}

const DOCS = [join(ROOT, 'README.md'), join(ROOT, 'CONTRIBUTING.md'), join(ROOT, 'STYLE.md'), ...markdownUnder(join(ROOT, 'docs'))];

/** The text outside fenced code blocks: a `# comment` in a code block is no heading. */
function outsideFences(md: string): string {
  return md.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** The text outside code blocks and inline code, where a `[x](y)` is prose, not a link. */
function proseOf(md: string): string {
  return outsideFences(md).replace(/`[^`\n]*`/g, '');
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function headingAnchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of outsideFences(md).split('\n')) {
    const m = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const text = (m[1] as string).replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Every link and image target in the prose: `[text](target)`, `![alt](target "title")`. */
export function linkTargets(md: string): string[] {
  const out: string[] = [];
  for (const m of proseOf(md).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push(m[1] as string);
  return out;
}

function problemsIn(file: string): string[] {
  const md = readFileSync(file, 'utf8');
  const problems: string[] = [];
  for (const target of linkTargets(md)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto: — not a file of this repository
    const [path, anchor] = target.split('#', 2) as [string, string | undefined];
    const to = path ? resolve(dirname(file), decodeURIComponent(path)) : file;
    const where = `${relative(ROOT, file)} → ${target}`;
    if (!existsSync(to)) {
      problems.push(`${where}: no such file`);
      continue;
    }
    if (anchor !== undefined) {
      if (!statSync(to).isFile() || !to.endsWith('.md')) problems.push(`${where}: an anchor needs a Markdown file`);
      else if (!headingAnchors(readFileSync(to, 'utf8')).has(anchor)) problems.push(`${where}: no heading with that anchor`);
    }
  }
  return problems;
}

describe('the docs', () => {
  it('README.md is a front door: under 12 KB', () => {
    expect(statSync(join(ROOT, 'README.md')).size).toBeLessThan(README_LIMIT);
  });

  it("the README's commands are the real ones: install, start, the test command CI runs, the demo", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const commands = [...readme.matchAll(/^```sh\n([\s\S]*?)^```/gm)].flatMap((m) => (m[1] as string).split('\n').map((l) => l.replace(/\s+#.*$/, '').trim()));
    for (const c of ['npm install', 'npm start', 'npm test', 'npm run demo']) expect(commands, c).toContain(c);
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    for (const s of ['start', 'test', 'demo']) expect(scripts[s], s).toBeTruthy();
    // .ci/run says it runs "the README's test command": it must run exactly that line.
    expect(readFileSync(join(ROOT, '.ci', 'run'), 'utf8').split('\n')).toContain('npm test');
  });

  it('CONTRIBUTING.md, STYLE.md and a docs/ reference exist beside it', () => {
    for (const f of ['CONTRIBUTING.md', 'STYLE.md']) expect(existsSync(join(ROOT, f)), f).toBe(true);
    expect(markdownUnder(join(ROOT, 'docs')).length).toBeGreaterThan(0);
  });

  it('every relative link and image in README.md, CONTRIBUTING.md, STYLE.md and docs/ resolves', () => {
    const present = DOCS.filter((f) => existsSync(f));
    expect(present.flatMap(problemsIn)).toEqual([]);
  });

  it('every repository path the docs name in code spans exists (a map of the code that names moved files is stale)', () => {
    const top = /^(?:electron|shared|renderer|e2e|bench|resources|scripts|bin|\.ci)\/[\w./-]*$/;
    const missing = DOCS.filter((f) => existsSync(f)).flatMap((file) =>
      [...outsideFences(readFileSync(file, 'utf8')).matchAll(/`([^`\s]+)`/g)]
        .map((m) => (m[1] as string).replace(/[/,:]+$/, ''))
        .filter((p) => top.test(p) && !/NNNN/.test(p) && !existsSync(join(ROOT, p)))
        .map((p) => `${relative(ROOT, file)}: ${p}`),
    );
    expect(missing).toEqual([]);
  });

  it('the link check itself catches a missing file, a missing anchor and ignores code', () => {
    expect(linkTargets('see [a](docs/x.md#y) and ![i](p.png "t") but not `[b](c.md)`\n```\n[d](e.md)\n```\n')).toEqual(['docs/x.md#y', 'p.png']);
    expect([...headingAnchors('# The store: stats and health\n## Run `ratchet serve`\n## Run `ratchet serve`\n')]).toEqual([
      'the-store-stats-and-health',
      'run-ratchet-serve',
      'run-ratchet-serve-1',
    ]);
  });
});
