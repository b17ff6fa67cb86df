// The built out/ tree (npm run build) against electron-builder.yml's `files` and `asarUnpack`: what an installer would hold, without the Electron binary.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, matchesGlob, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = join(import.meta.dirname, '..');
const config = parse(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as { files: string[]; asarUnpack: string[] };
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { main: string; dependencies: Record<string, string> };

/** electron-builder's rule, simplified: a file is packed when a pattern names it and no `!` pattern takes it out. */
function packed(path: string, patterns: string[] = config.files): boolean {
  const take = patterns.filter((p) => !p.startsWith('!'));
  const drop = patterns.filter((p) => p.startsWith('!')).map((p) => p.slice(1));
  return take.some((p) => matchesGlob(path, p)) && !drop.some((p) => matchesGlob(path, p));
}

function walk(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

const main = readdirSync(join(ROOT, 'out/main')).filter((f) => f.endsWith('.js'));
const source = (f: string) => readFileSync(join(ROOT, 'out/main', f), 'utf8');
const demoChunks = main.filter((f) => f.startsWith('demo-'));

describe('the built out/ tree against electron-builder.yml', () => {
  it('packs the main entry, the preload and the renderer, and every out/ file but the demo', () => {
    expect(existsSync(join(ROOT, pkg.main))).toBe(true);
    for (const f of [pkg.main, 'out/preload/index.cjs', 'out/renderer/index.html', 'package.json', 'resources/pricing.json']) expect(packed(f), f).toBe(true);
    const left = walk('out').filter((f) => !packed(f));
    expect(left).toEqual(demoChunks.map((f) => join('out/main', f)));
  });

  it('keeps the demo out: its chunk (the scripted server) and its data are not packed, and nothing packed imports it statically', () => {
    expect(demoChunks).toHaveLength(1);
    expect(source(demoChunks[0]!)).toContain('demo-script.json');
    for (const f of main.filter((m) => !m.startsWith('demo-'))) {
      expect(source(f), f).not.toContain('demo-script.json');
      expect(source(f), f).not.toMatch(/from\s*["']\.\/demo-/);
    }
    for (const f of walk('resources').filter((p) => /demo/.test(p))) expect(packed(f), f).toBe(false);
    // In the development tree the chunk still finds its data (../../resources from out/main).
    expect(existsSync(join(ROOT, 'out/main', '../../resources/demo-script.json'))).toBe(true);
  });

  it('every chunk a packed file imports is packed too (only the demo is left out, and only behind a dynamic import)', () => {
    for (const f of main.filter((m) => packed(`out/main/${m}`))) {
      for (const [, target] of source(f).matchAll(/from\s*["']\.\/([^"']+)["']/g)) expect(packed(`out/main/${target}`), `${f} → ${target}`).toBe(true);
    }
  });

  it('every package the bundle imports is a production dependency that `files` does not drop', () => {
    const bare = new Set<string>();
    for (const f of main) {
      for (const [, spec] of source(f).matchAll(/(?:\bfrom\s*|\bimport\(\s*)["']((?:@[a-z0-9._-]+\/)?[a-z0-9][a-z0-9._-]*(?:\/[a-z0-9._/-]+)?|node:[a-z_/]+)["']/g)) {
        if (spec!.startsWith('node:') || spec === 'electron') continue;
        bare.add(spec!.startsWith('@') ? spec!.split('/').slice(0, 2).join('/') : spec!.split('/')[0]!);
      }
    }
    expect(bare.size).toBeGreaterThan(3);
    for (const name of bare) {
      expect(pkg.dependencies[name], `${name} is imported by out/main but is not in dependencies`).toBeTruthy();
      expect(packed(`node_modules/${name}/package.json`, ['**/*', ...config.files.filter((p) => p.startsWith('!'))]), name).toBe(true);
    }
  });

  it('unpacks better-sqlite3\'s native module for this platform from the asar', () => {
    const natives = walk('node_modules/better-sqlite3').filter((f) => f.endsWith('.node'));
    expect(natives.length).toBeGreaterThan(0);
    for (const f of natives) expect(config.asarUnpack.some((p) => matchesGlob(relative(ROOT, join(ROOT, f)), p)), f).toBe(true);
  });
});
