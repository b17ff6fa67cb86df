// Builds the `ratchet` CLI to plain JavaScript in out/cli (run by `npm install` through "prepare", and by bin/ratchet.mjs when
// a source file is newer than the build): no TypeScript loader at start, and `--help` loads only the usage text.
import { build } from 'esbuild';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'out', 'cli');

/** Builds into a fresh folder, then swaps it in, so a `ratchet` starting meanwhile finds the old build or the new one. */
export async function buildCli(target = outdir) {
  const tmp = `${target}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: { entry: 'electron/cli/entry.ts', usage: 'electron/cli/usage.ts' },
    outdir: tmp,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    // Dependencies load from node_modules as they are (better-sqlite3's native module, sandbox-runtime's vendor/ files).
    packages: 'external',
    outExtension: { '.js': '.mjs' },
    metafile: true,
    logLevel: 'warning',
  });
  // The sources it was built from: bin/ratchet.mjs rebuilds when one of them is newer than the build.
  const inputs = Object.keys(result.metafile.inputs).map((p) => relative(root, resolve(root, p)));
  writeFileSync(join(tmp, 'inputs.json'), `${JSON.stringify({ builtAt: Date.now(), inputs })}\n`);
  rmSync(target, { recursive: true, force: true });
  renameSync(tmp, target);
  return inputs.length;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const n = await buildCli();
  process.stdout.write(`built the ratchet CLI from ${n} files into ${relative(root, outdir)}\n`);
}
