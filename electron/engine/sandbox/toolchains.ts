// The user's toolchains inside the sandbox: which folders under their home builds need (read-only), and the variables that find them when HOME is the run's private folder.
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { isBelow } from '../fs/within';

/** Toolchain folders under the home, given back read-only when they exist (version managers, SDKs, user installs). */
export const TOOLCHAIN_HOME_PATHS = [
  '.rustup',
  '.cargo/bin',
  '.pyenv',
  '.nvm',
  '.fnm',
  '.local/share/fnm',
  '.volta',
  '.asdf',
  '.local/share/mise',
  '.local/bin',
  '.sdkman',
  'sdk',
  'go/bin',
  '.local/share/uv/python',
  '.local/share/uv/tools',
  '.bun/bin',
  '.deno/bin',
  '.jdks',
  '.local/share/pnpm',
  '.jenv',
  '.rbenv',
  '.goenv',
  '.nodenv',
  '.pixi/bin',
  '.local/share/coursier',
];

/** Certificate variables: passed through, and the files they name readable. */
export const CERT_VARS = [
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'REQUESTS_CA_BUNDLE',
  'CURL_CA_BUNDLE',
  'PIP_CERT',
  'GIT_SSL_CAINFO',
  'CARGO_HTTP_CAINFO',
  'AWS_CA_BUNDLE',
  'NIX_SSL_CERT_FILE',
];

/** Variables that choose or find a toolchain: passed through as the user has them. */
export const TOOLCHAIN_VARS = [
  'RUSTUP_TOOLCHAIN',
  'RUSTUP_HOME',
  'PYENV_VERSION',
  'PYENV_ROOT',
  'JAVA_HOME',
  'GOROOT',
  'GOFLAGS',
  'GOPROXY',
  'GOPRIVATE',
  'GONOPROXY',
  'GONOSUMDB',
  'GOSUMDB',
  'GOTOOLCHAIN',
  'NVM_DIR',
  'VOLTA_HOME',
  'ASDF_DIR',
  'ASDF_DATA_DIR',
  'MISE_DATA_DIR',
  'SDKMAN_DIR',
  'UV_PYTHON_INSTALL_DIR',
  'FNM_DIR',
  'PNPM_HOME',
  'BUN_INSTALL',
  'DENO_INSTALL_ROOT',
  'RBENV_ROOT',
  'GOENV_ROOT',
  'NODENV_ROOT',
  'JENV_ROOT',
  'COURSIER_CACHE',
  // corepack (pnpm, yarn through `packageManager`): its cache, and how the user has it fetch and check (no token).
  'COREPACK_HOME',
  'COREPACK_NPM_REGISTRY',
  'COREPACK_INTEGRITY_KEYS',
  'COREPACK_ENABLE_STRICT',
  'COREPACK_ENABLE_AUTO_PIN',
  'COREPACK_DEFAULT_TO_LATEST',
  'MISE_CONFIG_DIR',
  'MISE_CACHE_DIR',
  'MISE_STATE_DIR',
  'MISE_GLOBAL_CONFIG_FILE',
  'ASDF_CONFIG_FILE',
  'FNM_MULTISHELL_PATH',
  'FNM_NODE_DIST_MIRROR',
  'NVM_BIN',
];

/** Where a version manager keeps its toolchains by default (relative to the home), when its variable is unset. */
const DEFAULT_HOMES: Record<string, string> = {
  RUSTUP_HOME: '.rustup',
  PYENV_ROOT: '.pyenv',
  NVM_DIR: '.nvm',
  VOLTA_HOME: '.volta',
  ASDF_DATA_DIR: '.asdf',
  MISE_DATA_DIR: '.local/share/mise',
  SDKMAN_DIR: '.sdkman',
  UV_PYTHON_INSTALL_DIR: '.local/share/uv/python',
  FNM_DIR: '.local/share/fnm',
  RBENV_ROOT: '.rbenv',
  GOENV_ROOT: '.goenv',
  NODENV_ROOT: '.nodenv',
  JENV_ROOT: '.jenv',
  // mise's global versions (config.toml), the configs it was told to trust, and its cache.
  MISE_CONFIG_DIR: '.config/mise',
  MISE_STATE_DIR: '.local/state/mise',
  MISE_CACHE_DIR: '.cache/mise',
};

/**
 * Where corepack keeps the package managers it downloaded when COREPACK_HOME is unset: the user's cache folder
 * (`$XDG_CACHE_HOME`, else `~/.cache`; `~/Library/Caches` on macOS), `node/corepack`. Its shims find pnpm or yarn
 * there through HOME, which is the run's private folder inside the sandbox: without it set, pnpm is fetched again
 * (and a gate, which reaches no host, fails).
 */
export function corepackHome(env: NodeJS.ProcessEnv, userHome: string, platform: NodeJS.Platform = process.platform): string {
  const xdg = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : null;
  const cache = xdg ?? (platform === 'darwin' ? path.join(userHome, 'Library', 'Caches') : path.join(userHome, '.cache'));
  return path.join(cache, 'node', 'corepack');
}

/** A URL's user name and password, dropped (`https://u:token@host/x` → `https://host/x`); anything else unchanged. */
export function withoutUserinfo(value: string): string {
  return value.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@'"]*@/gi, '$1');
}

