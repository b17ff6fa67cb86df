import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const bin = join(import.meta.dirname, 'ratchet.mjs');

describe('bin/ratchet.mjs', () => {
  it('runs the CLI as a separate process (Node >= 22, TypeScript loaded)', () => {
    const home = mkdtempSync(join(tmpdir(), 'ratchet-bin-'));
    const out = execFileSync(process.execPath, [bin, 'list', '--json'], { env: { ...process.env, RATCHET_HOME: home }, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual([]);
  });

  it('exits 2 with usage for no command', () => {
    const r = spawnSync(process.execPath, [bin], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('Usage:');
  });
});
