// registry:<ecosystem> resolves to the host the user's own tool is configured with, asked of the tool; fake registries only (127.0.0.1 and *.example.test).
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from '../testing/temp-repo';
import { cargoConfigIndexes, forgetRegistries, goHosts, hostOfUrl, mavenMirrors, pipConfigIndexes, readZipEntry, resolveNetwork } from './registries';

function has(cmd: string): boolean {
  try {
    execFileSync('/bin/sh', ['-c', cmd], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Go 1.21 and later switch to the toolchain a go.mod names (what a repository could make `go env` start); older Go cannot. */
function goSwitchesToolchains(): boolean {
  try {
    const [major = 0, minor = 0] = (/go(\d+)\.(\d+)/.exec(execFileSync('go', ['version'], { encoding: 'utf8' }))?.slice(1) ?? []).map(Number);
    return major > 1 || (major === 1 && minor >= 21);
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

// After `cd repo && ratchet run .`, Ratchet's working folder is the repository: a look-up must not read or run it.
describe('look-ups started from inside a repository', () => {
  let repo: string;
  let marker: string;
  const cwd = process.cwd();
  beforeEach(() => {
    marker = join(realpathSync(tempDir('ratchet-reg-marker-')), 'ran');
    const q = JSON.stringify(marker);
    repo = realpathSync(
      makeRepo({
        'package.json': '{ "name": "evil", "private": true }\n',
        '.npmrc': 'registry=https://npm.evil.example.test/\n',
        'pip.py': `open(${q}, "a").write("pip.py\\n")\nraise SystemExit(0)\n`,
        '.mvn/jvm.config': `-Xlog:gc*:file=${marker}-jvm\n`,
        'go.mod': 'module evil\n\ngo 1.99\n\ntoolchain go1.99.1\n',
        'go.work': 'go 1.99\n\ntoolchain go1.99.1\n\nuse .\n',
        '.python-version': 'evil-python\n',
      }),
    );
    process.chdir(repo);
    return () => process.chdir(cwd);
  });
  const ran = () => [marker, `${marker}-jvm`].filter(existsSync).map((f) => readFileSync(f, 'utf8').slice(0, 200));
  const envIn = (extra: NodeJS.ProcessEnv = {}) => env(extra);

  it.skipIf(!has('npm --version'))(
    "registry:npm is the user's registry, never the one the repository's .npmrc names",
    async () => {
      put('.npmrc', `registry=http://127.0.0.1:${port}/\n`);
      expect(await resolveNetwork(['registry:npm'], envIn())).toEqual([`127.0.0.1:${port}`]);
    },
    60_000,
  );

  it.skipIf(!has('npm --version'))(
    "the repository's own tools are never run, though its node_modules/.bin is on PATH (relative, or absolute as $PWD/node_modules/.bin)",
    async () => {
      const bin = join(repo, 'node_modules', '.bin');
      mkdirSync(bin, { recursive: true });
      for (const tool of ['npm', 'python3', 'python', 'go', 'mvn', 'cargo']) {
        writeFileSync(join(bin, tool), `#!/bin/sh\necho ${tool} >> '${marker}'\n`);
        chmodSync(join(bin, tool), 0o755);
      }
      put('.npmrc', `registry=http://127.0.0.1:${port}/\n`);
      const e = env({ PATH: `node_modules/.bin:${bin}:${process.env.PATH}` });
      expect(await resolveNetwork(['registry:npm'], e)).toEqual([`127.0.0.1:${port}`]);
      await resolveNetwork(['registry:pypi', 'registry:go', 'registry:maven'], e);
      expect(ran()).toEqual([]);
    },
    60_000,
  );

  it.skipIf(!has('python3 -m pip --version'))(
    "registry:pypi never imports the repository's pip.py (python3 -I, from an empty folder)",
    async () => {
      put('.config/pip/pip.conf', '[global]\nindex-url = https://pypi.example.test/simple\n');
      expect(await resolveNetwork(['registry:pypi'], envIn())).toEqual(['pypi.example.test']);
      expect(ran()).toEqual([]);
    },
    60_000,
  );

  it.skipIf(!has('mvn --version'))(
    "registry:maven reads the settings without running mvn, so the repository's .mvn/jvm.config never reaches a JVM",
    async () => {
      put(
        '.m2/settings.xml',
        '<settings><mirrors><mirror><id>corp</id><mirrorOf>*</mirrorOf><url>https://maven.example.test/all</url></mirror></mirrors></settings>',
      );
      expect(await resolveNetwork(['registry:maven'], envIn())).toEqual(['maven.example.test']);
      forgetRegistries();
      rmSync(join(home, '.m2'), { recursive: true });
      const central = await resolveNetwork(['registry:maven'], envIn());
      expect(central).toHaveLength(1);
      expect(central[0]).toMatch(HOSTNAME);
      expect(ran()).toEqual([]);
    },
    60_000,
  );

  it.skipIf(!goSwitchesToolchains())(
    `registry:go: \`go env\` sees no module, workspace or toolchain of the repository's (a go1.99.1 on PATH is never started)${goSwitchesToolchains() ? '' : ' — skipped: no Go 1.21 or later here (older Go never switches toolchains)'}`,
    async () => {
      // Go 1.21 and later switch to the toolchain go.mod names, looking for it on PATH first.
      const tools = realpathSync(tempDir('ratchet-go-bin-'));
      writeFileSync(join(tools, 'go1.99.1'), `#!/bin/sh\necho go1.99.1 >> '${marker}'\n`);
      chmodSync(join(tools, 'go1.99.1'), 0o755);
      const e = envIn({ PATH: `${tools}:${envIn().PATH}`, GOPROXY: 'https://goproxy.example.test', GOSUMDB: 'off', GOTOOLCHAIN: 'auto' });
      expect(await resolveNetwork(['registry:go'], e)).toEqual(['goproxy.example.test']);
      expect(ran()).toEqual([]);
    },
    60_000,
  );
});
