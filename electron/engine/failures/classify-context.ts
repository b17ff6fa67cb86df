// What the classifier is told beside a gate's output, to say whose a failure is (the environment's or the code's): the
// attempt's own diff, the project's manifests, what the base commit already failed on, the command's network list.
import { readWorktreeFileSync, textOf } from '../fs/worktree-file';

/**
 * What the base commit's own run (worktree-env's baseline check: setup and gates before any agent attempt) failed on.
 * `missing` holds what `missingNames` reads from that run's output; `failingTests` the parsed names (or
 * `testIdentity`s) of the tests that already failed.
 */
export interface BaselineFacts {
  failingTests?: readonly string[];
  missing?: readonly string[];
}

export interface ClassifyContext {
  /** The attempt's change as `git diff` prints it (the step's start against the attempt's tree): imports it adds are the agent's. */
  diff?: string | null;
  /** A manifest's content by its path relative to where the command ran, or null when there is none; asked lazily. */
  manifest?: ((relPath: string) => string | null) | null;
  baseline?: BaselineFacts | null;
  /** The network entries in force when the command ran sandboxed (`sandbox.network`, or `setup.network` in setup); null or absent: unknown. */
  network?: readonly string[] | null;
  /** Where the command ran: a setup command's allowlist is `setup.network`, a gate's `sandbox.network`. Default gate. */
  phase?: 'gate' | 'setup';
}

/** Ecosystems as `registry:<name>` network entries spell them. */
export type Ecosystem = 'npm' | 'pypi' | 'go' | 'cargo' | 'maven';

/** The files that declare an ecosystem's dependencies, most telling first. */
export const MANIFESTS: Record<Ecosystem, readonly string[]> = {
  npm: ['package.json'],
  pypi: [
    'pyproject.toml',
    'requirements.txt',
    'requirements-dev.txt',
    'requirements-test.txt',
    'dev-requirements.txt',
    'test-requirements.txt',
    'setup.cfg',
    'Pipfile',
  ],
  go: ['go.mod'],
  cargo: ['Cargo.toml'],
  maven: ['pom.xml', 'build.gradle', 'build.gradle.kts'],
};

/** How each ecosystem's dependencies are usually installed, for the setup line a hint proposes. */
export const INSTALL_COMMAND: Record<Ecosystem, string> = { npm: 'npm ci', pypi: '…', go: 'go mod download', cargo: 'cargo fetch', maven: '…' };

const MAX_MANIFEST_BYTES = 512 * 1024;

/** Reads manifests under `dir` on demand (each once), bounded; never throws. */
export function manifestReader(dir: string): (relPath: string) => string | null {
  const cache = new Map<string, string | null>();
  return (rel) => {
    if (cache.has(rel)) return cache.get(rel)!;
    // As every worktree file is read: a regular file of the worktree, never a link out of it, a FIFO or a device.
    const text = textOf(readWorktreeFileSync(dir, rel, { maxBytes: MAX_MANIFEST_BYTES }));
    cache.set(rel, text);
    return text;
  };
}

/** The first manifest of the ecosystem the project has, or null. */
export function presentManifest(eco: Ecosystem, read: ClassifyContext['manifest']): string | null {
  if (!read) return null;
  return MANIFESTS[eco].find((m) => read(m) !== null) ?? null;
}

/** Python distribution names compared as PEP 503 does: case, "-", "_" and "." do not matter. */
const pyNorm = (s: string): string => s.toLowerCase().replace(/[-_.]+/g, '_');

// Import names that differ from the distribution that provides them (the common ones).
const PY_IMPORT_TO_DIST: Record<string, string[]> = {
  yaml: ['pyyaml'],
  bs4: ['beautifulsoup4'],
  pil: ['pillow'],
  sklearn: ['scikit_learn'],
  cv2: ['opencv_python', 'opencv_python_headless'],
  dateutil: ['python_dateutil'],
  jwt: ['pyjwt'],
  dotenv: ['python_dotenv'],
  attr: ['attrs'],
  serial: ['pyserial'],
  crypto: ['pycryptodome', 'pycryptodomex'],
  magic: ['python_magic'],
  docx: ['python_docx'],
  git: ['gitpython'],
  openssl: ['pyopenssl'],
  google: ['protobuf'],
  jose: ['python_jose'],
  multipart: ['python_multipart'],
  zmq: ['pyzmq'],
  usb: ['pyusb'],
  psycopg2: ['psycopg2_binary'],
};

