// The sanitized copies of the user's configuration: registries, indexes and certificates kept; tokens, passwords and credentials inside URLs dropped.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/temp-repo';
import { sanitizeGitconfig, sanitizeMavenSettings, sanitizeNpmrc, sanitizePipConf, sanitizeToml, sanitizeYarnrc, writeUserConfig } from './user-config';
import { isRatchetPathEntry, userPath } from './user-path';
import { installOf, toolchainEnv, withoutUserinfo } from './toolchains';

describe('sanitizeNpmrc', () => {
  const npmrc = [
    '; company registry',
    'registry=https://npm.example.test/repo/',
    '@corp:registry=https://ci:pw@npm.example.test/corp/',
    '//npm.example.test/repo/:_authToken=${NPM_TOKEN}',
    '//npm.example.test/:_auth=c2VjcmV0',
    '_authToken=tok',
    'email=me@example.test',
    'cafile=/home/me/certs/corp.pem',
    'strict-ssl=true',
    'legacy-peer-deps=true',
    'https-proxy=http://proxy.example.test:8080',
    'cache=/home/me/.npm-cache',
    'always-auth=true',
    'certfile=/home/me/client.crt',
    'keyfile=/home/me/client.key',
  ].join('\n');
  it('keeps registries (userinfo removed), certificates and behaviour settings; drops auth, proxies and paths Ratchet sets', () => {
    expect(sanitizeNpmrc(npmrc)).toBe(
      'registry=https://npm.example.test/repo/\n@corp:registry=https://npm.example.test/corp/\ncafile=/home/me/certs/corp.pem\nstrict-ssl=true\nlegacy-peer-deps=true\n',
    );
  });
});

describe('sanitizePipConf', () => {
  it('keeps sections, indexes (continuation lines too) and cert; drops client certificates, proxies and userinfo', () => {
    const conf =
      '[global]\nindex-url = https://user:s3cret@pypi.example.test/simple\nextra-index-url =\n    https://tok@extra.example.test/simple\n    https://plain.example.test/simple\ncert = /etc/corp.pem\nclient-cert = /home/me/client.pem\nproxy = http://p.example.test:3128\n\n[install]\ntrusted-host = pypi.example.test\n';
    const out = sanitizePipConf(conf);
    expect(out).toBe(
      '[global]\nindex-url = https://pypi.example.test/simple\nextra-index-url = \n    https://extra.example.test/simple\n    https://plain.example.test/simple\ncert = /etc/corp.pem\n[install]\ntrusted-host = pypi.example.test\n',
    );
  });
});

describe('sanitizeToml (cargo config.toml, uv.toml)', () => {
  it('keeps source replacement and registries; drops tokens, credential providers, proxies and secret [env] entries', () => {
    const cargo = [
      '[source.crates-io]',
      'replace-with = "corp"',
      '[source.corp]',
      'registry = "sparse+https://u:p@cargo.example.test/index/"',
      '[registries.corp]',
      'index = "sparse+https://cargo.example.test/index/"',
      'token = "cargo-SECRET"',
      'credential-provider = ["cargo:token"]',
      'inline = { index = "https://cargo.example.test/x", token = "inline-SECRET" }',
      '[registry]',
      'default = "corp"',
      'global-credential-providers = [',
      '  "cargo:token",',
      ']',
      'token = """',
      'multi-SECRET',
      '"""',
      '[http]',
      'cainfo = "/etc/corp.pem"',
      'proxy = "http://proxy.example.test:8080"',
      '[env]',
      'OPENSSL_DIR = "/opt/openssl"',
      'API_TOKEN = "env-SECRET"',
      '[net]',
      'git-fetch-with-cli = true',
      'registries.other.token = "dotted-SECRET"',
    ].join('\n');
    const out = sanitizeToml(cargo);
    expect(out).not.toMatch(/SECRET|credential|proxy|u:p@/);
    for (const kept of [
      'replace-with = "corp"',
      'registry = "sparse+https://cargo.example.test/index/"',
      'index = "sparse+https://cargo.example.test/index/"',
      'default = "corp"',
      'cainfo = "/etc/corp.pem"',
      'OPENSSL_DIR = "/opt/openssl"',
      'git-fetch-with-cli = true',
      'inline = { index = "https://cargo.example.test/x" }',
      '[net]',
    ]) {
      expect(out).toContain(kept);
    }
  });
  it("keeps uv's [[index]] tables with their URLs (userinfo removed)", () => {
    const out = sanitizeToml('[[index]]\nname = "corp"\nurl = "https://me:pw@pypi.example.test/simple"\ndefault = true\n');
    expect(out).toBe('[[index]]\nname = "corp"\nurl = "https://pypi.example.test/simple"\ndefault = true\n');
  });
});

