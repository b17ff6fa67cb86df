// The built out/ tree (npm run build) against electron-builder.yml's `files` and `asarUnpack`: what an installer would hold, without the Electron binary.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, matchesGlob, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
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
  it('packs the main entry, the preload and the renderer, and every out/ file but the demo and the development CLI', () => {
    expect(existsSync(join(ROOT, pkg.main))).toBe(true);
    for (const f of [pkg.main, 'out/preload/index.cjs', 'out/renderer/index.html', 'package.json', 'resources/pricing.json']) expect(packed(f), f).toBe(true);
    // out/cli is bin/ratchet.mjs's build in the development tree; the installed app's CLI runs through out/main.
    const left = walk('out').filter((f) => !packed(f) && !f.startsWith(join('out', 'cli')));
    expect(left).toEqual(demoChunks.map((f) => join('out/main', f)));
    expect(walk('out').filter((f) => f.startsWith(join('out', 'cli')) && packed(f))).toEqual([]);
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
      for (const [, spec] of source(f).matchAll(
        /(?:\bfrom\s*|\bimport\(\s*)["']((?:@[a-z0-9._-]+\/)?[a-z0-9][a-z0-9._-]*(?:\/[a-z0-9._/-]+)?|node:[a-z_/]+)["']/g,
      )) {
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

  it("unpacks better-sqlite3's native module for this platform from the asar", () => {
    const natives = walk('node_modules/better-sqlite3').filter((f) => f.endsWith('.node'));
    expect(natives.length).toBeGreaterThan(0);
    for (const f of natives)
      expect(
        config.asarUnpack.some((p) => matchesGlob(relative(ROOT, join(ROOT, f)), p)),
        f,
      ).toBe(true);
  });
});

/**
 * electron-builder --dir for real, with a stand-in for the Electron binary it cannot download here: a shell script
 * carrying the fuse wire (@electron/fuses' sentinel, Electron's defaults) that prints the arguments it gets.
 */
describe.skipIf(process.platform !== 'linux')('electron-builder --dir with a stand-in Electron (Linux: the stand-in is a shell script)', () => {
  const require = createRequire(import.meta.url);
  const asar = require('@electron/asar') as { listPackage(file: string): string[]; createPackage(src: string, dest: string): Promise<void> };
  const fuses = require('@electron/fuses') as { getCurrentFuseWire(path: string): Promise<Record<string, unknown>>; FuseV1Options: Record<number, string> };
  const work = mkdtempSync(join(tmpdir(), 'ratchet-dist-'));
  const app = join(work, 'out', 'linux-unpacked');
  let log = '';

  beforeAll(async () => {
    const electron = join(work, 'electron');
    mkdirSync(join(electron, 'resources'), { recursive: true });
    // RunAsNode, NodeOptions, inspect and file-protocol privileges on, the rest off: what an unfused Electron has.
    writeFileSync(
      join(electron, 'electron'),
      '#!/bin/sh\nfor a in "$@"; do echo "$a"; done\nexit 0\n# dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX\x01\x0810110001\n',
      'latin1',
    );
    chmodSync(join(electron, 'electron'), 0o755);
    for (const f of ['LICENSE', 'LICENSES.chromium.html', 'chrome-sandbox']) writeFileSync(join(electron, f), '');
    writeFileSync(join(electron, 'version'), '45.4.1');
    mkdirSync(join(work, 'default-app'));
    writeFileSync(join(work, 'default-app', 'package.json'), '{}');
    await asar.createPackage(join(work, 'default-app'), join(electron, 'resources', 'default_app.asar'));
    const r = spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules/electron-builder/cli.js'), '--dir', '--linux', `-c.electronDist=${electron}`, `-c.directories.output=${join(work, 'out')}`],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: '1' } },
    );
    log = `${r.stdout}${r.stderr}`;
    expect(r.status, log).toBe(0);
    // electron-builder copies and packs the production dependencies: ~3 minutes on a loaded 2-core machine, beside other specs.
  }, 360_000);

  it('flips the fuses on the executable as electron-builder.yml says', async () => {
    const wire = await fuses.getCurrentFuseWire(join(app, 'ratchet-app'));
    const state = Object.fromEntries(
      Object.entries(wire)
        .filter(([k]) => k !== 'version')
        .map(([k, v]) => [fuses.FuseV1Options[Number(k)], String.fromCharCode(v as number)]),
    );
    expect(state).toMatchObject({
      RunAsNode: '0',
      EnableNodeOptionsEnvironmentVariable: '0',
      EnableNodeCliInspectArguments: '0',
      EnableCookieEncryption: '1',
      EnableEmbeddedAsarIntegrityValidation: '1',
      OnlyLoadAppFromAsar: '1',
    });
  });

  it('packs the app in app.asar without the demo, the development-only packages or the sources', () => {
    const files = asar.listPackage(join(app, 'resources', 'app.asar')).map((f) => f.replace(/^[\\/]/, ''));
    expect(files).toEqual(
      expect.arrayContaining(['package.json', 'out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html', 'resources/pricing.json']),
    );
    expect(files.filter((f) => /demo/.test(f) && !f.startsWith('node_modules/'))).toEqual([]);
    expect(files.filter((f) => /^(electron|renderer|shared|scripts|e2e|bench)\//.test(f))).toEqual([]);
    for (const dropped of ['node', 'tsx', 'esbuild', 'electron', 'vitest'])
      expect(
        files.filter((f) => f.startsWith(`node_modules/${dropped}/`)),
        dropped,
      ).toEqual([]);
    expect(files).toContain('node_modules/zod/package.json');
  });

  it('unpacks better-sqlite3 with its native module next to the archive', () => {
    expect(existsSync(join(app, 'resources', 'app.asar.unpacked', 'node_modules', 'better-sqlite3', 'prebuilds', `linux-${process.arch}.node`))).toBe(true);
  });

  it('keeps sandbox-runtime in the app with its vendor/ helpers unpacked, executable, where the sandbox can run them', () => {
    const files = asar.listPackage(join(app, 'resources', 'app.asar')).map((f) => f.replace(/^[\\/]/, ''));
    expect(files).toContain('node_modules/@anthropic-ai/sandbox-runtime/dist/index.js');
    const vendor = join(app, 'resources', 'app.asar.unpacked', 'node_modules', '@anthropic-ai', 'sandbox-runtime', 'vendor');
    const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
    expect(statSync(join(vendor, 'seccomp', arch, 'apply-seccomp')).mode & 0o111).not.toBe(0);
    expect(existsSync(join(vendor, 'java-proxy-agent', 'srt-proxy-agent.jar'))).toBe(true);
  });

  it("puts the `ratchet` launcher beside the app, and it runs the app's executable in CLI mode", () => {
    const r = spawnSync(join(app, 'resources', 'bin', 'ratchet'), ['list', '--json'], { encoding: 'utf8' });
    expect(r.stdout.split('\n').filter(Boolean)).toEqual(['--ozone-platform=headless', '--ratchet-cli', '--', 'list', '--json']);
  });
});
