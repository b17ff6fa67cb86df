// Monorepo runners' output taken apart per package: the per-line prefixes of pnpm -r/--filter ("packages/prompts test: "),
// turbo ("pkg:test: ") and yarn workspaces foreach ("[pkg]: ", "➤ YN0000: [pkg]: "), and the per-package headers of npm
// workspaces ("> pkg@1.0.0 test") and nx ("> nx run pkg:test"). Pure string work, linear in the text.

/** Package names → folders from the repository root, or what reads them when first needed. */
export type WorkspaceFolders = ReadonlyMap<string, string> | (() => ReadonlyMap<string, string>);

/** One package's lines (in their order), or the lines no package claimed (`pkg` null). */
export interface WorkspacePart {
  /** What the runner names the package by: pnpm's folder, turbo's/yarn's/npm's/nx's package name. */
  pkg: string | null;
  /** The package's folder from the repository root when the output says it (pnpm) or `folders` maps the name. */
  dir: string | null;
  text: string;
}

// A prefix one line may carry. Each alternative is anchored and its classes are followed by a character they exclude
// (or a fixed ": "), so trying it costs at most the line's length.
/** yarn: "[pkg]: " with or without "➤ YN0000: " before it. */
const YARN = /^(?:➤ YN\d{4}: )?\[([@\w./-]{1,214})\]: /;
/** pnpm: "<folder> <script>: " (the folder relative to the workspace root, "." for the root package). */
const PNPM = /^([@\w./-]{1,214}) ([\w:.-]{1,100}): /;
/** turbo: "<pkg>:<script>: ". */
const TURBO = /^([@\w.-][@\w./-]{0,213}):([\w.-]{1,100}): /;
/** Any of the three prefixes, for a line-start test that lets one stand before what it looks for (parse-failures.ts). */
export const WORKSPACE_PREFIX = /^(?:(?:➤ YN\d{4}: )?\[[@\w./-]{1,214}\]: |[@\w.-][@\w./-]{0,213}:[\w.-]{1,100}: |[@\w./-]{1,214} [\w:.-]{1,100}: )/;
/** pnpm announces each package's script before its lines: "packages/prompts test$ vitest run". */
const PNPM_HEADER = /^([@\w./-]{1,214}) ([\w:.-]{1,100})\$ /;
/** turbo's first line for each package: "pkg:test: cache miss, executing 0123abcd". */
const TURBO_HEADER = /^([@\w.-][@\w./-]{0,213}):([\w.-]{1,100}): cache (?:miss|hit|bypass)/;
/** npm workspaces: "> @scope/pkg@1.0.0 test"; nx: "> nx run pkg:test". */
const NPM_HEADER = /^> ((?:@[\w.-]{1,100}\/)?[\w.-]{1,214})@[\w.+-]{1,100} [\w:.-]{1,100}(?: \S.*)?$/;
/** A line that only a workspace runner prints (a header or announcement, or yarn's prefix): the cheap first test. */
const ANY_WORKSPACE_LINE = /^(?:[@\w./-]{1,214} [\w:.-]{1,100}\$ |[@\w.-][@\w./-]{0,213}:[\w.-]{1,100}: cache |(?:➤ YN\d{4}: )?\[[@\w./-]{1,214}\]: |> )/m;
const NX_HEADER = /^> nx run ([@\w./-]{1,214}):[\w:.-]{1,100}/;

/**
 * The prefix a single line seems to carry and the line without it, without knowing the rest of the output (the gate
 * log's per-line failure test uses it: a false "prefix" there costs one kept line, nothing more). Null when none.
 */
export function linePrefix(line: string): { pkg: string; rest: string } | null {
  const m = prefixOf(line);
  return m ? { pkg: m.pkg, rest: line.slice(m.raw.length) } : null;
}

