// Electron main entry: registers app:// before ready, keeps one instance (the store has one writer), then hands over to the shell.
import { app } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { registerAppScheme } from './protocol';
import { runShell } from './shell';

const here = dirname(fileURLToPath(import.meta.url));

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
