// The team database's URL: where a command finds it (--team, --team-file, RATCHET_TEAM_URL, RATCHET_TEAM_URL_FILE,
// --local), and its password kept out of `ps` and out of what Ratchet prints.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { BIN, NODE } from '../engine/testing/team-fixtures';
import { tempDir } from '../engine/testing/temp-repo';
import { redactedArgv } from './redact-argv';
import { teamUrlOf } from './team-url';

const URL_A = 'postgres://team:s3cretPW@db.example:5432/ratchet';

describe('teamUrlOf', () => {
  it('takes --team, then --team-file, then RATCHET_TEAM_URL, then RATCHET_TEAM_URL_FILE; --local ignores them all', () => {
    const file = join(tempDir(), 'team-url');
    writeFileSync(file, `\n${URL_A}\n`);
    expect(teamUrlOf(['x', '--team', 'postgres://a@h/d', '--json'], {})).toEqual({ url: 'postgres://a@h/d', rest: ['x', '--json'] });
    expect(teamUrlOf(['--team-file', file], { RATCHET_TEAM_URL: 'postgres://env@h/d' }).url).toBe(URL_A);
    expect(teamUrlOf([`--team-file=${file}`], {}).url).toBe(URL_A);
    expect(teamUrlOf([], { RATCHET_TEAM_URL: 'postgres://env@h/d', RATCHET_TEAM_URL_FILE: file }).url).toBe('postgres://env@h/d');
    expect(teamUrlOf([], { RATCHET_TEAM_URL_FILE: file }).url).toBe(URL_A);
    expect(teamUrlOf(['--local'], { RATCHET_TEAM_URL_FILE: file })).toEqual({ url: null, rest: [] });
    expect(() => teamUrlOf(['--team-file', join(tempDir(), 'none')], {})).toThrow(/cannot be read/);
  });

  it('hides the password of a --team URL in the command line it shows', () => {
    const shown = redactedArgv(['status', 'id', '--team', URL_A, `--team=${URL_A}`, '--json']).join(' ');
    expect(shown).not.toContain('s3cretPW');
    expect(shown).toBe('status id --team postgres://team:***@db.example:5432/ratchet --team=postgres://team:***@db.example:5432/ratchet --json');
  });
});

describe.skipIf(process.platform !== 'linux')('the process seen from outside (/proc, Linux)', () => {
  it('a `ratchet … --team <url>` process shows its URL without the password in `ps` (its command line), and prints none', async () => {
    // A database that accepts the connection and never answers: the command waits there, long enough to be looked at.
    const held: Socket[] = [];
    const server = createServer((s) => held.push(s));
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const port = (server.address() as { port: number }).port;
    const url = `postgres://team:s3cretPW@127.0.0.1:${port}/ratchet`;
    const child = spawn(NODE, [BIN, 'status', 'someid', '--team', url], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, RATCHET_HOME: join(tempDir(), 'home') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    const exited = new Promise((ok) => child.on('exit', ok));
    const cmdline = () => {
      try {
        return readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      } catch {
        return null;
      }
    };
    // Until the CLI has started (a stale out/cli is rebuilt first), its command line still has what was typed.
    let seen = cmdline();
    for (let i = 0; i < 600 && seen !== null && held.length === 0; i++) {
      await sleep(50);
      seen = cmdline();
    }
    seen = cmdline();
    child.kill('SIGKILL');
    await exited;
    for (const s of held) s.destroy();
    server.close();
    expect(held.length, out).toBeGreaterThan(0);
    expect(seen).toContain(`--team postgres://team:***@127.0.0.1:${port}/ratchet`);
    expect(seen).not.toContain('s3cretPW');
    expect(out).not.toContain('s3cretPW');
  }, 60_000);
});
