// `npm start`: the desktop app once its Electron shell is built; until then, says so and points to the CLI and the demo.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const shell = join(root, 'out', 'main', 'index.js');
if (!existsSync(shell)) {
  process.stderr.write(
    [
      'Ratchet: the desktop window (Electron shell and React screens) is not part of this build yet.',
      'What works today is the engine, through the command line:',
      '  npx ratchet run <repo> --workflow <file>     run a plan in its own worktree',
      '  npx ratchet list | status <run-id> --json    see runs',
      '  npm run demo                                 watch a scripted run fail a test and retry',
      '',
    ].join('\n'),
  );
  process.exit(1);
}
