// electron-builder.yml, checked without packaging: electron-builder's own validation, the fuses, app identity, icons, the CLI launcher, and its `files`/`asarUnpack` globs against a freshly built out/ tree.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = join(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
// The glob matcher electron-builder itself matches `files` and `asarUnpack` with.
const { minimatch } = createRequire(require.resolve('app-builder-lib/package.json'))('minimatch') as {
  minimatch(path: string, glob: string, o?: { dot?: boolean }): boolean;
};
const config = parse(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as Record<string, unknown> & { files: string[]; asarUnpack: string[] };
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string>; devDependencies: Record<string, string> };

describe('electron-builder.yml', () => {
  it("passes electron-builder's own configuration check (its JSON schema and deprecations)", async () => {
    const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
      getConfig(dir: string, file: string | null, extra: null): Promise<Record<string, unknown>>;
      validateConfiguration(c: Record<string, unknown>, logger: unknown): Promise<void>;
    };
    const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
    const loaded = await getConfig(ROOT, join(ROOT, 'electron-builder.yml'), null);
    await expect(validateConfiguration(loaded, new DebugLogger(false))).resolves.toBeUndefined();
    // The check is real: a misspelt fuse is refused.
    await expect(validateConfiguration({ ...loaded, electronFuses: { runAsNodee: false } }, new DebugLogger(false))).rejects.toThrow(
      /Invalid configuration object/,
    );
  });

  it('sets the fuses: no RunAsNode, NODE_OPTIONS or --inspect; encrypted cookies; asar only, with integrity checked', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
  });

  it('names the app, packs it in asar with better-sqlite3 unpacked, and claims no file types', () => {
    expect(config).toMatchObject({ appId: 'dev.ratchet.app', productName: 'Ratchet', asar: true, fileAssociations: [] });
    expect(config.asarUnpack).toContain('**/node_modules/better-sqlite3/**');
  });

  it('has a 1024×1024 PNG icon for every target (electron-builder derives icns, ico and the Linux sizes from it)', () => {
    const png = readFileSync(join(ROOT, String(config.icon)));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1024, 1024]);
    for (const target of ['mac', 'win', 'linux'] as const) expect((config[target] as Record<string, unknown>).icon).toBeUndefined();
  });

  it('ships the `ratchet` launchers beside the app, and the deb links /usr/bin/ratchet to it', () => {
    expect(config.extraResources).toEqual([{ from: 'resources/bin', to: 'bin' }]);
    expect(statSync(join(ROOT, 'resources/bin/ratchet')).mode & 0o111).not.toBe(0);
    expect(readFileSync(join(ROOT, 'resources/bin/ratchet.cmd'), 'utf8')).toContain('--ratchet-cli --');
    const deb = config.deb as { afterInstall: string; afterRemove: string };
    expect(readFileSync(join(ROOT, deb.afterInstall), 'utf8')).toContain("ln -sf '/opt/${sanitizedProductName}/resources/bin/ratchet' '/usr/bin/ratchet'");
    // Still electron-builder's own steps (chrome-sandbox permissions), which a custom script replaces.
    expect(readFileSync(join(ROOT, deb.afterInstall), 'utf8')).toContain('chrome-sandbox');
    expect(readFileSync(join(ROOT, deb.afterRemove), 'utf8')).toContain("rm -f '/usr/bin/ratchet'");
    expect(config.linux).toMatchObject({ executableName: 'ratchet-app', maintainer: expect.any(String) });
  });

  it('is run by `npm run dist` and `npm run dist:dir`, with electron-builder a dev dependency', () => {
    expect(pkg.devDependencies['electron-builder']).toBeTruthy();
    expect(pkg.scripts.dist).toBe('electron-vite build && electron-builder');
    expect(pkg.scripts['dist:dir']).toBe('electron-vite build && electron-builder --dir');
  });
});