describe('sanitizeYarnrc', () => {
  it('drops npmAuthToken, npmAuthIdent and proxies at any depth, keeps registries and certificate paths', () => {
    const out = sanitizeYarnrc(
      'npmRegistryServer: "https://npm.example.test"\nnpmAuthToken: yarn-SECRET\ncaFilePath: /etc/corp.pem\nhttpsProxy: http://p.example.test\nnpmScopes:\n  corp:\n    npmRegistryServer: "https://u:p@npm.example.test/corp"\n    npmAuthIdent: "u:scope-SECRET"\n    npmAlwaysAuth: true\n',
    );
    expect(out).not.toMatch(/SECRET|Proxy|u:p@|AlwaysAuth/);
    expect(out).toContain('npmRegistryServer: https://npm.example.test');
    expect(out).toContain('npmRegistryServer: https://npm.example.test/corp');
    expect(out).toContain('caFilePath: /etc/corp.pem');
  });
});

describe('sanitizeGitconfig', () => {
  it('keeps the identity only', () => {
    const out = sanitizeGitconfig(
      '[user]\n\tname = Dev Eloper\n\temail = dev@example.test\n\tsigningkey = ABC\n[credential]\n\thelper = store\n[url "https://x:tok@example.test/"]\n\tinsteadOf = https://example.test/\n[include]\n\tpath = ~/.gitconfig.local\n[alias]\n\tst = !sh -c evil\n',
    );
    expect(out).toBe('[user]\n\tname = Dev Eloper\n\temail = dev@example.test\n');
  });
});

describe('sanitizeMavenSettings', () => {
  it('keeps the mirrors, drops servers and proxies', () => {
    const out = sanitizeMavenSettings(
      '<settings><servers><server><id>corp</id><password>mvn-SECRET</password></server></servers><mirrors><mirror><id>corp</id><mirrorOf>*</mirrorOf><url>https://u:p@maven.example.test/all</url></mirror></mirrors><proxies><proxy><host>p</host></proxy></proxies></settings>',
    );
    expect(out).toContain('<url>https://maven.example.test/all</url>');
    expect(out).not.toMatch(/SECRET|server|proxy|u:p@/);
  });
});

describe('withoutUserinfo', () => {
  it('removes user:password@ from URLs of any scheme, and leaves e-mail addresses and plain text alone', () => {
    expect(withoutUserinfo('sparse+https://u:p@h.example.test/x git+ssh://git@h.example.test/r me@example.test')).toBe(
      'sparse+https://h.example.test/x git+ssh://h.example.test/r me@example.test',
    );
  });
});

describe('writeUserConfig', () => {
  it('writes the sanitized copies into the private HOME and the cargo home, replacing a `config` a command left there', () => {
    const userHome = tempDir('ratchet-uc-user-');
    const home = tempDir('ratchet-uc-home-');
    const cargoHome = tempDir('ratchet-uc-cargo-');
    const put = (rel: string, text: string) => {
      mkdirSync(dirname(join(userHome, rel)), { recursive: true });
      writeFileSync(join(userHome, rel), text);
    };
    put('.npmrc', 'registry=https://npm.example.test/\n//npm.example.test/:_authToken=SECRET\n');
    put('.config/pip/pip.conf', '[global]\nindex-url = https://u:SECRET@pypi.example.test/simple\n');
    put('.cargo/config.toml', '[registries.corp]\nindex = "https://cargo.example.test/index"\ntoken = "SECRET"\n');
    writeFileSync(join(cargoHome, 'config'), '[build]\nrustc-wrapper = "/tmp/planted"\n');
    try {
      const written = writeUserConfig({ userHome, home, cargoHome, env: {} });
      expect(written).toEqual([
        join(home, '.npmrc'),
        join(home, '.config', 'pip', 'pip.conf'),
        join(home, '.config', 'git', 'ignore'),
        join(home, '.gitconfig'),
        join(cargoHome, 'config.toml'),
      ]);
      for (const f of written) expect(readFileSync(f, 'utf8')).not.toContain('SECRET');
      expect(readFileSync(join(home, '.npmrc'), 'utf8')).toBe('registry=https://npm.example.test/\n');
      expect(() => readFileSync(join(cargoHome, 'config'))).toThrow();
    } finally {
      for (const d of [userHome, home, cargoHome]) rmSync(d, { recursive: true, force: true });
    }
  });
});

