// Builds the `ratchet` CLI to plain JavaScript in out/cli (run by `npm install` through "prepare", and by bin/ratchet.mjs when
// a source file is newer than the build): no TypeScript loader at start, and `--help` loads only the usage text.
import { build } from 'esbuild';
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'out', 'cli');

/** Old chunks stay this long after a rebuild: a `ratchet` started before it may still import them. */
const KEEP_OLD_MS = 30 * 60 * 1000;

/**
 * Builds into a fresh folder, then moves each file in (one rename each, inputs.json last), so a `ratchet` starting or
 * running meanwhile finds whole files of the old build or the new one: chunks are named by their content, and the old
 * ones it may still import later are kept a while instead of being deleted under it.
 */
export async function buildCli(target = outdir) {
  const tmp = `${target}.tmp-${process.pid}`;
  removeAbandoned(target);
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const result = await build({
    absWorkingDir: root,
    // The stats worker is an entry of its own: the service starts it from the file beside its chunk (stats-reader.ts).
    entryPoints: { entry: 'electron/cli/entry.ts', usage: 'electron/cli/usage.ts', 'stats-worker': 'electron/engine/stats/stats-worker.ts' },
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
  const builtAt = Date.now();
  mkdirSync(target, { recursive: true });
  const fresh = new Set(readdirSync(tmp));
  // Chunks first, then the entry points that import them: a start in between never finds an entry without its chunks.
  const entries = ['entry.mjs', 'usage.mjs'];
  for (const f of [...fresh].filter((x) => !entries.includes(x)).concat(entries.filter((x) => fresh.has(x)))) renameSync(join(tmp, f), join(target, f));
  writeFileSync(join(tmp, 'inputs.json'), `${JSON.stringify({ builtAt, inputs })}\n`);
  renameSync(join(tmp, 'inputs.json'), join(target, 'inputs.json'));
  rmSync(tmp, { recursive: true, force: true });
  for (const f of readdirSync(target)) {
    if (fresh.has(f) || f === 'inputs.json') continue;
    const p = join(target, f);
    if (builtAt - statSync(p).mtimeMs > KEEP_OLD_MS) rmSync(p, { recursive: true, force: true });
  }
  return inputs.length;
}

/** The folders of builds whose process is gone (killed mid-build): the packaged app would carry them. */
function removeAbandoned(target) {
  const prefix = `${basename(target)}.tmp-`;
  let names;
  try {
    names = readdirSync(dirname(target));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(name.slice(prefix.length));
    if (!name.startsWith(prefix) || !Number.isInteger(pid) || pid <= 0 || alive(pid)) continue;
    rmSync(join(dirname(target), name), { recursive: true, force: true });
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const n = await buildCli();
  process.stdout.write(`built the ratchet CLI from ${n} files into ${relative(root, outdir)}\n`);
}
