// e2e harness: the scripted agent (the demo's script, reusable), headless host processes we can kill, and a Chromium it finds (find-browser.ts) via playwright-core.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { parseScript } from '../electron/scripted/script-schema';
import { findBrowser, type FoundBrowser } from './find-browser';
import { SANDBOX_AVAILABLE } from '../electron/engine/testing/sandbox-mode';
import { startScriptedServer, type ScriptedServer } from '../electron/scripted/server';

export const ROOT = resolve(import.meta.dirname, '..');
export const SHOTS = join(ROOT, 'e2e', 'screenshots');

/** The demo's script with every rule reusable, and slower answers so a kill can land mid-run. */
export async function scriptedAgent(delayMs = 250): Promise<ScriptedServer> {
  const raw = JSON.parse(readFileSync(join(ROOT, 'resources', 'demo-script.json'), 'utf8')) as { rules: Array<{ times?: number; response: { delayMs?: number } }> };
  for (const r of raw.rules) {
    delete r.times;
    r.response.delayMs = delayMs;
  }
  return startScriptedServer({ script: parseScript(raw) });
}

export function demoRepo(): string {
  const repo = join(mkdtempSync(join(tmpdir(), 'ratchet-e2e-')), 'calc');
  cpSync(join(ROOT, 'resources', 'demo-repo'), repo, { recursive: true });
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=E2E', '-c', 'user.email=e2e@localhost', ...args], { cwd: repo, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'Demo calculator');
  return repo;
}

export interface HostProcess {
  url: string;
  child: ChildProcess;
  /** What the host printed on stderr so far. */
  stderr(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts `ratchet serve` (with `args`, e.g. --demo) as its own process and waits for the URL it prints. */
export function startHostProcess(env: NodeJS.ProcessEnv, args: string[] = []): Promise<HostProcess> {
  // Sandboxed where this machine has a sandbox; explicitly opted out where it has none (a fresh machine).
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'ratchet.mjs'), 'serve', '--port', '0', ...args, ...(SANDBOX_AVAILABLE ? [] : ['--no-sandbox'])], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr?.on('data', (d) => (err += String(d)));
  return new Promise((ok, fail) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`ratchet serve did not print its URL in time. stderr:\n${err}`)), 30_000);
    child.stdout?.on('data', (d) => {
      out += String(d);
      const m = /Ratchet is at (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok({
          url: m[1] as string,
          child,
          stderr: () => err,
          kill: (signal = 'SIGTERM') =>
            new Promise((done) => {
              if (child.exitCode !== null || child.signalCode !== null) return done();
              child.once('exit', () => done());
              child.kill(signal);
            }),
        });
      }
    });
    child.once('exit', (code) => fail(new Error(`ratchet serve exited with ${code}. stderr:\n${err}`)));
  });
}

/** Launches the browser `findBrowser` finds (or the one given); as root, Chromium needs --no-sandbox. */
export async function launchBrowser(found?: FoundBrowser): Promise<Browser> {
  const browser = found ?? (await findBrowser());
  return chromium.launch({
    executablePath: browser.executablePath,
    env: { ...process.env, ...browser.env },
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
  });
}

export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });
}
