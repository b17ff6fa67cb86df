#!/usr/bin/env node
// Entry point of the `ratchet` command: makes sure it runs on Node >= 22 (better-sqlite3 13 needs it), then loads the TypeScript CLI.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  const local = join(root, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(local) || process.env.RATCHET_REEXEC) {
    process.stderr.write(`ratchet needs Node 22 or newer (this is ${process.version}). Run \`npm install\` in ${root} to get it, or install Node 22.\n`);
    process.exit(2);
  }
  const r = spawnSync(local, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, RATCHET_REEXEC: '1' },
  });
  process.exit(r.status ?? 1);
}
const { register } = await import('tsx/esm/api');
register();
const { main } = await import('../electron/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
