// The Electron shell's lifecycle: once ready, builds the engine and service, binds IPC, opens the window; on quit, pauses runs and closes the store.
import { app, dialog, session, shell, type BrowserWindow, type WebContents } from 'electron';
import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { EngineEventDoc } from '../../shared/contract';
import type { MenuCommand } from '../../shared/menu-commands';
import { createEngine, type Engine, createService, toCallError, type Service } from '../engine';
import type { Demo } from '../host/demo';
import { demoWanted as isDemoWanted, startDemoFromDevTree } from './demo-gate';
import { pickRepository } from './dialogs';
import { bindIpc, createEventSender } from './ipc';
import { installMenu } from './menu';
import { createNotifier } from './notifications';
import { handleAppProtocol } from './protocol';
import { asSecretStore, createSecrets, type Secrets } from './secrets';
import { loadTeamUrlStore } from './team-secrets';
import { loadGithubTokenStore } from './github-secrets';
import { withShellHandlers, worktreeHandlers } from './shell-handlers';
import { createMainWindow, hardenSession } from './window';

export interface ShellOptions {
  env: NodeJS.ProcessEnv;
  argv: string[];
  cwd: string;
  platform: NodeJS.Platform;
  /** The bundled preload (CommonJS, for the sandbox). */
  preload: string;
  /** out/renderer, served as app://ratchet/. */
  rendererDir: string;
}

/** A dropped or passed path as a repository candidate: a file stands for the folder it is in. */
export function repoPathFor(path: string, cwd: string, isDirectory: (p: string) => boolean | null): string | null {
  const full = resolve(cwd, path);
  const dir = isDirectory(full);
  if (dir === null) return null;
  return dir ? full : dirname(full);
}

/** Folders given on a command line (a second launch, or a folder dropped on the app icon on Windows and Linux). */
export function repoPathsFromArgv(argv: string[], cwd: string, appPath: string, isDirectory: (p: string) => boolean | null): string[] {
  // argv[0] is the executable; Electron's own switches start with '-'; in development the app folder is an argument too.
  return argv
    .slice(1)
    .filter((a) => a && !a.startsWith('-'))
    .map((a) => resolve(cwd, a))
    .filter((p) => p !== resolve(appPath) && isDirectory(p) === true);
}

function isDirectory(p: string): boolean | null {
  try {
    return statSync(p).isDirectory();
  } catch {
    return null;
  }
}

interface Running {
  engine: Engine;
  service: Service;
  demo: Demo | null;
  unbindIpc: () => void;
  unsubscribe: () => void;
  wake: NodeJS.Timeout;
}