/** Names of the dependencies a Python manifest declares, normalised. */
function pythonDeclared(file: string, text: string): string[] {
  const names: string[] = [];
  if (/\.txt$/.test(file)) {
    for (const m of text.matchAll(/^[ \t]*([A-Za-z0-9][A-Za-z0-9._-]*)/gm)) names.push(m[1]!);
  } else {
    // pyproject/setup.cfg/Pipfile: quoted requirement strings ("stripe>=7", 'requests[socks]==2'), setup.cfg's and
    // Poetry's/Pipfile's `name = …` or `name >= 1` lines.
    for (const m of text.matchAll(/["']([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*(?:[<>=!~;@ ]|["'])/g)) names.push(m[1]!);
    for (const m of text.matchAll(/^[ \t]*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:=\s*["'{]|[<>=!~]=?\s*\d)/gm)) names.push(m[1]!);
  }
  return names.map(pyNorm);
}

function npmDeclared(text: string): string[] {
  try {
    const pkg = JSON.parse(text) as Record<string, unknown>;
    const keys: string[] = [];
    for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
      const deps = pkg[field];
      if (deps && typeof deps === 'object') keys.push(...Object.keys(deps));
    }
    return keys;
  } catch {
    return [];
  }
}

/** Modules a go.mod requires. */
function goRequired(text: string): string[] {
  const mods: string[] = [];
  for (const block of text.matchAll(/^require\s*\(([\s\S]*?)^\)/gm)) {
    for (const m of block[1]!.matchAll(/^[ \t]*(\S+)\s+v\S+/gm)) mods.push(m[1]!);
  }
  for (const m of text.matchAll(/^require\s+(\S+)\s+v\S+/gm)) mods.push(m[1]!);
  return mods;
}

/** The module path a go.mod declares, or null. */
export function goModulePath(read: ClassifyContext['manifest']): string | null {
  const text = read?.('go.mod');
  return text ? (/^module\s+(\S+)/m.exec(text)?.[1] ?? null) : null;
}

function cargoDeclared(text: string): string[] {
  const names: string[] = [];
  for (const section of text.matchAll(/^\[(?:target\.[^\]]+\.)?(?:dev-|build-)?dependencies\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/gm)) {
    for (const m of section[1]!.matchAll(/^[ \t]*([A-Za-z0-9_-]+)\s*=/gm)) names.push(m[1]!.replace(/-/g, '_'));
  }
  return names;
}

// The command a package installs when it is not the package's name.
const NPM_BIN_PACKAGE: Record<string, string> = {
  tsc: 'typescript',
  tsserver: 'typescript',
  'ts-node': 'ts-node',
  esbuild: 'esbuild',
  eslint: 'eslint',
  jest: 'jest',
  vitest: 'vitest',
  mocha: 'mocha',
  playwright: '@playwright/test',
  nyc: 'nyc',
  c8: 'c8',
};

/**
 * The manifest that declares `name` for the ecosystem (an npm package, a Python module's distribution, a Go package's
 * module, a crate), or null. For `command`, `name` is a program: a package whose command it is.
 */
export function declaredIn(eco: Ecosystem | 'command', name: string, read: ClassifyContext['manifest']): string | null {
  if (!read) return null;
  if (eco === 'command') {
    const npm = read('package.json');
    const pkg = NPM_BIN_PACKAGE[name] ?? name;
    if (npm && npmDeclared(npm).includes(pkg)) return 'package.json';
    return declaredIn('pypi', name, read);
  }
  for (const file of MANIFESTS[eco]) {
    const text = read(file);
    if (text === null) continue;
    if (eco === 'npm') {
      const pkg = name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : name.split('/')[0]!;
      if (npmDeclared(text).includes(pkg)) return file;
    } else if (eco === 'pypi') {
      const top = pyNorm(name.split('.')[0]!);
      const declared = pythonDeclared(file, text);
      if (declared.includes(top) || (PY_IMPORT_TO_DIST[top] ?? []).some((d) => declared.includes(d))) return file;
    } else if (eco === 'go') {
      if (goRequired(text).some((mod) => name === mod || name.startsWith(`${mod}/`))) return file;
    } else if (eco === 'cargo') {
      if (cargoDeclared(text).includes(name.replace(/-/g, '_'))) return file;
    }
  }
  return null;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** An import of `name` written in one source line of the ecosystem's language. */
function importsIn(eco: Ecosystem, name: string): RegExp {
  const n = escapeRegExp(name);
  switch (eco) {
    case 'npm':
      return new RegExp(`(?:\\brequire\\(\\s*|\\bfrom\\s+|\\bimport\\s*\\(?\\s*)['"\`]${n}(?:/[^'"\`]*)?['"\`]`);
    case 'pypi': {
      const top = escapeRegExp(name.split('.')[0]!);
      return new RegExp(`^\\s*(?:from\\s+${top}(?:\\.[\\w.]+)?\\s+import\\b|import\\s+(?:[\\w.]+\\s*(?:as\\s+\\w+\\s*)?,\\s*)*${top}(?:\\.[\\w.]+)?\\b)`);
    }
    case 'go':
      return new RegExp(`"${n}"`);
    default:
      return new RegExp(`\\b(?:use|extern crate)\\s+${escapeRegExp(name.replace(/-/g, '_'))}\\b`);
  }
}

/** The file where the attempt's diff adds an import of `name`, or null when its added lines import nothing of that name. */
export function addedImport(diff: string | null | undefined, eco: Ecosystem, name: string): string | null {
  if (!diff) return null;
  const re = importsIn(eco, name);
  let file: string | null = null;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++ ')) {
      file = line.slice(4).replace(/^b\//, '').trim();
      continue;
    }
    if (line.startsWith('+') && re.test(line.slice(1))) return file ?? '(the change)';
  }
  return null;
}

/** Whether a network entry (host, *.host, host:port) lets `hostPort` through. */
export function allowedBy(entries: readonly string[], hostPort: string): boolean {
  const [host, port] = hostPort.toLowerCase().split(/:(?=\d+$)/);
  return entries.some((raw) => {
    const e = raw.toLowerCase();
    if (e.startsWith('registry:')) return false; // resolved elsewhere: unknown here, so never counted as allowing
    const [eh, ep] = e.split(/:(?=\d+$)/);
    if (ep && port && ep !== port) return false;
    return eh!.startsWith('*.') ? host!.endsWith(eh!.slice(1)) : host === eh;
  });
}
