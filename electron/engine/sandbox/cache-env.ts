// Build caches per repository, shared by that repository's runs (setup and gates alike): one folder per tool under <RATCHET_HOME>/cache/<repository>, writable from the sandbox, named through each tool's own variable.
import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { gitCommonDirOf } from './toolchains';

/** Where the caches live: `<RATCHET_HOME>/cache`, one folder per repository below. */
export function cacheRoot(ratchetHome: string): string {
  return path.join(ratchetHome, 'cache');
}

/**
 * The folder of one repository's caches. A run can write its caches (setup downloads into them, builds fill them), so
 * a run of one repository that rewrote a Go module or a wheel there would hand it to the next run of another: each
 * repository has its own, keyed by where its git dir really is (every checkout and worktree of one repository shares
 * it). The name keeps the folder's name for whoever looks.
 */
export function repoCacheDir(ratchetHome: string, repo: string): string {
  const gitDir = gitCommonDirOf(repo) ?? repo;
  let real = path.resolve(gitDir);
  try {
    real = realpathSync(gitDir);
  } catch {
    // Not there: its name as given is its identity.
  }
  // The checkout's folder name (`<checkout>/.git`), or a bare repository's.
  const named = path.basename(real) === '.git' ? path.dirname(real) : real;
  const name =
    path
      .basename(named)
      .replace(/[^\w.-]/g, '_')
      .slice(0, 40) || 'repo';
  return path.join(cacheRoot(ratchetHome), `${name}-${createHash('sha256').update(real).digest('hex').slice(0, 16)}`);
}

/** Tool → its cache folder under cacheRoot. */
const FOLDERS = {
  npm: 'npm',
  yarn: 'yarn',
  yarnGlobal: 'yarn-berry',
  pnpm: 'pnpm',
  bun: 'bun',
  pip: 'pip',
  uv: 'uv',
  goBuild: 'go-build',
  goMod: 'go-mod',
  cargo: 'cargo',
  gradle: 'gradle',
  maven: 'maven',
  xdg: 'xdg',
  deno: 'deno',
} as const;

/**
 * The variables that point each tool at its shared cache. CARGO_HOME is the cache too (its registry and git
 * folders are what cargo downloads; the toolchain itself stays in the user's RUSTUP_HOME, read-only); its
 * `config.toml` is written by Ratchet (see writeUserConfig) and read-only inside. Maven has no variable for its
 * repository: MAVEN_OPTS sets `maven.repo.local`, and `user.home` to `home` (the run's private folder) so Maven
 * reads the sanitized settings there, never the user's own (which hold server passwords).
 */
export function cacheEnv(cacheDir: string, home?: string): Record<string, string> {
  const root = cacheDir;
  const at = (k: keyof typeof FOLDERS) => path.join(root, FOLDERS[k]);
  return {
    npm_config_cache: at('npm'),
    YARN_CACHE_FOLDER: at('yarn'),
    YARN_GLOBAL_FOLDER: at('yarnGlobal'),
    BUN_INSTALL_CACHE_DIR: at('bun'),
    PIP_CACHE_DIR: at('pip'),
    UV_CACHE_DIR: at('uv'),
    GOCACHE: at('goBuild'),
    GOMODCACHE: at('goMod'),
    CARGO_HOME: at('cargo'),
    GRADLE_USER_HOME: at('gradle'),
    // `mvn` splits MAVEN_OPTS on blanks: a path with one cannot go through it.
    MAVEN_OPTS: [`-Dmaven.repo.local=${at('maven')}`, ...(home ? [`-Duser.home=${home}`] : [])].filter((o) => !/\s/.test(o)).join(' '),
    DENO_DIR: at('deno'),
    XDG_CACHE_HOME: at('xdg'),
  };
}

/** pnpm's store: set in pnpm's own config file (an npm_config_ variable would make npm warn about a key it does not know). */
export function pnpmStoreDir(cacheDir: string): string {
  return path.join(cacheDir, FOLDERS.pnpm);
}

/** Makes every cache folder of a repository's `cacheDir` (a sandbox can only bind what exists) and returns it. */
export function ensureCacheDirs(cacheDir: string): string {
  const root = cacheDir;
  for (const f of Object.values(FOLDERS)) mkdirSync(path.join(root, f), { recursive: true });
  return root;
}
