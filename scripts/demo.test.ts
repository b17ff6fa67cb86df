// `npm run demo` exactly as a newcomer types it, on a fresh machine's state: the README's third command must run its three steps.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

describe('npm run demo', () => {
  it('runs the demo to success on a fresh home, with no flag and no key (its own repository is not refused by workspace trust)', () => {
    // A newcomer has no RATCHET_HOME and no API key; XDG_CONFIG_HOME stands in for a fresh user's config folder.
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'ratchet-newcomer-')) };
    delete env.RATCHET_HOME;
    delete env.ANTHROPIC_API_KEY;
    delete env.ANTHROPIC_BASE_URL;
    const r = spawnSync('npm', ['run', 'demo'], { cwd: ROOT, env, encoding: 'utf8', timeout: 150_000 });
    expect(r.stderr, r.stdout).not.toMatch(/not trusted yet/);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/step 3/i);
  }, 160_000);
});
