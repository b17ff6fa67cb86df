// `registry:<ecosystem>` network entries: the hosts of the registry the user's own tool is configured with, asked of the tool (outside the sandbox, once per process, from an empty folder of its own) — never a host name written here.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, get as httpGet } from 'node:http';
import { get as httpsGet } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { ownPathOf, whichIn } from '../process/which';
import { REGISTRY_PRESETS, type RegistryPreset } from '../workflow/schema';

const TOOL_TIMEOUT_MS = 20_000;

/** `host` or `host:port` of a URL (`sparse+https://…` and `registry+…` prefixes allowed); null when it is none. */
export function hostOfUrl(url: string): string | null {
  try {
    const u = new URL(url.trim().replace(/^[a-z]+\+(?=[a-z]+:\/\/)/i, ''));
    if (!u.hostname) return null;
    const host = u.hostname.replace(/^\[|\]$/g, '');
    return u.port ? `${host}:${u.port}` : host;
  } catch {
    return null;
  }
}

/**
 * What a look-up passes on of the user's environment: where the tools keep their configuration and which toolchain
 * they pick (HOME, XDG, npm_config_…, PIP_…, GO…, CARGO_HOME, RUSTUP_…, PYENV_…, JAVA_HOME), never anything that makes a
 * tool load code (NODE_OPTIONS, PYTHONPATH, MAVEN_OPTS…). PATH keeps only absolute folders outside the start-up checkout.
 */
const LOOKUP_VARS =
  /^(HOME|USER|LOGNAME|LANG|LC_\w+|TZ|TMPDIR|XDG_CONFIG_HOME|npm_config_\w+|NPM_CONFIG_\w+|PIP_\w+|UV_\w+|PYENV_\w+|VIRTUAL_ENV|GO\w*|CARGO_HOME|RUSTUP_HOME|RUSTUP_TOOLCHAIN|JAVA_HOME)$/;

export function lookupEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && LOOKUP_VARS.test(k)) out[k] = v;
  out.PATH = ownPathOf(env.PATH);
  // Go: no flags, workspace or module of anyone's, and never a toolchain other than the one installed.
  out.GOFLAGS = '';
  out.GOWORK = 'off';
  out.GOTOOLCHAIN = 'local';
  return out;
}

/** The user's `tool`, by absolute path on the look-up's PATH, or null when it is not installed. */
function toolPath(tool: string, env: NodeJS.ProcessEnv): string | null {
  return whichIn(tool, { PATH: ownPathOf(env.PATH) }, '/');
}

/**
 * Runs the user's `tool` for a look-up: found by absolute path, with the look-up's environment, in a fresh empty
 * folder of its own (`cwd`, when given, is such a folder the caller made) — never in the folder Ratchet was started
 * in, which after `cd repo && ratchet run .` is the repository, whose `pip.py`, `.npmrc`, `go.mod` or `.mvn` the tool
 * would otherwise read or run. `extraEnv` is Ratchet's own additions. Null when the tool is missing or fails.
 */
function run(tool: string, args: string[], env: NodeJS.ProcessEnv, opts: { cwd?: string; extraEnv?: NodeJS.ProcessEnv } = {}): Promise<string | null> {
  const { cwd } = opts;
  const runEnv = { ...lookupEnv(env), ...opts.extraEnv };
  const file = toolPath(tool, runEnv);
  if (!file) return Promise.resolve(null);
  const dir = cwd ?? mkdtempSync(path.join(tmpdir(), 'ratchet-lookup-'));
  return new Promise<string | null>((resolve) => {
    execFile(file, args, { env: runEnv, cwd: dir, timeout: TOOL_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024, encoding: 'utf8' }, (err, stdout) =>
      resolve(err ? null : stdout),
    );
  }).finally(() => {
    if (!cwd) rmSync(dir, { recursive: true, force: true });
  });
}

