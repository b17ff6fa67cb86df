// CI's Electron security scan: runs @doyensec/electronegativity over the shell, the preload, the shared CSP and the renderer's HTML,
// prints every finding, and fails on HIGH ones (the tool itself always exits 0).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const scan = mkdtempSync(join(tmpdir(), 'ratchet-scan-'));
for (const part of ['electron/main', 'electron/preload', 'shared/content-policy.ts', 'renderer/index.html']) {
  cpSync(join(root, part), join(scan, part), { recursive: true });
}
const version = JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
const out = join(scan, 'findings.csv');
const bin = join(root, 'node_modules', '.bin', 'electronegativity');
const r = spawnSync(bin, ['-i', scan, '-e', version, '-r', '-o', out], { encoding: 'utf8' });
if (r.status !== 0) {
  process.stderr.write(r.stderr || r.stdout);
  process.exit(1);
}
const rows = readFileSync(out, 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .filter((l) => !l.includes('/testing/') && !/\.test\.ts"/.test(l));
const high = rows.filter((l) => l.split(',')[1] === '"HIGH"');
console.log(`electronegativity ${version}: ${rows.length} finding(s), ${high.length} HIGH`);
for (const l of rows) console.log(`  ${l.split(',').slice(0, 5).join(' ')}`);
process.exit(high.length ? 1 : 0);
