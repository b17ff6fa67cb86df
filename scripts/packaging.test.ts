// electron-builder.yml, checked without building: electron-builder's own validation, the fuses, app identity, icons, the CLI launcher and what `files` leaves out.
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = join(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const config = parse(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as Record<string, unknown> & { files: string[]; asarUnpack: string[] };
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string>; devDependencies: Record<string, string> };

describe('electron-builder.yml', () => {
  it('passes electron-builder\'s own configuration check (its JSON schema and deprecations)', async () => {
    const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
      getConfig(dir: string, file: string | null, extra: null): Promise<Record<string, unknown>>;
      validateConfiguration(c: Record<string, unknown>, logger: unknown): Promise<void>;
    };
    const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
    const loaded = await getConfig(ROOT, join(ROOT, 'electron-builder.yml'), null);
    await expect(validateConfiguration(loaded, new DebugLogger(false))).resolves.toBeUndefined();
    // The check is real: a misspelt fuse is refused.
    await expect(validateConfiguration({ ...loaded, electronFuses: { runAsNodee: false } }, new DebugLogger(false))).rejects.toThrow(/Invalid configuration object/);
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