function readIf(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function homeOf(env: NodeJS.ProcessEnv): string {
  return env.HOME ?? '';
}

/** npm: the effective `registry` (`npm config get`) and every `@scope:registry` the user set (`npm config list`). */
export async function npmRegistries(env: NodeJS.ProcessEnv): Promise<string[]> {
  const [registry, listing] = await Promise.all([run('npm', ['config', 'get', 'registry'], env), run('npm', ['config', 'list'], env)]);
  const scoped = [...(listing ?? '').matchAll(/^@[^:\s]+:registry\s*=\s*"([^"]+)"/gm)].map((m) => m[1]!);
  return [...(registry?.trim() ? [registry.trim()] : []), ...scoped];
}

/** The values of `*.index-url` / `*.extra-index-url` in `pip config list` output (one per line, values quoted). */
export function pipConfigIndexes(listing: string): string[] {
  const urls: string[] = [];
  for (const m of listing.matchAll(/^[\w-]+\.(?:extra-)?index-url\s*=\s*(['"]?)([\s\S]*?)\1\s*$/gm)) urls.push(...m[2]!.split(/\s+/).filter(Boolean));
  return urls;
}

/** Whether `pip config list` output names the main index (`index-url`) or turns indexes off (`no-index`). */
export function pipConfigReplacesDefault(listing: string): boolean {
  return /^[\w-]+\.index-url\s*=/m.test(listing) || /^[\w-]+\.no-index\s*=\s*(['"]?)(?:1|true|yes|on)\1\s*$/im.test(listing);
}

/**
 * pip (and uv): the configured indexes, and pip's own default index and file host unless the main index is replaced
 * (`index-url`, PIP_INDEX_URL, uv's default index) or indexes are off: extra indexes are asked beside the default one,
 * and a default index the sandbox refused cost every package five retries.
 */
export async function pypiRegistries(env: NodeJS.ProcessEnv): Promise<string[]> {
  // -I: isolated, so neither the folder it runs in nor PYTHON* variables add to what Python imports.
  const python = (await run('python3', ['-I', '-c', 'import sys; print(sys.executable)'], env)) !== null ? 'python3' : 'python';
  const listing = (await run(python, ['-I', '-m', 'pip', 'config', 'list'], env)) ?? '';
  const urls = [
    ...pipConfigIndexes(listing),
    ...[env.PIP_INDEX_URL, env.PIP_EXTRA_INDEX_URL, env.UV_INDEX_URL, env.UV_DEFAULT_INDEX, env.UV_EXTRA_INDEX_URL, env.UV_INDEX]
      .filter((v): v is string => !!v)
      .flatMap((v) => v.split(/\s+/)),
  ];
  const xdg = env.XDG_CONFIG_HOME || path.join(homeOf(env), '.config');
  const uv = readIf(path.join(xdg, 'uv', 'uv.toml'));
  if (uv) for (const m of uv.matchAll(/^\s*(?:index-url|extra-index-url|url)\s*=\s*["']([^"']+)["']/gm)) urls.push(m[1]!);
  const noIndex = /^(?:1|true|yes|on)$/i.test(env.PIP_NO_INDEX ?? '');
  const replaced =
    pipConfigReplacesDefault(listing) || noIndex || !!(env.PIP_INDEX_URL || env.UV_INDEX_URL || env.UV_DEFAULT_INDEX) || /^\s*index-url\s*=/m.test(uv ?? '');
  if (replaced) return urls;
  // pip's built-in PyPI: its index, and the host its files are served from.
  const defaults = await run(
    python,
    ['-I', '-c', 'from pip._internal.models.index import PyPI; print(PyPI.simple_url); print("https://" + PyPI.file_storage_domain)'],
    env,
  );
  return [...urls, ...(defaults ? defaults.split('\n').filter(Boolean) : [])];
}

/** The hosts of a GOPROXY list and a GOSUMDB setting (`direct`, `off` and a sum database's key left out). */
export function goHosts(goproxy: string, gosumdb: string): string[] {
  const proxies = goproxy
    .split(/[,|]/)
    .map((p) => p.trim())
    .filter((p) => p && p !== 'direct' && p !== 'off');
  const hosts = proxies.map((p) => hostOfUrl(/^[a-z]+:\/\//i.test(p) ? p : `https://${p}`));
  const sum = gosumdb.trim();
  if (sum && sum !== 'off') {
    const [name, url] = sum.split(/\s+/);
    hosts.push(url ? hostOfUrl(url) : hostOfUrl(`https://${(name ?? '').split('+')[0]}`));
  }
  return hosts.filter((h): h is string => h !== null);
}

/** Go: the module proxy and checksum database `go env` reports. */
export async function goRegistries(env: NodeJS.ProcessEnv): Promise<string[]> {
  const out = await run('go', ['env', 'GOPROXY', 'GOSUMDB'], env);
  if (!out) return [];
  const [goproxy = '', gosumdb = ''] = out.split('\n');
  return goHosts(goproxy, gosumdb).map((h) => `https://${h}`);
}

/** Cargo's config: where crates-io is replaced to (`[source.crates-io] replace-with`) and every named registry's index. */
export function cargoConfigIndexes(text: string): { replacement: string | null; indexes: string[] } {
  const tables = new Map<string, Map<string, string>>();
  let table = '';
  for (const line of text.split(/\r?\n/)) {
    const t = line.trim();
    const head = /^\[\s*([^\]]+?)\s*\]$/.exec(t);
    if (head) {
      table = head[1]!.replace(/["']/g, '');
      continue;
    }
    const kv = /^([A-Za-z0-9_.\-"']+)\s*=\s*["']([^"']*)["']/.exec(t);
    if (!kv) continue;
    const full = `${table ? `${table}.` : ''}${kv[1]!.replace(/["']/g, '')}`;
    const dot = full.lastIndexOf('.');
    const [tbl, key] = [full.slice(0, dot), full.slice(dot + 1)];
    if (!tables.has(tbl)) tables.set(tbl, new Map());
    tables.get(tbl)!.set(key, kv[2]!);
  }
  const indexes: string[] = [];
  for (const [name, kv] of tables) {
    if (name.startsWith('registries.') && kv.get('index')) indexes.push(kv.get('index')!);
  }
  const replaceWith = tables.get('source.crates-io')?.get('replace-with');
  const source = replaceWith ? tables.get(`source.${replaceWith}`) : undefined;
  const replacement = source?.get('registry') ?? (replaceWith ? tables.get(`registries.${replaceWith}`)?.get('index') : undefined) ?? null;
  return { replacement, indexes };
}

/** A sparse index's `dl` (where crate files come from), from its config.json; null when it cannot be fetched. */
function sparseDl(indexUrl: string): Promise<string | null> {
  if (!/^sparse\+/i.test(indexUrl)) return Promise.resolve(null);
  const base = indexUrl.replace(/^sparse\+/i, '').replace(/\/?$/, '/');
  return new Promise((resolve) => {
    const get = base.startsWith('https:') ? httpsGet : httpGet;
    const req = get(`${base}config.json`, { timeout: 5000 }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString('utf8')));
      res.on('end', () => {
        try {
          const dl = (JSON.parse(body) as { dl?: unknown }).dl;
          resolve(typeof dl === 'string' ? dl : null);
        } catch {
          resolve(null);
        }
      });
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
  });
}

/**
 * Where cargo goes for crates.io when nothing replaces it: asked of cargo itself, by letting it try to update its
 * index through a local proxy that only writes down the host cargo asks for and refuses it.
 */
async function cargoDefaultIndex(env: NodeJS.ProcessEnv): Promise<string | null> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers.host ?? '');
    res.statusCode = 403;
    res.end();
  });
  server.on('connect', (req, socket) => {
    seen.push(req.url ?? '');
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const proxy = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = mkdtempSync(path.join(tmpdir(), 'ratchet-cargo-probe-'));
  try {
    writeFileSync(
      path.join(dir, 'Cargo.toml'),
      '[package]\nname = "probe"\nversion = "0.0.0"\nedition = "2021"\n[lib]\npath = "lib.rs"\n[dependencies]\nitoa = "1"\n',
    );
    writeFileSync(path.join(dir, 'lib.rs'), '');
    const probeEnv = {
      CARGO_HOME: path.join(dir, 'cargo-home'),
      CARGO_HTTP_PROXY: proxy,
      HTTPS_PROXY: proxy,
      https_proxy: proxy,
      HTTP_PROXY: proxy,
      http_proxy: proxy,
      CARGO_NET_RETRY: '0',
      CARGO_HTTP_TIMEOUT: '10',
      CARGO_TARGET_DIR: path.join(dir, 'target'),
      // rustup's proxies find the toolchain by HOME unless told.
      RUSTUP_HOME: env.RUSTUP_HOME ?? path.join(homeOf(env), '.rustup'),
    };
    await run('cargo', ['generate-lockfile', '--manifest-path', path.join(dir, 'Cargo.toml')], env, { cwd: dir, extraEnv: probeEnv });
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const host = seen.find((h) => h !== '');
  return host ? `https://${host.replace(/:443$/, '')}` : null;
}

/** Cargo: the registry crates-io is replaced with (or crates.io as cargo reaches it), its download host, and named registries. */
export async function cargoRegistries(env: NodeJS.ProcessEnv): Promise<string[]> {
  const cargoHome = env.CARGO_HOME || path.join(homeOf(env), '.cargo');
  const text = ['config', 'config.toml'].map((f) => readIf(path.join(cargoHome, f)) ?? '').join('\n');
  const { replacement, indexes } = cargoConfigIndexes(text);
  const index = replacement ?? (await cargoDefaultIndex(env));
  if (!index) return indexes;
  // cargo reaches crates.io through its sparse index; a replacement is taken as written (sparse+… or a git index).
  const main = replacement ? index : `sparse+${index}/`;
  const dl = await sparseDl(main);
  return [main, ...(dl ? [dl] : []), ...indexes];
}

/** One file out of a zip archive (a jar), or null. Deflate and stored entries only, which is what jars use. */
export function readZipEntry(zip: Buffer, name: string): string | null {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) return null;
  let at = zip.readUInt32LE(eocd + 16);
  const count = zip.readUInt16LE(eocd + 10);
  for (let i = 0; i < count && zip.readUInt32LE(at) === 0x02014b50; i++) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLen = zip.readUInt16LE(at + 28);
    const extraLen = zip.readUInt16LE(at + 30);
    const commentLen = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    if (zip.toString('utf8', at + 46, at + 46 + nameLen) === name) {
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const data = zip.subarray(start, start + size);
      return (method === 8 ? inflateRawSync(data) : data).toString('utf8');
    }
    at += 46 + nameLen + extraLen + commentLen;
  }
  return null;
}

/** Maven settings: each mirror's URL and whether one stands in for central (`*` or `central` in mirrorOf). */
export function mavenMirrors(settings: string): { urls: string[]; coversCentral: boolean } {
  const urls: string[] = [];
  let coversCentral = false;
  for (const m of settings.replace(/<!--[\s\S]*?-->/g, '').matchAll(/<mirror>([\s\S]*?)<\/mirror>/g)) {
    const url = /<url>\s*([^<\s]+)\s*<\/url>/.exec(m[1]!)?.[1];
    const of = /<mirrorOf>\s*([^<]+?)\s*<\/mirrorOf>/.exec(m[1]!)?.[1] ?? '';
    // Maven's own settings block plain http with a mirror to 0.0.0.0: not a registry.
    if (url && !/<blocked>\s*true\s*<\/blocked>/.test(m[1]!)) urls.push(url);
    if (of.split(',').some((o) => o.trim() === '*' || o.trim() === 'central' || o.trim() === 'external:*')) coversCentral = true;
  }
  return { urls, coversCentral };
}

/**
 * Where Maven is installed, from where its `mvn` really is (`<home>/bin/mvn`, as the launcher finds its own home):
 * read, never run — the launcher reads `.mvn/jvm.config` and `.mvn/maven.config` from the project folder it finds
 * above the folder it starts in.
 */
export function mavenHomeOf(mvn: string | null): string | undefined {
  if (!mvn) return undefined;
  try {
    const home = path.dirname(path.dirname(realpathSync(mvn)));
    readdirSync(path.join(home, 'conf'));
    return home;
  } catch {
    return undefined;
  }
}

/** Maven: the mirrors of the user's (and Maven's own) settings, else central as Maven's super POM names it. */
export async function mavenRegistries(env: NodeJS.ProcessEnv): Promise<string[]> {
  const mavenHome = mavenHomeOf(toolPath('mvn', env));
  const settings = [path.join(homeOf(env), '.m2', 'settings.xml'), ...(mavenHome ? [path.join(mavenHome, 'conf', 'settings.xml')] : [])];
  const mirrors = settings.map((f) => mavenMirrors(readIf(f) ?? ''));
  const urls = mirrors.flatMap((m) => m.urls);
  if (mirrors.some((m) => m.coversCentral) || !mavenHome) return urls;
  // The super POM every project inherits names central; it ships inside maven-model-builder's jar.
  const lib = path.join(mavenHome, 'lib');
  let jars: string[] = [];
  try {
    jars = readdirSync(lib).filter((f) => /^maven-model-builder.*\.jar$/.test(f));
  } catch {
    // No lib folder: nothing more to read.
  }
  for (const jar of jars) {
    const pom = readZipEntry(readFileSync(path.join(lib, jar)), 'org/apache/maven/model/pom-4.0.0.xml');
    const central = pom ? /<repository>[\s\S]*?<url>\s*([^<\s]+)\s*<\/url>/.exec(pom)?.[1] : undefined;
    if (central) return [...urls, central];
  }
  return urls;
}

/**
 * What resolving each `registry:<ecosystem>` runs on the user's machine, outside the sandbox (the trust prompt shows
 * it); null where only configuration files are read.
 */
export const REGISTRY_LOOKUPS: Record<RegistryPreset, string | null> = {
  npm: '`npm config get registry` and `npm config list`',
  pypi: '`python3 -I -m pip config list`',
  go: '`go env GOPROXY GOSUMDB`',
  cargo: '`cargo generate-lockfile` on an empty project of its own, when your cargo configuration replaces nothing',
  maven: null,
};

const ASK: Record<RegistryPreset, (env: NodeJS.ProcessEnv) => Promise<string[]>> = {
  npm: npmRegistries,
  pypi: pypiRegistries,
  cargo: cargoRegistries,
  go: goRegistries,
  maven: mavenRegistries,
};

// Once per process (and per environment that could change the answer): tools are slow to ask.
const asked = new Map<string, Promise<string[]>>();

/** The hosts of `ecosystem`'s registry as the user's tool is configured (empty when the tool is not installed or says nothing). */
export function registryHosts(ecosystem: RegistryPreset, env: NodeJS.ProcessEnv): Promise<string[]> {
  const key = JSON.stringify([
    ecosystem,
    env.HOME,
    env.PATH,
    env.CARGO_HOME,
    env.XDG_CONFIG_HOME,
    env.GOPROXY,
    env.GOSUMDB,
    env.PIP_INDEX_URL,
    env.npm_config_userconfig,
  ]);
  let p = asked.get(key);
  if (!p) {
    p = ASK[ecosystem](env)
      .catch(() => [] as string[])
      .then((urls) => [...new Set(urls.map(hostOfUrl).filter((h): h is string => h !== null))]);
    asked.set(key, p);
  }
  return p;
}

/** Forgets what the tools said (for tests that change a tool's configuration). */
export function forgetRegistries(): void {
  asked.clear();
}

const PRESET = new RegExp(`^registry:(${REGISTRY_PRESETS.join('|')})$`);

/** Network entries with each `registry:<ecosystem>` replaced by the hosts the user's tool is configured with. */
export async function resolveNetwork(entries: readonly string[], env: NodeJS.ProcessEnv): Promise<string[]> {
  const out: string[] = [];
  for (const entry of entries) {
    const m = PRESET.exec(entry.trim());
    if (m) out.push(...(await registryHosts(m[1] as RegistryPreset, env)));
    else out.push(entry);
  }
  return [...new Set(out)];
}
