// e2e harness: the scripted agent (the demo's script, reusable), headless host processes we can kill, a Chromium it finds (find-browser.ts) via playwright-core, and the store readers and setup every spec shares.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { parseScript } from '../electron/scripted/script-schema';
import { BROWSER_ARGS, findBrowser, type FoundBrowser } from './find-browser';
import { inject } from 'vitest';
import { SANDBOX_AVAILABLE } from '../electron/engine/testing/sandbox-mode';
import { startScriptedServer, type ScriptedServer } from '../electron/scripted/server';
import { compileScript, ruleResponse, type RecordedRequest } from '../electron/scripted/script-rules';

export const ROOT = resolve(import.meta.dirname, '..');
export const SHOTS = join(ROOT, 'e2e', 'screenshots');

/**
 * The scripted agent of the e2e specs: the demo's script with every rule reusable, answering at once (or `delayMs` apart
 * between streamed events), whose answers a spec can hold. A spec that needs a run to stay at a point — running while
 * others queue, mid-step when its host is killed — holds the requests that would move it on and releases them when it
 * has seen what it came to see: a condition, not a guess at how long a paced answer takes on a loaded machine.
 */
export interface ScriptedAgent extends ScriptedServer {
  /** From now on, the requests `which` picks (default: every one) wait unanswered; those already waiting that it no longer picks go on. */
  hold(which?: (req: RecordedRequest) => boolean): void;
  /** Every request answers again, the waiting ones at once. */
  release(): void;
  /** How many requests are waiting now. */
  waiting(): number;
}

export async function scriptedAgent(delayMs = 0): Promise<ScriptedAgent> {
  const raw = JSON.parse(readFileSync(join(ROOT, 'resources', 'demo-script.json'), 'utf8')) as {
    rules: Array<{ times?: number; response: { delayMs?: number } }>;
  };
  for (const r of raw.rules) {
    delete r.times;
    r.response.delayMs = delayMs;
  }
  const rules = compileScript(parseScript(raw));
  let holding: ((req: RecordedRequest) => boolean) | null = null;
  const waiting = new Map<RecordedRequest, () => void>();
  const recheck = () => {
    for (const [req, go] of waiting) {
      if (holding?.(req)) continue;
      waiting.delete(req);
      go();
    }
  };
  const server = await startScriptedServer({
    script: async (req) => {
      if (holding?.(req)) await new Promise<void>((go) => waiting.set(req, go));
      return ruleResponse(rules, req);
    },
  });
  return {
    ...server,
    hold: (which = () => true) => {
      holding = which;
      recheck();
    },
    release: () => {
      holding = null;
      recheck();
    },
    waiting: () => waiting.size,
    close: async () => {
      holding = null;
      recheck();
      await server.close();
    },
  };
}

/** The task a request to the agent works on: the title its task context opens with ("# Task: <title>"). */
export function taskOf(req: RecordedRequest): string | undefined {
  const messages: unknown = (req.body as { messages?: unknown } | undefined)?.messages;
  // In the JSON text a line's end is a backslash and an n.
  return /# Task: (.*?)\\n/.exec(JSON.stringify(messages ?? []))?.[1];
}

/** Picks the requests of the tasks titled `titles`. */
export const ofTasks =
  (...titles: string[]) =>
  (req: RecordedRequest): boolean =>
    titles.some((t) => JSON.stringify(t).slice(1, -1) === taskOf(req));

/** Picks the first request of step `n` (the one that hands the agent the step's prompt). */
export const startOfStep =
  (n: number) =>
  (req: RecordedRequest): boolean =>
    req.lastUserText.includes(`## Step ${n} of `);

export function demoRepo(): string {
  const repo = join(mkdtempSync(join(tmpdir(), 'ratchet-e2e-')), 'calc');
  cpSync(join(ROOT, 'resources', 'demo-repo'), repo, { recursive: true });
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo, stdio: 'ignore' });
  execFileSync('git', ['add', '-A'], { cwd: repo, stdio: 'ignore' });
  return commitAll(repo, 'Demo calculator');
}

/** Commits every change in `repo` (as the e2e author) and returns `repo`. */
export function commitAll(repo: string, message: string): string {
  execFileSync('git', ['-c', 'user.name=E2E', '-c', 'user.email=e2e@localhost', 'commit', '-qam', message], { cwd: repo, stdio: 'ignore' });
  return repo;
}

/** Rewrites `repo`'s ratchet.yml with `edit` and commits it as `message`; returns `repo`. */
export function editWorkflow(repo: string, edit: (yml: string) => string, message: string): string {
  const file = join(repo, 'ratchet.yml');
  writeFileSync(file, edit(readFileSync(file, 'utf8')));
  return commitAll(repo, message);
}

/** The demo's test gate, slowed down: it prints "warming up 1".."warming up <lines>", one every 0.4 s, before the tests run. */
export function slowGate(repo: string, lines: number): string {
  return editWorkflow(
    repo,
    (yml) =>
      yml.replace(
        'run: "node --test --test-reporter=tap", timeout: 60',
        `run: "for i in $(seq 1 ${lines}); do echo \\"warming up $i\\"; sleep 0.4; done; node --test --test-reporter=tap", timeout: 60`,
      ),
    'slow gate',
  );
}

/** A file whose presence holds a gate made by heldGate: the test holds it, sees the gate running, and lets it go. */
export interface GateHold {
  file: string;
  /** From now on the gate waits (after its first lines) until release(). */
  hold(): void;
  release(): void;
}

export function gateHold(): GateHold {
  const file = join(mkdtempSync(join(tmpdir(), 'ratchet-e2e-hold-')), 'hold');
  return { file, hold: () => writeFileSync(file, ''), release: () => rmSync(file, { force: true }) };
}