/**
 * The toolchain and certificate variables the sandbox gets: the user's own (URLs without their credentials), plus
 * each version manager's home set explicitly where it exists under the real home, since HOME inside is the run's
 * private folder and `rustup`, `pyenv` & co. would look for their toolchains there.
 */
export function toolchainEnv(env: NodeJS.ProcessEnv, userHome: string, exists: (p: string) => boolean = existsSync): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of [...CERT_VARS, ...TOOLCHAIN_VARS]) {
    const v = env[name];
    if (v !== undefined && v !== '') out[name] = withoutUserinfo(v);
  }
  for (const [name, rel] of Object.entries(DEFAULT_HOMES)) {
    const dir = path.join(userHome, rel);
    if (out[name] === undefined && exists(dir)) out[name] = dir;
  }
  const corepack = corepackHome(env, userHome);
  if (out.COREPACK_HOME === undefined && exists(corepack)) out.COREPACK_HOME = corepack;
  // Packages installed with `pip install --user` (found through HOME, which is not the user's inside).
  if (env.PYTHONUSERBASE) out.PYTHONUSERBASE = env.PYTHONUSERBASE;
  else if (exists(path.join(userHome, '.local', 'lib'))) out.PYTHONUSERBASE = path.join(userHome, '.local');
  return out;
}

function realOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** Python user site-packages folders (`~/.local/lib/pythonX.Y`), which builds may import from. */
function userSitePackages(userHome: string): string[] {
  const lib = path.join(userHome, '.local', 'lib');
  try {
    return readdirSync(lib)
      .filter((n) => /^python\d/.test(n))
      .map((n) => path.join(lib, n));
  } catch {
    return [];
  }
}

export interface HomeReadsInput {
  userHome: string;
  /** The PATH the sandbox gets (Ratchet's own entries already removed). */
  path: string;
  /** The variables toolchainEnv returned: their folders and certificate files are read. */
  toolchainEnv: Record<string, string>;
  /** The user's repository's git dir (its objects and refs), which git in the worktree reads. */
  gitCommonDir?: string | null;
}

/**
 * What builds need from the user's home, read-only: PATH entries under it, the toolchain folders, the folders the
 * toolchain variables name, the files the certificate variables name, and the repository's git dir. Existing paths
 * under the home only (with the folder a symlinked entry resolves to); runPolicy still hides credential stores in them.
 */
export function homeReads(input: HomeReadsInput): string[] {
  const home = path.resolve(input.userHome);
  const under = (p: string) => isBelow(home, p);
  const candidates = [
    ...input.path.split(path.delimiter).filter((p) => path.isAbsolute(p)),
    ...TOOLCHAIN_HOME_PATHS.map((p) => path.join(home, p)),
    // PYTHONUSERBASE is ~/.local: its site-packages come back below, not the whole of it.
    ...Object.entries(input.toolchainEnv)
      .filter(([k, v]) => k !== 'PYTHONUSERBASE' && path.isAbsolute(v))
      .map(([, v]) => v),
    ...userSitePackages(home),
    ...(input.gitCommonDir ? [input.gitCommonDir] : []),
  ];
  const out = new Set<string>();
  for (const c of candidates) {
    const p = path.resolve(c);
    if (!existsSync(p)) continue;
    if (under(p)) out.add(p);
    const real = realOr(p);
    if (real !== p && under(real)) out.add(real);
  }
  // Commands in a PATH folder under the home that link elsewhere in it (Claude Code's installer links ~/.local/bin/claude
  // into ~/.local/share/claude/versions, pipx into its venvs, npm -g into lib/node_modules): what they link to comes back.
  for (const dir of input.path.split(path.delimiter).filter((p) => path.isAbsolute(p) && under(path.resolve(p)))) {
    for (const target of linkedInstalls(dir)) if (under(target)) out.add(target);
  }
  return [...out];
}

/** The installation a link in a PATH folder leads to: its package folder, the prefix of a `bin` folder, else its folder. */
export function installOf(target: string): string {
  const parts = target.split(path.sep);
  const nm = parts.lastIndexOf('node_modules');
  if (nm >= 0 && nm + 1 < parts.length - 1) return parts.slice(0, nm + (parts[nm + 1]!.startsWith('@') ? 3 : 2)).join(path.sep);
  const dir = path.dirname(target);
  return path.basename(dir) === 'bin' ? path.dirname(dir) : dir;
}

/** Where the symbolic links in `dir` lead (resolved), as installations (see installOf). */
function linkedInstalls(dir: string): string[] {
  const out = new Set<string>();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      if (!lstatSync(file).isSymbolicLink()) continue;
      const real = realpathSync(file);
      if (path.dirname(real) !== path.resolve(dir)) out.add(installOf(real));
    } catch {
      // A dangling link: nothing to give back.
    }
  }
  return [...out];
}

/** The git dir holding a repository's objects and refs (its `.git`, or the common dir a linked checkout's `.git` file leads to). */
export function gitCommonDirOf(repo: string): string | null {
  const dotGit = path.join(repo, '.git');
  try {
    if (statSync(dotGit).isDirectory()) return dotGit;
    const gitdir = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
    if (!gitdir) return null;
    const dir = path.resolve(repo, gitdir);
    const common = existsSync(path.join(dir, 'commondir')) ? readFileSync(path.join(dir, 'commondir'), 'utf8').trim() : null;
    return common ? path.resolve(dir, common) : dir;
  } catch {
    return null;
  }
}
