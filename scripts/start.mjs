// `npm start`: builds when out/ is missing or stale, then opens the desktop app, or, where Electron cannot run, the headless host in a browser.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants as osConstants } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** What the build produces; all three must exist and be newer than every source. */
export const BUILD_OUTPUTS = ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html'];
/** What goes into the build. Tests are left out: editing one does not change the app. */
export const BUILD_SOURCES = ['electron', 'shared', 'renderer', 'electron.vite.config.ts', 'package.json'];

export const USAGE = 'Usage: npm start [-- --demo] [--headless] [--port N] [--no-open]';

/** @returns {{ demo: boolean, headless: boolean, open: boolean, port: string | null } | { error: string }} */
export function parseArgs(args) {
  const out = { demo: false, headless: false, open: true, port: null };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--demo') out.demo = true;
    else if (a === '--headless') out.headless = true;
    else if (a === '--no-open') out.open = false;
    else if (a === '--port' || a.startsWith('--port=')) {
      const value = a === '--port' ? args[++i] : a.slice('--port='.length);
      if (!value || !/^\d+$/.test(value) || Number(value) > 65535) return { error: '`--port` takes a port number (0 picks a free one).' };
      out.port = value;
    } else return { error: `Unknown option ${a}.` };
  }
  return out;
}

/** Linux and the BSDs need an X11 or Wayland display for a window; macOS and Windows always have one. */
export function hasDisplay(platform, env) {
  if (platform === 'darwin' || platform === 'win32') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/**
 * Where Electron's binary is, found the way node_modules/electron/index.js finds it but without its side effect:
 * requiring 'electron' from Node tries to download the binary when it is missing.
 * @returns {{ ok: true, path: string } | { ok: false, reason: string }}
 */
export function findElectronBinary({ electronDir, env, exists, readText }) {
  if (!electronDir) return { ok: false, reason: 'the electron package is not installed; run `npm install`' };
  const pathTxt = join(electronDir, 'path.txt');
  const exe = exists(pathTxt) ? readText(pathTxt).trim() : '';
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const full = join(env.ELECTRON_OVERRIDE_DIST_PATH, exe || 'electron');
    return exists(full) ? { ok: true, path: full } : { ok: false, reason: `ELECTRON_OVERRIDE_DIST_PATH names ${full}, which does not exist` };
  }
  if (!exe) return { ok: false, reason: 'node_modules/electron has no path.txt: its install step did not download the binary' };
  const full = join(electronDir, 'dist', exe);
  return exists(full) ? { ok: true, path: full } : { ok: false, reason: `${join('node_modules', 'electron', 'dist', exe)} does not exist` };
}

/**
 * Pure: the desktop window when Electron can run here, else the headless host and why.
 * @returns {{ mode: 'electron', binary: string } | { mode: 'headless', reason: string }}
 */
export function decideLaunch({ platform, env, electron, forceHeadless }) {
  if (forceHeadless) return { mode: 'headless', reason: '--headless was given; starting the headless host.' };
  if (!electron.ok) {
    return { mode: 'headless', reason: `Electron's binary could not be downloaded here (${electron.reason}); starting the headless host instead.` };
  }
  if (!hasDisplay(platform, env)) {
    return {
      mode: 'headless',
      reason: 'There is no display here (neither DISPLAY nor WAYLAND_DISPLAY is set), so no window can open; starting the headless host instead.',
    };
  }
  return { mode: 'electron', binary: electron.path };
}

/** Pure: why a build is needed (missing or stale output), or null when out/ is up to date. `mtimes` are ms or null when missing. */
export function buildReason(outputMtimes, newestSourceMtime) {
  const missing = BUILD_OUTPUTS.filter((_, i) => outputMtimes[i] === null || outputMtimes[i] === undefined);
  if (missing.length) return `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing`;
  const oldest = Math.min(...outputMtimes);
  if (newestSourceMtime > oldest) return 'the sources changed since the last build';
  return null;
}

export function newestMtime(paths, root = ROOT) {
  let newest = 0;
  const visit = (p) => {
    let st;
    try {
      st = statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      for (const entry of readdirSync(p)) {
        if (entry === 'node_modules' || entry.startsWith('.')) continue;
        visit(join(p, entry));
      }
    } else if (!/\.test\.tsx?$/.test(p)) newest = Math.max(newest, st.mtimeMs);
  };
  for (const p of paths) visit(join(root, p));
  return newest;
}

function mtimeOrNull(p) {
  try {
    return statSync(p).mtimeMs;
  } catch {
    return null;
  }
}

