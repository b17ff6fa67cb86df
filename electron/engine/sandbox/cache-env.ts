// Build caches shared by every run (and by setup and gates alike): one folder per tool under <RATCHET_HOME>/cache, writable from the sandbox, named through each tool's own variable.
import { mkdirSync } from 'node:fs';
import path from 'node:path';

/** Where the caches live: `<RATCHET_HOME>/cache`. */
export function cacheRoot(ratchetHome: string): string {
  return path.join(ratchetHome, 'cache');
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
export function cacheEnv(ratchetHome: string, home?: string): Record<string, string> {
  const root = cacheRoot(ratchetHome);
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
export function pnpmStoreDir(ratchetHome: string): string {
  return path.join(cacheRoot(ratchetHome), FOLDERS.pnpm);
}

/** Makes every cache folder (a sandbox can only bind what exists) and returns the root. */
export function ensureCacheDirs(ratchetHome: string): string {
  const root = cacheRoot(ratchetHome);
  for (const f of Object.values(FOLDERS)) mkdirSync(path.join(root, f), { recursive: true });
  return root;
}