/** The prefix a line starts with, and whose form it is (only pnpm's names the package by its folder). */
function prefixOf(line: string): { raw: string; pkg: string; kind: 'yarn' | 'turbo' | 'pnpm' } | null {
  const y = YARN.exec(line);
  if (y) return { raw: y[0], pkg: y[1]!, kind: 'yarn' };
  const t = TURBO.exec(line);
  if (t) return { raw: t[0], pkg: t[1]!, kind: 'turbo' };
  const p = PNPM.exec(line);
  return p ? { raw: p[0], pkg: p[1]!, kind: 'pnpm' } : null;
}

/** The key a prefix is announced under: yarn's by package (its "➤ YN0000: " lead varies), the others as printed. */
function prefixKey(p: { raw: string; pkg: string; kind: string }): string {
  return p.kind === 'yarn' ? `[${p.pkg}]` : p.raw;
}

/**
 * The text split per package when a workspace runner printed it, else one part holding the whole text. A prefix counts
 * only when the output announced it (pnpm's "<folder> <script>$" header, turbo's "cache miss" line) or is yarn's
 * bracketed form on two lines or more, so an ordinary line such as "Caused by: Error" is never cut.
 */
export function splitWorkspaceOutput(text: string, folders?: WorkspaceFolders): WorkspacePart[] {
  // Most outputs are no monorepo's: one scan says so before any line is split off.
  if (!ANY_WORKSPACE_LINE.test(text)) return [{ pkg: null, dir: null, text }];
  const lines = text.split('\n');
  const announced = new Set<string>();
  const yarnCount = new Map<string, number>();
  let headers = 0;
  for (const line of lines) {
    const p = PNPM_HEADER.exec(line);
    if (p) announced.add(`${p[1]} ${p[2]}: `);
    const t = TURBO_HEADER.exec(line);
    if (t) announced.add(`${t[1]}:${t[2]}: `);
    const y = YARN.exec(line);
    if (y) yarnCount.set(`[${y[1]}]`, (yarnCount.get(`[${y[1]}]`) ?? 0) + 1);
    if (NPM_HEADER.test(line) || NX_HEADER.test(line)) headers++;
  }
  for (const [prefix, n] of yarnCount) if (n >= 2) announced.add(prefix);
  if (announced.size === 0 && headers === 0) return [{ pkg: null, dir: null, text }];

  const parts = new Map<string, { pkg: string | null; dir: string | null; lines: string[] }>();
  const part = (key: string, pkg: string | null, dir: string | null): string[] => {
    let p = parts.get(key);
    if (!p) parts.set(key, (p = { pkg, dir, lines: [] }));
    return p.lines;
  };
  // Read (once) only now that the output is a workspace runner's: most outputs never need the map.
  const map = typeof folders === 'function' ? folders() : folders;
  const mapped = (name: string): string | null => map?.get(name) ?? null;
  // Lines without a prefix belong to the package whose header came last (npm, nx), else to no package.
  let current: { key: string; pkg: string | null; dir: string | null } = { key: '', pkg: null, dir: null };
  for (const line of lines) {
    const m = prefixOf(line);
    if (m && announced.has(prefixKey(m))) {
      part(prefixKey(m), m.pkg, m.kind === 'pnpm' ? (m.pkg === '.' ? '' : m.pkg) : mapped(m.pkg)).push(line.slice(m.raw.length));
      continue;
    }
    const h = NPM_HEADER.exec(line) ?? NX_HEADER.exec(line);
    if (h) current = { key: `> ${h[1]}`, pkg: h[1]!, dir: mapped(h[1]!) };
    part(current.key, current.pkg, current.dir).push(line);
  }
  return [...parts.values()].map((p) => ({ pkg: p.pkg, dir: p.dir, text: p.lines.join('\n') }));
}

/** A location printed relative to a package, rewritten from the repository root ("test/a.ts" → "packages/x/test/a.ts"). */
export function fromRepositoryRoot(dir: string | null, file: string | null): string | null {
  if (file === null || dir === null || dir === '' || file.startsWith('/') || /^[A-Za-z]:[\\/]/.test(file)) return file;
  const rel = file.replace(/^\.\//, '');
  if (rel.startsWith(`${dir}/`)) return rel;
  return `${dir.replace(/\/+$/, '')}/${rel}`;
}
