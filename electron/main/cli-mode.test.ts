// The installed app's CLI mode: which arguments are the CLI's, what it refuses, and the shell launcher beside the app.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliArgs, refusedInInstalledApp } from './cli-mode';

describe('cliArgs', () => {
  it('takes everything after `--ratchet-cli --`, switches included', () => {
    expect(cliArgs(['/opt/Ratchet/ratchet-app', '--ratchet-cli', '--', 'run', '/repo', '--yes', '--json'])).toEqual(['run', '/repo', '--yes', '--json']);
    expect(cliArgs(['/opt/Ratchet/ratchet-app', '--ratchet-cli'])).toEqual([]);
  });
  it('is null for a normal start of the app (a folder to open is not a CLI command)', () => {
    expect(cliArgs(['/opt/Ratchet/ratchet-app', '/home/me/code/repo'])).toBeNull();
  });
});

describe('refusedInInstalledApp', () => {
  it('refuses the demo, with what to do instead', () => {
    expect(refusedInInstalledApp(['serve', '--demo'])).toMatch(/npm run demo/);
    expect(refusedInInstalledApp(['run', '/repo', '--yes'])).toBeNull();
  });
});

const sh = spawnSync('sh', ['-c', 'true']).status === 0;
describe.skipIf(!sh)('resources/bin/ratchet (needs sh)', () => {
  // A stand-in for the app's executable that prints the arguments it got, one per line.
  const fakeApp = (path: string) => {
    writeFileSync(path, '#!/bin/sh\nfor a in "$@"; do echo "$a"; done\n');
    chmodSync(path, 0o755);
  };
  const launcher = join(import.meta.dirname, '../../resources/bin/ratchet');

  it('Linux layout: /opt/Ratchet/resources/bin/ratchet, reached through a /usr/bin symlink, runs /opt/Ratchet/ratchet-app', () => {
    const root = mkdtempSync(join(tmpdir(), 'ratchet-launcher-'));
    mkdirSync(join(root, 'opt/resources/bin'), { recursive: true });
    cpSync(launcher, join(root, 'opt/resources/bin/ratchet'));
    fakeApp(join(root, 'opt/ratchet-app'));
    mkdirSync(join(root, 'usr/bin'), { recursive: true });
    symlinkSync(join(root, 'opt/resources/bin/ratchet'), join(root, 'usr/bin/ratchet'));
    const r = spawnSync(join(root, 'usr/bin/ratchet'), ['run', '/my repo', '--json'], { encoding: 'utf8' });
    expect(r.stdout.split('\n').filter(Boolean)).toEqual(['--ozone-platform=headless', '--ratchet-cli', '--', 'run', '/my repo', '--json']);
  });

  it('macOS layout: Ratchet.app/Contents/Resources/bin/ratchet runs Contents/MacOS/Ratchet', () => {
    const root = mkdtempSync(join(tmpdir(), 'ratchet-launcher-'));
    mkdirSync(join(root, 'Ratchet.app/Contents/Resources/bin'), { recursive: true });
    mkdirSync(join(root, 'Ratchet.app/Contents/MacOS'), { recursive: true });
    cpSync(launcher, join(root, 'Ratchet.app/Contents/Resources/bin/ratchet'));
    fakeApp(join(root, 'Ratchet.app/Contents/MacOS/Ratchet'));
    const r = spawnSync(join(root, 'Ratchet.app/Contents/Resources/bin/ratchet'), ['list'], { encoding: 'utf8' });
    expect(r.stdout.split('\n').filter(Boolean)).toEqual(['--ratchet-cli', '--', 'list']);
  });
});