describe("the sandbox's git excludes", () => {
  it("hold the user's global excludes (core.excludesFile, ~ expanded) and the worktree paths the sandbox holds with placeholders", () => {
    const userHome = tempDir('ratchet-uc-user-');
    const home = tempDir('ratchet-uc-home-');
    try {
      writeFileSync(join(userHome, '.gitconfig'), '[user]\n\tname = Dev\n[core]\n\texcludesfile = ~/.my-ignore\n[credential]\n\thelper = store\n');
      writeFileSync(join(userHome, '.my-ignore'), '*.swp\n.DS_Store');
      writeUserConfig({ userHome, home, env: {} });
      const ignore = readFileSync(join(home, '.config', 'git', 'ignore'), 'utf8').split('\n');
      expect(ignore.slice(0, 2)).toEqual(['*.swp', '.DS_Store']);
      expect(ignore).toContain('/.bashrc');
      expect(ignore).toContain('/.claude/commands');
      expect(ignore).toContain('/.lfsconfig');
      const config = readFileSync(join(home, '.gitconfig'), 'utf8');
      expect(config).toContain('name = Dev');
      expect(config).toContain(`excludesFile = ${join(home, '.config', 'git', 'ignore')}`);
      expect(config).not.toContain('helper');
    } finally {
      for (const d of [userHome, home]) rmSync(d, { recursive: true, force: true });
    }
  });
});

describe('userPath', () => {
  const ctx = { ratchetRoot: '/home/me/tools/ratchet', execPath: '/home/me/tools/ratchet/node_modules/node/bin/node', env: {} };
  it("removes what `npm run` and `npx` put in front for Ratchet, keeps the user's entries in order", () => {
    const value = [
      '/home/me/tools/ratchet/node_modules/.bin',
      '/home/me/tools/node_modules/.bin',
      '/home/me/node_modules/.bin',
      '/home/node_modules/.bin',
      '/node_modules/.bin',
      '/usr/lib/node_modules/npm/node_modules/@npmcli/run-script/lib/node-gyp-bin',
      '/home/me/.npm/_npx/1a2b/node_modules/.bin',
      '/home/me/tools/ratchet/node_modules/node/bin',
      '/home/me/.nvm/versions/node/v20.1.0/bin',
      '/home/me/project/node_modules/.bin',
      'node_modules/.bin',
      '/usr/bin',
    ].join(':');
    expect(userPath(value, ctx)).toBe('/home/me/.nvm/versions/node/v20.1.0/bin:/home/me/project/node_modules/.bin:/usr/bin');
  });
  it("drops relative and empty entries: the launcher shell starts in the worktree, where they would be the agent's folders", () => {
    expect(userPath(['node_modules/.bin', './bin', '.', '', '/usr/bin', '..'].join(':'), ctx)).toBe('/usr/bin');
  });
  it('also removes the bins of the prefix npm ran Ratchet in (npx ratchet inside a project)', () => {
    expect(isRatchetPathEntry('/home/me/project/node_modules/.bin', { ...ctx, env: { npm_config_local_prefix: '/home/me/project' } })).toBe(true);
  });
});

describe('toolchainEnv', () => {
  it("passes the user's certificate and toolchain variables (URLs without credentials) and names the version managers' homes that exist", () => {
    const env = toolchainEnv(
      { SSL_CERT_FILE: '/etc/corp.pem', GOPROXY: 'https://u:tok@goproxy.example.test,direct', RUSTUP_TOOLCHAIN: '1.80', AWS_SECRET_ACCESS_KEY: 'x' },
      '/home/me',
      (p) => p === '/home/me/.rustup' || p === '/home/me/.pyenv',
    );
    expect(env).toEqual({
      SSL_CERT_FILE: '/etc/corp.pem',
      GOPROXY: 'https://goproxy.example.test,direct',
      RUSTUP_TOOLCHAIN: '1.80',
      RUSTUP_HOME: '/home/me/.rustup',
      PYENV_ROOT: '/home/me/.pyenv',
    });
  });
});

describe('installOf', () => {
  it('is the package of a node_modules entry point, the prefix of a bin folder, else the folder', () => {
    expect(installOf('/h/.npm-global/lib/node_modules/@anthropic-ai/claude-code/cli.js')).toBe('/h/.npm-global/lib/node_modules/@anthropic-ai/claude-code');
    expect(installOf('/h/.npm-global/lib/node_modules/tsx/dist/cli.mjs')).toBe('/h/.npm-global/lib/node_modules/tsx');
    expect(installOf('/h/.local/pipx/venvs/black/bin/black')).toBe('/h/.local/pipx/venvs/black');
    expect(installOf('/h/.local/share/claude/versions/1.0.0')).toBe('/h/.local/share/claude/versions');
  });
});
