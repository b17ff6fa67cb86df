// The engine's modules import each other without a cycle (engine.ts and run-recovery.ts once did), and so do shared/'s, type imports included.
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = __dirname;
const SHARED = join(__dirname, '..', '..', 'shared');

function modules(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return modules(p);
    return p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)[^'"]*?from '(\.[^']+)'/gm)].map((m) => resolve(dirname(file), `${m[1]}.ts`)).filter((p) => existsSync(p));
}

/** One import cycle among the files, as a list of paths (the first repeated at the end), or null. */
function findCycle(files: string[]): string[] | null {
  const graph = new Map(files.map((f) => [f, importsOf(f)]));
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (f: string): string[] | null => {
    if (state.get(f) === 'done') return null;
    if (state.get(f) === 'open') return [...path.slice(path.indexOf(f)), f];
    state.set(f, 'open');
    path.push(f);
    for (const g of graph.get(f) ?? []) {
      const c = visit(g);
      if (c) return c;
    }
    path.pop();
    state.set(f, 'done');
    return null;
  };
  for (const f of files) {
    const c = visit(f);
    if (c) return c;
  }
  return null;
}

describe("the engine's imports", () => {
  it('form no cycle', () => {
    const cycle = findCycle(modules(ROOT));
    expect(cycle?.map((p) => relative(ROOT, p)) ?? null).toBeNull();
  });

  it("shared/'s modules form no cycle either (domain.ts and worktree-env.ts once did, held by two z.lazy)", () => {
    const cycle = findCycle(modules(SHARED));
    expect(cycle?.map((p) => relative(SHARED, p)) ?? null).toBeNull();
  });

  it('the check finds a cycle where there is one, type imports too', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cycle-'));
    writeFileSync(join(dir, 'a.ts'), "import { b } from './b';\nexport const a = b;\n");
    writeFileSync(join(dir, 'b.ts'), "import type { A } from './c';\nexport const b = 1 as unknown as A;\n");
    writeFileSync(join(dir, 'c.ts'), "export type { a as A } from './a';\n");
    expect(findCycle(modules(dir))?.map((p) => relative(dir, p))).toEqual(['a.ts', 'b.ts', 'c.ts', 'a.ts']);
  });
});
