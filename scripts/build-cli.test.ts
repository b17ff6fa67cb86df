// The built CLI: --help needs nothing but the usage text, `list` does not load the engine, and a stale build is rebuilt.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCli } from './build-cli.mjs';

const ROOT = resolve(import.meta.dirname, '..');

/** The modules a built file imports statically (dynamic import() calls are left out). */
function staticImports(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/^import\s[^;]*?from\s*["']([^"']+)["']|^import\s*["']([^"']+)["']/gm)].map((m) => (m[1] ?? m[2]) as string);
}

describe('the built CLI', () => {
  it("removes the folder of a build that was killed midway (its process gone), never a running one's", async () => {
    const parent = mkdtempSync(join(tmpdir(), 'ratchet-cli-build-'));
    const out = join(parent, 'cli');
    // A pid no process has (above the kernel's maximum), and this test's own process, building now.
    const abandoned = join(parent, 'cli.tmp-4194399');
    const running = join(parent, `cli.tmp-${process.ppid}`);
    for (const dir of [abandoned, running]) {
      mkdirSync(dir);
      writeFileSync(join(dir, 'demo-X.mjs'), '');
    }
    await buildCli(out);
    expect(existsSync(abandoned)).toBe(false);
    expect(existsSync(join(running, 'demo-X.mjs'))).toBe(true);
  });

  it('answers --help from the usage text alone, and `list` from the store alone (better-sqlite3, no engine)', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'ratchet-cli-build-')), 'cli');
    await buildCli(out);
    // The files and packages a built file loads statically, transitively.
    function closure(file: string, seen = { files: new Set<string>(), packages: new Set<string>() }) {
      seen.files.add(file);
      for (const m of staticImports(join(out, file))) {
        if (!m.startsWith('./')) seen.packages.add(m);
        else if (!seen.files.has(m.slice(2))) closure(m.slice(2), seen);
      }
      return seen;
    }
    // What --help loads: usage.mjs and the chunks it imports, no package, all of it small.
    const help = closure('usage.mjs');
    expect([...help.packages]).toEqual([]);
    expect([...help.files].reduce((n, f) => n + readFileSync(join(out, f)).length, 0)).toBeLessThan(20_000);
    expect(staticImports(join(out, 'entry.mjs')).every((m) => m.startsWith('./'))).toBe(true);
    // `list` reaches the store, never the engine's agent, sandbox or git modules.
    const listMain = readdirSync(out).find((f) => f.startsWith('list-main-')) as string;
    const list = closure(listMain);
    const listCode = [...list.files].map((f) => readFileSync(join(out, f), 'utf8')).join('\n');
    expect(listCode).toContain('markInterrupted');
    expect(listCode).not.toContain('function createEngine');
    expect([...list.packages].filter((p) => !p.startsWith('node:')).sort()).toEqual(['better-sqlite3']);
    // `ratchet mcp` loads the MCP SDK on demand: no other command's start loads it.
    const cliMain = readdirSync(out).find((f) => f.startsWith('main-')) as string;
    expect([...closure(cliMain).packages].some((p) => p.startsWith('@modelcontextprotocol/'))).toBe(false);
    expect(readdirSync(out).some((f) => f.startsWith('mcp-command-'))).toBe(true);
  }, 60_000);

  it('rebuilds without deleting the chunks a running ratchet may still import; old ones go after a while', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'ratchet-cli-build-')), 'cli');
    await buildCli(out);
    // A chunk of an earlier build (another content, another name), loaded by a process still running, and one long unused.
    writeFileSync(join(out, 'chunk-EARLIER.mjs'), 'export const x = 1;\n');
    writeFileSync(join(out, 'chunk-ANCIENT.mjs'), 'export const x = 0;\n');
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(join(out, 'chunk-ANCIENT.mjs'), hourAgo, hourAgo);
    await buildCli(out);
    expect(existsSync(join(out, 'chunk-EARLIER.mjs'))).toBe(true);
    expect(existsSync(join(out, 'chunk-ANCIENT.mjs'))).toBe(false);
    expect(existsSync(join(out, 'entry.mjs'))).toBe(true);
    expect(readdirSync(join(out, '..')).filter((f) => f.includes('.tmp-'))).toEqual([]);
  }, 60_000);

  it('runs through bin/ratchet.mjs, and rebuilds when a source file is newer than the build', () => {
    const help = spawnSync(process.execPath, [join(ROOT, 'bin', 'ratchet.mjs'), '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage:');
    const before = JSON.parse(readFileSync(join(ROOT, 'out', 'cli', 'inputs.json'), 'utf8')) as { builtAt: number };
    const source = join(ROOT, 'electron', 'cli', 'usage.ts');
    const future = new Date(Date.now() + 2000);
    utimesSync(source, future, future);
    const home = mkdtempSync(join(tmpdir(), 'ratchet-cli-home-'));
    const list = spawnSync(process.execPath, [join(ROOT, 'bin', 'ratchet.mjs'), 'list', '--json'], {
      encoding: 'utf8',
      env: { ...process.env, RATCHET_HOME: home },
    });
    expect(list.status).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([]);
    const after = JSON.parse(readFileSync(join(ROOT, 'out', 'cli', 'inputs.json'), 'utf8')) as { builtAt: number };
    expect(after.builtAt).toBeGreaterThan(before.builtAt);
  }, 60_000);
});