describe('the built out/ tree against the builder config', () => {
  // Built here into a temporary folder (electron-vite's own build with this repository's config), so the check
  // neither depends on nor disturbs an out/ tree another command is building.
  let outDir: string;
  let mainFiles: { name: string; text: string }[];
  beforeAll(async () => {
    outDir = mkdtempSync(join(tmpdir(), 'ratchet-out-'));
    const { build } = (await import('electron-vite')) as { build(c: Record<string, unknown>): Promise<void> };
    await build({ root: ROOT, build: { outDir }, logLevel: 'silent' });
    mainFiles = readdirSync(join(outDir, 'main'))
      .filter((f) => f.endsWith('.js'))
      .map((name) => ({ name, text: readFileSync(join(outDir, 'main', name), 'utf8') }));
  }, 180_000);
  afterAll(() => {
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  });

  const SANDBOX = 'node_modules/@anthropic-ai/sandbox-runtime';
  /** Every file of the sandbox library, as a path relative to the app folder (what `files` and `asarUnpack` match). */
  function sandboxFiles(): string[] {
    const walk = (dir: string): string[] =>
      readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? (e.name === 'node_modules' ? [] : walk(`${dir}/${e.name}`)) : [`${dir}/${e.name}`],
      );
    return walk(SANDBOX);
  }

  it('keeps sandbox-runtime out of the main bundle: it is imported from node_modules, where its vendor/ folder is', () => {
    const imports = mainFiles.flatMap((f) => [...f.text.matchAll(/\bfrom\s*"(@anthropic-ai\/sandbox-runtime[^"]*)"/g)].map((m) => m[1] ?? ''));
    expect(imports).toContain('@anthropic-ai/sandbox-runtime');
    // None of the library's own code was copied in (its seccomp lookup is one of its telltale strings).
    for (const f of mainFiles) expect(f.text).not.toContain('[SeccompFilter]');
  });

  it('packs every package the main bundle imports: each is a dependency (electron-builder copies those into the app)', () => {
    // A specifier has no white space: prose in the bundle ("… from \"" in a message) is not an import.
    const deps = Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies);
    const bare = new Set(
      mainFiles.flatMap((f) => [...f.text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)"([^"./\s][^"\s]*)"/g)].map((m) => m[1] ?? '')),
    );
    const packages = [...bare]
      .filter((s) => !s.startsWith('node:') && s !== 'electron' && !builtinModules.includes(s))
      .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]));
    expect(packages.length).toBeGreaterThan(0);
    for (const p of packages) expect(deps, `${p} is imported by out/main but is not a dependency`).toContain(p);
  });

  it('`files` keeps all of sandbox-runtime, and `asarUnpack` takes its vendor/ binaries out of the archive', () => {
    const files = sandboxFiles();
    const vendor = files.filter((f) => f.startsWith(`${SANDBOX}/vendor/`));
    expect(vendor).toContain(`${SANDBOX}/vendor/seccomp/x64/apply-seccomp`);
    expect(vendor).toContain(`${SANDBOX}/vendor/java-proxy-agent/srt-proxy-agent.jar`);
    const excludes = config.files.filter((g) => g.startsWith('!')).map((g) => g.slice(1));
    for (const f of files) for (const g of excludes) expect(minimatch(f, g, { dot: true }), `${f} is left out by !${g}`).toBe(false);
    for (const f of vendor)
      expect(
        config.asarUnpack.some((g) => minimatch(f, g, { dot: true })),
        `${f} stays inside app.asar`,
      ).toBe(true);
    // Only vendor/: the library's code loads from the archive like the rest of the app.
    expect(config.asarUnpack.some((g) => minimatch(`${SANDBOX}/dist/index.js`, g, { dot: true }))).toBe(false);
  });

  it('leaves the demo chunk out of the app and keeps the main entry in', () => {
    const outFiles = mainFiles.map((f) => `out/main/${f.name}`);
    const included = (p: string) =>
      config.files.reduce((inc, g) => (g.startsWith('!') ? (minimatch(p, g.slice(1)) ? false : inc) : minimatch(p, g) ? true : inc), false);
    expect(included('out/main/index.js')).toBe(true);
    const demo = outFiles.filter((f) => /\/demo-[^/]+\.js$/.test(f));
    expect(demo.length).toBeGreaterThan(0);
    for (const f of demo) expect(included(f)).toBe(false);
  });
});