export function runShell(options: ShellOptions): void {
  const dev = !app.isPackaged;
  const demoWanted = isDemoWanted({ isPackaged: app.isPackaged, env: options.env, argv: options.argv });
  let win: BrowserWindow | null = null;
  let running: Running | null = null;
  let quitting: Promise<void> | null = null;

  // Repositories to open, held until the renderer has made its first call (it subscribes to events before that).
  const pendingRepos: string[] = [];
  // Menu commands given while no renderer listens (macOS with the window closed, or during a reload).
  const pendingCommands: MenuCommand[] = [];
  let rendererReady = false;
  const contents = (): WebContents | null => (win && !win.isDestroyed() ? win.webContents : null);
  const send = createEventSender(contents);
  const flushRepos = () => {
    while (rendererReady && pendingRepos.length) send('app.onOpenRepo', { path: pendingRepos.shift()! });
    while (rendererReady && pendingCommands.length) send('app.onCommand', { command: pendingCommands.shift()! });
  };
  const menuCommand = (command: MenuCommand) => {
    pendingCommands.push(command);
    if (!win) win = openWindow();
    flushRepos();
    focusWindow();
  };
  const openRepo = (path: string | null) => {
    if (!path) return;
    pendingRepos.push(path);
    flushRepos();
    focusWindow();
  };

  function focusWindow() {
    if (!win || win.isDestroyed()) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  }

  function openWindow(): BrowserWindow {
    const w = createMainWindow({ preload: options.preload, dev });
    rendererReady = false;
    // A reload starts a new renderer that has not subscribed yet.
    w.webContents.on('did-start-loading', () => {
      rendererReady = false;
    });
    w.on('closed', () => {
      if (win === w) win = null;
    });
    return w;
  }

  // macOS: a folder dropped on the dock icon or opened with the app; may arrive before `ready`.
  app.on('open-file', (event, path) => {
    event.preventDefault();
    openRepo(repoPathFor(path, options.cwd, isDirectory));
  });
  app.on('second-instance', (_event, argv, cwd) => {
    for (const p of repoPathsFromArgv(argv, cwd, app.getAppPath(), isDirectory)) openRepo(p);
    focusWindow();
  });
  app.on('window-all-closed', () => {
    if (options.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (running && !win) win = openWindow();
  });
  app.on('will-quit', (event) => {
    if (!running) return;
    // Runs are stopped (they pause, resumable) and the store closed before the process goes.
    event.preventDefault();
    quitting ??= stop().finally(() => app.quit());
  });

  async function stop(): Promise<void> {
    const r = running;
    running = null;
    if (!r) return;
    clearInterval(r.wake);
    r.unsubscribe();
    r.unbindIpc();
    await r.service.close().catch(() => undefined);
    await r.demo?.server.close().catch(() => undefined);
    r.engine.close();
  }

  async function start(): Promise<void> {
    hardenSession(session.defaultSession);
    handleAppProtocol(options.rendererDir);

    const demo = demoWanted ? await startDemoFromDevTree(options.env) : null;
    // The engine gets its own copy of the environment: the saved key goes into it, never into process.env.
    const env: NodeJS.ProcessEnv = { ...(demo?.env ?? options.env) };
    const home = demo ? join(demo.work, 'home') : options.env.RATCHET_HOME || app.getPath('userData');
    // The demo uses its scripted server's placeholder key; a saved real key must not be sent there.
    let secrets: Secrets | null = null;
    if (!demo) {
      secrets = createSecrets({ file: join(app.getPath('userData'), 'api-key.enc'), envKey: options.env.ANTHROPIC_API_KEY ?? null });
      await secrets.load();
      const key = secrets.key();
      if (key) env.ANTHROPIC_API_KEY = key;
    }
    // The team database's URL (Settings › Team), kept like the key; the demo has no team.
    const teamUrl = demo
      ? undefined
      : await loadTeamUrlStore({ file: join(app.getPath('userData'), 'team-url.enc'), envUrl: options.env.RATCHET_TEAM_URL ?? null });
    // Settings › GitHub's token, kept like the key (GITHUB_TOKEN/GH_TOKEN win); the demo has no GitHub.
    const githubToken = demo ? undefined : await loadGithubTokenStore({ file: join(app.getPath('userData'), 'github-token.enc') });
    const engine = createEngine({ home, env });
    if (demo) engine.upsertRepo(demo.repo, 'calc');
    const service = createService(engine, {
      host: 'electron',
      version: app.getVersion(),
      demo: Boolean(demo),
      env,
      secrets: secrets ? asSecretStore(secrets) : undefined,
      teamUrl,
      githubToken,
      pickRepo: () => pickRepository(win),
    });
    const handlers = secrets
      ? withShellHandlers(service.handlers, { secrets, env, checkKey: service.checkApiKey })
      : { ...service.handlers, ...worktreeHandlers(service.handlers) };
    // The demo starts its two runs by itself (a retry that fixes a test, then a run that fails for good).
    if (demo) void import('../host/demo').then((m) => m.startDemoRuns(service, demo)).catch(() => undefined);
    const unbindIpc = bindIpc({
      handlers,
      contents,
      toError: toCallError,
      onCall: () => {
        if (rendererReady) return;
        rendererReady = true;
        flushRepos();
      },
    });
    const notify = createNotifier({
      enabled: async () => (await service.handlers['settings.get']({})).notifications,
      windowFocused: () => Boolean(win && !win.isDestroyed() && win.isFocused()),
      runFacts: async (runId) => engine.runFacts(runId),
      onClick: () => {
        if (!win) win = openWindow();
        focusWindow();
      },
    });
    const unsubscribe = service.subscribe((event, payload) => {
      send(event, payload);
      if (event === 'runs.onEvent') void notify(payload as EngineEventDoc);
    });
    // Parked runs (rate limit, daily budget) resume when their wake_at comes, as in the headless host.
    const wake = setInterval(() => service.wakeDue(), 15_000);
    wake.unref();
    running = { engine, service, demo, unbindIpc, unsubscribe, wake };
    service.wakeDue();

    installMenu(
      { platform: options.platform, dev, appName: app.getName() },
      {
        command: menuCommand,
        showDataFolder: () => void shell.openPath(engine.home),
      },
    );
    for (const p of repoPathsFromArgv(options.argv, options.cwd, app.getAppPath(), isDirectory)) pendingRepos.push(p);
    win = openWindow();
  }

  app
    .whenReady()
    .then(start)
    .catch((err: unknown) => {
      // Before a window exists the only way to tell the user is a native error box.
      dialog.showErrorBox('Ratchet could not start', toCallError(err).message);
      app.exit(1);
    });
}