/**
 * The demo's test gate, held by `hold`: it prints "warming up 1".."warming up <lines>", then waits while `hold` is held
 * (the gate's own timeout of 60 s still counts), then runs the tests. A Stop or a kill lands while it runs on a machine of
 * any speed, and a gate nobody holds costs nothing.
 */
export function heldGate(repo: string, hold: GateHold, lines = 2): string {
  return editWorkflow(
    repo,
    (yml) =>
      yml.replace(
        'run: "node --test --test-reporter=tap", timeout: 60',
        `run: "for i in $(seq 1 ${lines}); do echo \\"warming up $i\\"; done; while [ -e ${hold.file} ]; do sleep 0.1; done; node --test --test-reporter=tap", timeout: 60`,
      ),
    'held gate',
  );
}

/** A fresh RATCHET_HOME path (not created yet) in its own temp folder. */
export function tempHome(prefix = 'ratchet-e2e-home-'): string {
  return join(mkdtempSync(join(tmpdir(), prefix)), 'home');
}

export interface StoredRun {
  id: string;
  status: string;
  reason: string | null;
  title: string;
}

/** Every run in the store under `home`, oldest first, with its task's title. */
export function storeRuns(home: string): StoredRun[] {
  const db = new Database(join(home, 'ratchet.db'), { readonly: true });
  try {
    return db
      .prepare('SELECT runs.id, runs.status, runs.reason, tasks.title FROM runs JOIN tasks ON tasks.id = runs.task_id ORDER BY runs.created_at')
      .all() as StoredRun[];
  } finally {
    db.close();
  }
}

/** The newest run of the task titled `title`, if any. */
export function latestRun(home: string, title: string): StoredRun | undefined {
  return storeRuns(home)
    .filter((r) => r.title === title)
    .at(-1);
}

/** How many attempts run `runId` has made at step `step` so far. */
export function attemptCount(home: string, runId: string, step: number): number {
  const db = new Database(join(home, 'ratchet.db'), { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM attempts WHERE run_id = ? AND step_index = ?').get(runId, step) as { n: number }).n;
  } finally {
    db.close();
  }
}

// The polling helper is the one all tests share (shared/testing/until.ts); e2e specs keep importing it from here.
export { until } from '../shared/testing/until';

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
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'ratchet.mjs'), 'serve', '--port', '0', ...args, ...(SANDBOX_AVAILABLE ? [] : ['--no-sandbox'])], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (d) => (err += String(d)));
  return new Promise((ok, fail) => {
    let out = '';
    // Generous: with spec files running side by side (vitest.e2e.config.ts) a start-up shares the cores with other hosts and browsers.
    const timer = setTimeout(() => fail(new Error(`ratchet serve did not print its URL in time. stderr:\n${err}`)), 90_000);
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

/**
 * The browser a spec works in: the phase's shared Chromium (e2e/browser-server.ts) when there is one and none is named,
 * else its own launch of the one `findBrowser` finds (or `found`). Closing a shared one closes the spec's contexts only.
 */
export async function launchBrowser(found?: FoundBrowser): Promise<Browser> {
  const shared = found ? '' : inject('e2eBrowser');
  if (shared) return chromium.connect(shared);
  const browser = found ?? (await findBrowser());
  return chromium.launch({
    executablePath: browser.executablePath,
    env: { ...process.env, ...browser.env },
    headless: true,
    args: BROWSER_ARGS,
  });
}

export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });
}

/** What a spec's beforeAll sets up: the scripted agent, a repository, a RATCHET_HOME, the host's env, maybe a host, and a browser. */
export interface SpecEnv {
  server: ScriptedAgent;
  browser: Browser;
  /** The host started by startSpecEnv (none with `startHost: false`). */
  host: HostProcess | undefined;
  home: string;
  repo: string;
  /** The host's environment: RATCHET_HOME, the agent's key and the scripted agent's URL, plus the spec's `env`. */
  env: NodeJS.ProcessEnv;
  /** Kills the host it started, closes the browser and the scripted agent. */
  close(): Promise<void>;
}

/**
 * Starts the scripted agent (answering at once, or `delayMs` apart), makes the repository (`repo`, default a fresh demo copy), and —
 * unless `startHost` is false — `ratchet serve` on a fresh RATCHET_HOME with the key 'e2e-key' (overridden by `env`); then the browser.
 */
export async function startSpecEnv(
  opts: { delayMs?: number; repo?: () => string; env?: NodeJS.ProcessEnv; home?: string; startHost?: boolean } = {},
): Promise<SpecEnv> {
  const server = await scriptedAgent(opts.delayMs);
  let host: HostProcess | undefined;
  try {
    const repo = (opts.repo ?? demoRepo)();
    const home = opts.home ?? tempHome();
    const env = { RATCHET_HOME: home, ANTHROPIC_API_KEY: 'e2e-key', ANTHROPIC_BASE_URL: server.url, ...opts.env };
    if (opts.startHost !== false) host = await startHostProcess(env);
    const browser = await launchBrowser();
    return specEnv(server, browser, host, home, repo, env);
  } catch (err) {
    // Nothing left running when the setup fails half way (the spec's afterAll has no env to close).
    await host?.kill();
    await server.close();
    throw err;
  }
}

function specEnv(server: ScriptedAgent, browser: Browser, host: HostProcess | undefined, home: string, repo: string, env: NodeJS.ProcessEnv): SpecEnv {
  const spec: SpecEnv = {
    server,
    browser,
    host,
    home,
    repo,
    env,
    close: async () => {
      await spec.host?.kill();
      await browser.close();
      await server.close();
    },
  };
  return spec;
}
