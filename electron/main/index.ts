// Electron main entry: the installed `ratchet` command (CLI mode), or the app: registers app:// before ready, keeps one instance (the store has one writer), then hands over to the shell.
import { app } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliArgs, refusedInInstalledApp } from './cli-mode';
import { registerAppScheme } from './protocol';
import { runShell } from './shell';
import { hardenOwnPath } from '../engine';

const here = dirname(fileURLToPath(import.meta.url));
// Ratchet's own programs (git, the sandbox's launcher) are never found through a relative PATH entry.
hardenOwnPath();
const cli = cliArgs(process.argv);

if (cli) {
  // No window, no dock icon, no single-instance lock: the CLI and the app share the store the way two CLIs do.
  app.dock?.hide();
  const refused = app.isPackaged ? refusedInInstalledApp(cli) : null;
  const run = refused ? Promise.resolve(process.stderr.write(`${refused}\n`)).then(() => 2) : import('../cli/main').then(({ main }) => main(cli));
  void run.then(
    (code) => app.exit(code),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      app.exit(1);
    },
  );
} else {
  registerAppScheme();
  // userData is <appData>/ratchet whatever the product name, so the app and the `ratchet` CLI share one home (see engine/home.ts).
  app.setPath('userData', join(app.getPath('appData'), 'ratchet'));

  if (!app.requestSingleInstanceLock()) {
    // The running instance gets our argv through `second-instance` and opens the folder there.
    app.quit();
  } else {
    runShell({
      env: process.env,
      argv: process.argv,
      cwd: process.cwd(),
      platform: process.platform,
      preload: join(here, '../preload/index.cjs'),
      rendererDir: join(here, '../renderer'),
    });
  }
}
