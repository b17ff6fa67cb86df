// Gates and setup get the user's environment, not Ratchet's: their PATH without `npm run`'s additions, their certificate variables (and files), their registries without their tokens.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sh, tempDir } from '../testing/temp-repo';
import { NO_SANDBOX_REASON, SANDBOX_AVAILABLE } from '../testing/sandbox-mode';
import { createOsSandbox, type OsSandbox } from './os-sandbox';
import { runJailed } from './testing/run-jailed';
import { ratchetPackageRoot } from './user-path';

const ROOT = ratchetPackageRoot() ?? process.cwd();
const SYSTEM_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
/** PATH as `npm run` builds it inside Ratchet's package: its .bin folders up to the root, npm's node-gyp-bin, then the user's. */
const NPM_RUN_PATH = [
  ...(() => {
    const bins: string[] = [];
    for (let d = ROOT; ; d = dirname(d)) {
      bins.push(join(d, 'node_modules', '.bin'));
      if (dirname(d) === d) return bins;
    }
  })(),
  '/usr/lib/node_modules/npm/node_modules/@npmcli/run-script/lib/node-gyp-bin',
  SYSTEM_PATH,
].join(':');

let userHome: string;
let ratchetHome: string;
let worktree: string;
let sandbox: OsSandbox;
let REGISTRY = '';
let registry: Server;
let other: Server;
let otherPort = 0;

function put(rel: string, content: string): string {
  const file = join(userHome, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

beforeAll(async () => {
  // The user's (fake) package registry, and another loopback service nothing names.
  registry = createServer((_req, res) => res.end('registry reached'));
  other = createServer((_req, res) => res.end('other reached'));
  await new Promise<void>((r) => registry.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
  REGISTRY = `http://127.0.0.1:${(registry.address() as AddressInfo).port}/`;
  otherPort = (other.address() as AddressInfo).port;
  userHome = realpathSync(tempDir('ratchet-env-home-'));
  ratchetHome = realpathSync(tempDir('ratchet-env-rhome-'));
  const repo = realpathSync(tempDir('ratchet-env-repo-'));
  sh(repo, 'init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'a.txt'), 'a\n');
  sh(repo, 'add', '-A');
  sh(repo, 'commit', '-qm', 'initial');
  worktree = join(ratchetHome, 'worktrees', `env-${process.pid}`);
  sh(repo, 'worktree', 'add', '-q', '-b', 'task', worktree);
  put('.npmrc', `registry=${REGISTRY}\n${REGISTRY.replace('http:', '')}:_authToken=npm-SECRET-token\nemail=me@example.test\n`);
  put(
    '.gitconfig',
    '[user]\n\tname = Dev Eloper\n\temail = dev@example.test\n[credential]\n\thelper = store\n[url "https://x:git-SECRET@example.test/"]\n\tinsteadOf = https://example.test/\n',
  );
  // A real certificate (the system's first), so tools that load the file accept it, behind a line to recognise it by.
  const system = readFileSync('/etc/ssl/certs/ca-certificates.crt', 'utf8');
  const first = system.slice(system.indexOf('-----BEGIN CERTIFICATE-----'), system.indexOf('-----END CERTIFICATE-----') + 26);
  const ca = put('certs/corp-ca.pem', `CORP CA\n${first}\n`);
  // The vitest process runs under npx: its npm_config_* variables name this machine's real npm configuration.
  const own = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_config_')));
  const env = {
    ...own,
    HOME: userHome,
    PATH: NPM_RUN_PATH,
    NODE_EXTRA_CA_CERTS: ca,
    SSL_CERT_FILE: ca,
    REQUESTS_CA_BUNDLE: ca,
    PIP_CERT: ca,
    // What `npm run` sets besides PATH: where it ran and which Node it used.
    npm_config_local_prefix: ROOT,
    npm_node_execpath: join(ROOT, 'node_modules', 'node', 'bin', 'node'),
  };
  sandbox = createOsSandbox({ mode: 'auto', ratchetHome, env, userHome });
});

afterAll(async () => {
  registry?.close();
  other?.close();
  await sandbox?.dispose();
  for (const d of [userHome, ratchetHome]) rmSync(d, { recursive: true, force: true });
});

async function gate(command: string, network: string[] = []): Promise<string> {
  const jail = await sandbox.forRun({ worktree, network, envNames: [] });
  try {
    return (await runJailed(jail, command, { cwd: worktree })).output;
  } finally {
    jail.release();
  }
}

describe.skipIf(!SANDBOX_AVAILABLE)(
  SANDBOX_AVAILABLE ? "the user's environment in the sandbox" : `the user's environment — skipped: ${NO_SANDBOX_REASON}`,
  () => {
    it("`node` and `vitest` are the user's (or missing), never Ratchet's node_modules/.bin or its Node package", async () => {
      // Control: with npm run's PATH, Ratchet's own tools come first.
      const control = execFileSync('/bin/sh', ['-c', 'command -v node; command -v vitest'], { env: { PATH: NPM_RUN_PATH }, encoding: 'utf8' });
      expect(control).toContain(join(ROOT, 'node_modules', '.bin'));
      const userNode = execFileSync('/bin/sh', ['-c', 'command -v node || true'], { env: { PATH: SYSTEM_PATH }, encoding: 'utf8' }).trim();
      const out = await gate('echo "node=$(command -v node)"; echo "vitest=$(command -v vitest)"; echo "PATH=$PATH"');
      expect(out).toContain(`node=${userNode}\n`);
      expect(out).toContain('vitest=\n');
      expect(out).not.toContain('node_modules');
    });

    it('certificate variables pass through, and the files they name are readable though they live in the home', async () => {
      const out = await gate(
        'for v in NODE_EXTRA_CA_CERTS SSL_CERT_FILE REQUESTS_CA_BUNDLE PIP_CERT; do eval "f=\\$$v"; echo "$v=$f"; done; cat "$NODE_EXTRA_CA_CERTS"',
      );
      expect(out).toContain(`NODE_EXTRA_CA_CERTS=${userHome}/certs/corp-ca.pem`);
      expect(out).toContain(`PIP_CERT=${userHome}/certs/corp-ca.pem`);
      expect(out).toContain('CORP CA');
    });

    it("npm in the sandbox uses the user's configured registry, and sees none of their tokens", async () => {
      const out = await gate('npm config get registry; cat ~/.npmrc; git config user.name; git config --list; echo done');
      expect(out.split('\n')[0]).toBe(REGISTRY);
      expect(out).toContain('Dev Eloper');
      expect(out).not.toMatch(/SECRET|_authToken|credential\.helper|insteadof/i);
      expect(out).toContain('done');
    });

    it("`registry:npm` in the network list lets a gate reach the registry the user's npm is configured with, and nothing else", async () => {
      const via = (url: string) => `curl -sS -m 5 --noproxy '' -x "$HTTP_PROXY" ${url} 2>&1; echo`;
      const out = await gate(`${via(REGISTRY)}; ${via(`http://127.0.0.1:${otherPort}/`)}`, ['registry:npm']);
      expect(out).toContain('registry reached');
      expect(out).not.toContain('other reached');
    });
  },
);
