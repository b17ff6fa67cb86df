// Finds a Chromium for the end-to-end specs: CHROMIUM_PATH, a system Chrome/Chromium, Playwright's cache, then the one inside @sparticuz/chromium.
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import type * as Sparticuz from '@sparticuz/chromium';

type SparticuzModule = typeof Sparticuz;

export type BrowserSource = 'CHROMIUM_PATH' | 'system' | 'playwright-cache' | 'npm-package';

export interface FoundBrowser {
  executablePath: string;
  source: BrowserSource;
  /** Extra environment for the browser process (the packaged Chromium's libraries and fonts). */
  env: Record<string, string>;
}

export interface FindOptions {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  arch?: string;
  /** Absolute paths tried as a system browser before the PATH is searched; default: the usual install places. */
  systemPaths?: readonly string[];
  /** Where Playwright keeps browsers; default: PLAYWRIGHT_BROWSERS_PATH, else its per-user cache. */
  playwrightCache?: string;
  /** Whether to try the npm package (tests turn it off to check the message). */
  npmPackage?: boolean;
}

const NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];

export const DEFAULT_SYSTEM_PATHS: Partial<Record<NodeJS.Platform, string[]>> = {
  linux: ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/snap/bin/chromium'],
  darwin: ['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome', '/Applications/Chromium.app/Contents/MacOS/Chromium'],
  win32: ['C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe', 'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe'],
};

function onPath(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of NAMES) {
      const file = join(dir, platform === 'win32' ? `${name}.exe` : name);
      if (existsSync(file)) return file;
    }
  }
  return null;
}

function playwrightCacheDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string {
  if (env.PLAYWRIGHT_BROWSERS_PATH && env.PLAYWRIGHT_BROWSERS_PATH !== '0') return env.PLAYWRIGHT_BROWSERS_PATH;
  if (platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'ms-playwright');
  if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'ms-playwright');
  return join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'ms-playwright');
}

/** The newest browser in Playwright's cache: `chromium-<rev>/chrome-linux/chrome`, or a headless shell. */
function fromPlaywrightCache(dir: string): string | null {
  if (!existsSync(dir)) return null;
  const builds = readdirSync(dir)
    .filter((d) => /^chromium(_headless_shell)?-\d+$/.test(d))
    .sort((a, b) => Number(b.split('-').pop()) - Number(a.split('-').pop()));
  const inside = [
    'chrome-linux/chrome',
    'chrome-linux64/chrome',
    'chrome-linux/headless_shell',
    'chrome-headless-shell-linux64/chrome-headless-shell',
    'chrome-mac/Chromium.app/Contents/MacOS/Chromium',
    'chrome-mac-arm64/Chromium.app/Contents/MacOS/Chromium',
    'chrome-win/chrome.exe',
  ];
  for (const b of builds) for (const rel of inside) if (existsSync(join(dir, b, rel))) return join(dir, b, rel);
  return null;
}

/** @sparticuz/chromium: a brotli-compressed Chromium (with its NSS libraries and fonts) extracted to the temp folder. */
async function fromNpmPackage(): Promise<FoundBrowser | null> {
  let mod: SparticuzModule;
  try {
    mod = await import('@sparticuz/chromium');
  } catch {
    return null;
  }
  const Chromium = mod.default;
  const executablePath = await Chromium.executablePath();
  // Its libraries (nss, nspr, expat) are packed for Amazon Linux; extracting them lets it run where they are not installed.
  const { fileURLToPath } = await import('node:url');
  const bin = join(dirname(dirname(fileURLToPath(import.meta.resolve('@sparticuz/chromium')))), 'bin');
  const libs = await mod.inflate(join(bin, 'al2023.tar.br'));
  const tmp = dirname(executablePath);
  return { executablePath, source: 'npm-package', env: { LD_LIBRARY_PATH: join(libs, 'lib'), FONTCONFIG_PATH: join(tmp, 'fonts') } };
}

export function installHint(platform: NodeJS.Platform = process.platform, arch: string = process.arch): string {
  const lines = [
    'No Chromium found for the end-to-end specs. Any one of these works:',
    '  - set CHROMIUM_PATH to a Chrome or Chromium executable;',
    platform === 'linux'
      ? '  - install one: `apt-get install -y chromium` (Debian/Ubuntu) or `dnf install -y chromium` (Fedora);'
      : platform === 'darwin'
        ? '  - install Google Chrome or Chromium in /Applications;'
        : '  - install Google Chrome;',
    "  - `npx playwright install chromium` (Playwright's cache);",
  ];
  if (platform === 'linux' && arch === 'x64')
    lines.push('  - `npm install` (the devDependency @sparticuz/chromium ships one for linux-x64; it is missing from node_modules).');
  else lines.push(`  (the Chromium shipped in @sparticuz/chromium is for linux-x64 only; this machine is ${platform}-${arch}.)`);
  return lines.join('\n');
}

export async function findBrowser(opts: FindOptions = {}): Promise<FoundBrowser> {
  const env = opts.env ?? process.env;
  const platform = opts.platform ?? process.platform;
  const arch = opts.arch ?? process.arch;
  if (env.CHROMIUM_PATH) {
    if (!existsSync(env.CHROMIUM_PATH))
      throw new Error(`CHROMIUM_PATH is ${env.CHROMIUM_PATH}, which does not exist. Unset it to let the specs find a browser, or fix the path.`);
    return { executablePath: env.CHROMIUM_PATH, source: 'CHROMIUM_PATH', env: {} };
  }
  const system = (opts.systemPaths ?? DEFAULT_SYSTEM_PATHS[platform] ?? []).find((p) => existsSync(p)) ?? onPath(env, platform);
  if (system) return { executablePath: system, source: 'system', env: {} };
  const cached = fromPlaywrightCache(opts.playwrightCache ?? playwrightCacheDir(env, platform));
  if (cached) return { executablePath: cached, source: 'playwright-cache', env: {} };
  if (opts.npmPackage !== false && platform === 'linux' && arch === 'x64') {
    const packaged = await fromNpmPackage();
    if (packaged) return packaged;
  }
  throw new Error(installHint(platform, arch));
}

/** Chromium's switches for the specs and the renderer benchmarks: headless, no GPU, nothing talking to the network by itself; as root it needs --no-sandbox. */
export const BROWSER_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];
