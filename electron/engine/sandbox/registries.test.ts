// registry:<ecosystem> resolves to the host the user's own tool is configured with, asked of the tool; fake registries only (127.0.0.1 and *.example.test).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/temp-repo';
import { cargoConfigIndexes, forgetRegistries, goHosts, hostOfUrl, mavenMirrors, pipConfigIndexes, readZipEntry, resolveNetwork } from './registries';

function has(cmd: string): boolean {
  try {
    execFileSync('/bin/sh', ['-c', cmd], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const HOSTNAME = /^[a-z0-9.-]+\.[a-z]{2,}(:\d+)?$/;
let home: string;
let server: Server;
let port: number;
const dlPort = 4999;

function put(rel: string, text: string): void {
  mkdirSync(dirname(join(home, rel)), { recursive: true });
  writeFileSync(join(home, rel), text);
}

/** The user's environment, with a fake home (PYENV_ROOT/RUSTUP_HOME kept so their shims still find the real toolchains). */
function env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home,
    PYENV_ROOT: process.env.PYENV_ROOT ?? join(homedir(), '.pyenv'),
    RUSTUP_HOME: process.env.RUSTUP_HOME ?? join(homedir(), '.rustup'),
    ...extra,
  };
}

beforeAll(async () => {
  // A sparse cargo index whose config.json says where crate files come from.
  server = createServer((req, res) => res.end(req.url === '/index/config.json' ? JSON.stringify({ dl: `http://127.0.0.1:${dlPort}/api/v1/crates` }) : 'no'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => server.close());
beforeEach(() => {
  home = tempDir('ratchet-reg-home-');
  forgetRegistries();
  return () => rmSync(home, { recursive: true, force: true });
});

describe('parsers', () => {
  it('hostOfUrl keeps a port, drops userinfo and cargo prefixes', () => {
    expect(hostOfUrl('sparse+https://u:p@cargo.example.test/index/')).toBe('cargo.example.test');
    expect(hostOfUrl('http://127.0.0.1:4873/')).toBe('127.0.0.1:4873');
    expect(hostOfUrl('not a url')).toBeNull();
  });
  it('pipConfigIndexes reads `pip config list`', () => {
    expect(
      pipConfigIndexes(
        "global.index-url='https://pypi.example.test/simple'\nglobal.extra-index-url='https://a.example.test/s\nhttps://b.example.test/s'\ninstall.trusted-host='x'\n",
      ),
    ).toEqual(['https://pypi.example.test/simple', 'https://a.example.test/s', 'https://b.example.test/s']);
  });
  it('goHosts: proxies (direct and off skipped) and the checksum database (its URL when given)', () => {
    expect(goHosts('https://goproxy.example.test,direct', 'off')).toEqual(['goproxy.example.test']);
    expect(goHosts('off', 'sum.example.test+abc https://sumproxy.example.test')).toEqual(['sumproxy.example.test']);
  });
  it('cargoConfigIndexes: the crates-io replacement and named registries', () => {
    expect(
      cargoConfigIndexes(
        '[source.crates-io]\nreplace-with = "corp"\n[source.corp]\nregistry = "sparse+https://cargo.example.test/i/"\n[registries.other]\nindex = "https://other.example.test/git"\n',
      ),
    ).toEqual({
      replacement: 'sparse+https://cargo.example.test/i/',
      indexes: ['https://other.example.test/git'],
    });
  });
  it('mavenMirrors: URLs, and whether one stands in for central', () => {
    expect(mavenMirrors('<mirrors><mirror><mirrorOf>*</mirrorOf><url>https://maven.example.test/all</url></mirror></mirrors>')).toEqual({
      urls: ['https://maven.example.test/all'],
      coversCentral: true,
    });
    expect(mavenMirrors('<mirror><mirrorOf>corp</mirrorOf><url>https://m.example.test</url></mirror>').coversCentral).toBe(false);
  });
  it('readZipEntry reads a deflated entry of a jar', () => {
    const dir = tempDir('ratchet-zip-');
    try {
      writeFileSync(join(dir, 'a.txt'), 'hello zip\n'.repeat(50));
      execFileSync('python3', [
        '-c',
        `import zipfile; z=zipfile.ZipFile('${dir}/x.jar','w',zipfile.ZIP_DEFLATED); z.write('${dir}/a.txt','p/a.txt'); z.close()`,
      ]);
      expect(readZipEntry(readFileSync(join(dir, 'x.jar')), 'p/a.txt')).toBe('hello zip\n'.repeat(50));
      expect(readZipEntry(readFileSync(join(dir, 'x.jar')), 'p/b.txt')).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('resolveNetwork', () => {
  it('keeps plain hosts and resolves each entry once', async () => {
    expect(await resolveNetwork(['git.example.test', '*.example.org', 'git.example.test'], env())).toEqual(['git.example.test', '*.example.org']);
  });

  it.skipIf(!has('npm --version'))(
    "registry:npm is npm's configured registry and scoped registries (`npm config list`)",
    async () => {
      put('.npmrc', `registry=http://127.0.0.1:${port}/\n@corp:registry=https://tok:x@npm.example.test:8443/corp/\n`);
      expect(await resolveNetwork(['registry:npm'], env())).toEqual([`127.0.0.1:${port}`, 'npm.example.test:8443']);
    },
    60_000,
  );

  it('asks the tool once per process, however many runs resolve the entry', async () => {
    // A stand-in npm that says where its registry is and counts how often it is asked.
    put('bin/npm', `#!/bin/sh\necho asked >> "${home}/asked"\n[ "$2" = get ] && echo http://127.0.0.1:${port}/\nexit 0\n`);
    execFileSync('chmod', ['+x', join(home, 'bin', 'npm')]);
    const e = env({ PATH: `${join(home, 'bin')}:/usr/bin:/bin` });
    for (let i = 0; i < 3; i++) expect(await resolveNetwork(['registry:npm'], e)).toEqual([`127.0.0.1:${port}`]);
    expect(readFileSync(join(home, 'asked'), 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it.skipIf(!has('python -m pip --version || python3 -m pip --version'))(
    "registry:pypi is pip's configured index and extra indexes",
    async () => {
      put('.config/pip/pip.conf', '[global]\nindex-url = https://u:p@pypi.example.test/simple\nextra-index-url = http://127.0.0.1:3141/root/dev\n');
      expect((await resolveNetwork(['registry:pypi'], env())).sort()).toEqual(['127.0.0.1:3141', 'pypi.example.test']);
    },
    60_000,
  );

  it.skipIf(!has('python -m pip --version || python3 -m pip --version'))(
    "registry:pypi with only extra indexes configured keeps pip's default index and file host, which pip still asks first (refused, it retried each package for minutes)",
    async () => {
      put('.config/pip/pip.conf', '[global]\nextra-index-url = http://127.0.0.1:3141/root/dev file:///opt/wheels/simple\n');
      const hosts = await resolveNetwork(['registry:pypi'], env());
      expect(hosts[0]).toBe('127.0.0.1:3141');
      expect(hosts).toHaveLength(3);
      for (const h of hosts.slice(1)) expect(h).toMatch(HOSTNAME);
      forgetRegistries();
      put('.config/pip/pip.conf', '[global]\nno-index = true\nextra-index-url = http://127.0.0.1:3141/root/dev\n');
      expect(await resolveNetwork(['registry:pypi'], env())).toEqual(['127.0.0.1:3141']);
    },
    60_000,
  );

  it.skipIf(!has('python -m pip --version || python3 -m pip --version'))(
    "registry:pypi with nothing configured is pip's own default index and file host",
    async () => {
      const hosts = await resolveNetwork(['registry:pypi'], env());
      expect(hosts).toHaveLength(2);
      for (const h of hosts) expect(h).toMatch(HOSTNAME);
    },
    60_000,
  );

  it.skipIf(!has('go version'))(
    'registry:go is what `go env` says of GOPROXY and GOSUMDB (the variables, or `go env -w`)',
    async () => {
      expect(await resolveNetwork(['registry:go'], env({ GOPROXY: `http://127.0.0.1:${port}/mod,direct`, GOSUMDB: 'off' }))).toEqual([`127.0.0.1:${port}`]);
      forgetRegistries();
      put('.config/go/env', 'GOPROXY=https://goproxy.example.test\nGOSUMDB=sum.example.test\n');
      expect(await resolveNetwork(['registry:go'], env())).toEqual(['goproxy.example.test', 'sum.example.test']);
    },
    60_000,
  );

  it('registry:cargo follows the crates-io replacement to its sparse index and the download host its config.json names', async () => {
    put(
      '.cargo/config.toml',
      `[source.crates-io]\nreplace-with = "mirror"\n[source.mirror]\nregistry = "sparse+http://127.0.0.1:${port}/index/"\n[registries.corp]\nindex = "https://cargo.example.test/git/index"\n`,
    );
    expect(await resolveNetwork(['registry:cargo'], env())).toEqual([`127.0.0.1:${port}`, `127.0.0.1:${dlPort}`, 'cargo.example.test']);
  }, 60_000);

  it.skipIf(!has('cargo --version'))(
    'registry:cargo with nothing configured is the index host cargo itself asks for',
    async () => {
      const hosts = await resolveNetwork(['registry:cargo'], env());
      expect(hosts.length).toBeGreaterThan(0);
      for (const h of hosts) expect(h).toMatch(HOSTNAME);
    },
    60_000,
  );

  it.skipIf(!has('mvn --version'))(
    "registry:maven is the user's mirror when it stands in for central, else central as Maven's super POM names it",
    async () => {
      put(
        '.m2/settings.xml',
        '<settings><mirrors><mirror><id>corp</id><mirrorOf>*</mirrorOf><url>https://maven.example.test/all</url></mirror></mirrors></settings>',
      );
      expect(await resolveNetwork(['registry:maven'], env())).toEqual(['maven.example.test']);
      forgetRegistries();
      rmSync(join(home, '.m2'), { recursive: true });
      const central = await resolveNetwork(['registry:maven'], env());
      expect(central).toHaveLength(1);
      expect(central[0]).toMatch(HOSTNAME);
    },
    60_000,
  );
});