/** The line `ratchet serve` prints once it listens; its URL carries the launch token. */
export function serveUrl(line) {
  const m = /Ratchet is at (http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(line);
  return m ? m[1] : null;
}

/**
 * Pure: how to open a URL in the user's browser, or null when it should not be tried (no display on Linux, where
 * xdg-open could start a text browser in this terminal; CI; BROWSER=none).
 * @returns {{ command: string, args: string[], verbatim?: boolean } | null}
 */
export function browserCommand(platform, env, url) {
  if (env.CI || env.BROWSER === 'none') return null;
  if (platform === 'darwin') return { command: 'open', args: [url] };
  // `start` is a cmd built-in; its first quoted argument is a window title, and & must be escaped for cmd.
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', url.replace(/&/g, '^&')], verbatim: true };
  if (!hasDisplay(platform, env)) return null;
  return { command: 'xdg-open', args: [url] };
}

/**
 * Forwards a signal to the child once. npm and the terminal can both deliver the same Ctrl-C; a second delivery within
 * `windowMs` is the same keypress, not a request to force-quit.
 */
export function createSignalForwarder(kill, now = Date.now, windowMs = 1000) {
  const last = new Map();
  return (signal) => {
    const t = now();
    const prev = last.get(signal);
    last.set(signal, t);
    if (prev !== undefined && t - prev < windowMs) return false;
    kill(signal);
    return true;
  };
}

/** The entry Electron is given: the project folder when package.json names the built main, else the built file itself. */
export function electronEntry(root, pkg) {
  return pkg.main && pkg.main.replace(/^\.\//, '') === 'out/main/index.js' ? root : join(root, 'out', 'main', 'index.js');
}

function electronPackageDir() {
  try {
    return dirname(createRequire(join(ROOT, 'package.json')).resolve('electron/package.json'));
  } catch {
    return null;
  }
}

/** A Node >= 22 to run the build and the host with (the project brings one in node_modules). */
function node22() {
  const major = Number(process.versions.node.split('.')[0]);
  const local = join(ROOT, 'node_modules', 'node', 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  return major >= 22 || !existsSync(local) ? process.execPath : local;
}

function say(text) {
  process.stderr.write(`${text}\n`);
}

function run(command, args, options) {
  return new Promise((resolve) => {
    const child = spawn(command, args, options);
    child.on('error', (err) => resolve({ code: 1, error: err }));
    child.on('exit', (code, signal) => resolve({ code: code ?? (signal ? 128 + (osConstants.signals[signal] ?? 1) : 1) }));
  });
}

async function ensureBuilt() {
  const reason = buildReason(
    BUILD_OUTPUTS.map((p) => mtimeOrNull(join(ROOT, p))),
    newestMtime(BUILD_SOURCES),
  );
  if (!reason) return true;
  say(`Building the app (${reason})…`);
  const bin = join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  const r = await run(node22(), [bin, 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (r.code !== 0) say('The build failed (see above); fix it and run `npm start` again.');
  return r.code === 0;
}

function tryOpen(url) {
  const cmd = browserCommand(process.platform, process.env, url);
  if (!cmd) {
    say('Open that address in a browser on this machine.');
    return;
  }
  try {
    const child = spawn(cmd.command, cmd.args, { stdio: 'ignore', detached: true, windowsVerbatimArguments: cmd.verbatim === true });
    // No browser (ENOENT) is not an error: the address is printed above.
    child.on('error', () => say('Could not open a browser; open that address yourself.'));
    child.unref();
  } catch {
    say('Could not open a browser; open that address yourself.');
  }
}

/** Runs the child until it exits, passing Ctrl-C and friends on exactly once; resolves with its exit code. */
function supervise(child) {
  // On Windows Ctrl-C reaches every process on the console and kill() would terminate at once: nothing to forward.
  const forwarding = process.platform !== 'win32';
  const forward = createSignalForwarder((signal) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  });
  const handlers = ['SIGINT', 'SIGTERM', 'SIGHUP'].map((signal) => {
    const h = () => forwarding && forward(signal === 'SIGHUP' ? 'SIGTERM' : signal);
    process.on(signal, h);
    return [signal, h];
  });
  const leave = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  };
  process.on('exit', leave);
  return new Promise((resolve) => {
    child.on('error', (err) => {
      say(`Could not start ${child.spawnfile}: ${err.message}`);
      resolve(1);
    });
    child.on('exit', (code, signal) => {
      for (const [s, h] of handlers) process.off(s, h);
      process.off('exit', leave);
      resolve(code ?? (signal === 'SIGINT' ? 130 : signal ? 128 + (osConstants.signals[signal] ?? 1) : 1));
    });
  });
}

function spawnOptions(extra) {
  // Its own process group, so a terminal Ctrl-C reaches the child only through us, once.
  return { cwd: ROOT, detached: process.platform !== 'win32', ...extra };
}

async function startElectron(binary, opts) {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const env = { ...process.env, ...(opts.demo ? { RATCHET_DEMO: '1' } : {}) };
  // With this set, Electron would run as plain Node and never open a window.
  delete env.ELECTRON_RUN_AS_NODE;
  say('Starting Ratchet…');
  return supervise(spawn(binary, [electronEntry(ROOT, pkg)], spawnOptions({ stdio: 'inherit', env })));
}

async function startHeadless(opts) {
  const args = [join(ROOT, 'bin', 'ratchet.mjs'), 'serve', ...(opts.demo ? ['--demo'] : []), ...(opts.port ? ['--port', opts.port] : [])];
  const child = spawn(node22(), args, spawnOptions({ stdio: ['ignore', 'pipe', 'inherit'] }));
  const done = supervise(child);
  let opened = false;
  createInterface({ input: child.stdout }).on('line', (line) => {
    process.stdout.write(`${line}\n`);
    const url = serveUrl(line);
    if (url && !opened) {
      opened = true;
      if (opts.open) tryOpen(url);
      say('Press Ctrl-C to stop.');
    }
  });
  return done;
}

export async function main(argv = process.argv.slice(2)) {
  const opts = parseArgs(argv);
  if ('error' in opts) {
    say(`${opts.error}\n${USAGE}`);
    return 2;
  }
  if (!(await ensureBuilt())) return 1;
  const electron = findElectronBinary({ electronDir: electronPackageDir(), env: process.env, exists: existsSync, readText: (p) => readFileSync(p, 'utf8') });
  const decision = decideLaunch({ platform: process.platform, env: process.env, electron, forceHeadless: opts.headless });
  if (decision.mode === 'electron') return startElectron(decision.binary, opts);
  say(decision.reason);
  say(`(the app is the same; it talks to Ratchet over a WebSocket on 127.0.0.1 instead of IPC${opts.demo ? ', with the demo' : ''})`);
  return startHeadless(opts);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main();
}
