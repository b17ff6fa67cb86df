// Every flag docs/cli.md and `--help` name is one the CLI accepts, started as the built CLI starts it (entry-route.ts):
// each command is given each flag it is documented with, with a value where the docs show one, and must not answer
// with a parser error. And every team command honours RATCHET_TEAM_URL (and RATCHET_TEAM_URL_FILE).
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../engine/testing/temp-repo';
import { mainFor } from './entry-route';
import { COMMAND_USAGE } from './usage';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
/** A team database nobody listens for: a command that uses it fails at once, after its flags were parsed. */
const DEAD_TEAM = 'postgres://team:pw@127.0.0.1:1/ratchet';
/** What node:util's parseArgs (cli-kit.ts parse) and teamUrlOf answer for a flag they do not take. */
const PARSER_ERROR = /Unknown option|argument missing|Unexpected argument|ambiguous|--team takes|--team-file takes/;

type Flag = { name: string; value: string | null };

/** A sample value for a documented placeholder (`<file>`, `N`, `<usd>|none`, `step|phase|run`, `NAME,…`). */
function sample(placeholder: string, file: string): string {
  if (/url/i.test(placeholder)) return DEAD_TEAM;
  if (/file|\.md/i.test(placeholder)) return file;
  if (/usd/.test(placeholder)) return '5';
  if (/^N\b/.test(placeholder)) return '1';
  if (/step\|/.test(placeholder)) return 'step';
  if (/NAME/.test(placeholder)) return 'SOME_NAME';
  if (/HOST/.test(placeholder)) return 'example.org';
  return 'x';
}

/** The flags in a piece of usage text: each `--flag` or `-f`, with the placeholder that follows it, if any. */
function flagsIn(text: string, file: string): Flag[] {
  const out: Flag[] = [];
  const re = /(?<![\w-])(--[a-z][a-z-]*|-[a-z])\b(?:[ =]((?:<[^>]+>|N\b|[A-Z]+,…|[a-z]+(?:\|[a-z]+)+)(?:\\?\|(?:@?<[^>]+>|none))?))?/g;
  for (const m of text.matchAll(re)) {
    // "(resume --approve)" in run's usage names another command's flag.
    const before = /([a-z]+) $/.exec(text.slice(0, m.index))?.[1];
    if (before && before in COMMAND_USAGE) continue;
    out.push({ name: m[1] as string, value: m[2] ? sample(m[2], file) : null });
  }
  // `--workflow`/`-w <file>`: the long name takes the value its short one shows.
  for (const m of text.matchAll(/`(--[a-z-]+)`\/`(-[a-z]) ([^`]+)`/g)) out.push({ name: m[1] as string, value: sample(m[3] as string, file) });
  return out;
}

/** Each flag once: with a value where any mention shows one ("--team <url>" beside "(--team: …)"). */
function distinct(flags: Flag[]): Flag[] {
  const valued = new Set(flags.filter((f) => f.value !== null).map((f) => f.name));
  const seen = new Set<string>();
  return flags.filter((f) => {
    if ((f.value === null && valued.has(f.name)) || seen.has(f.name)) return false;
    seen.add(f.name);
    return true;
  });
}

/** docs/cli.md's flags table: command → the flags its row names. */
function docsFlags(file: string): Map<string, Flag[]> {
  const md = readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8');
  const table = md.slice(md.indexOf('| command | flags |'));
  const rows = table.split('\n').filter((l) => l.startsWith('| `'));
  const out = new Map<string, Flag[]>();
  for (const row of rows) {
    const [, commands = '', flags = ''] = row.split(/(?<!\\)\|/);
    for (const c of commands.matchAll(/`([a-z]+)/g)) out.set(c[1] as string, [...(out.get(c[1] as string) ?? []), ...flagsIn(flags, file)]);
  }
  return out;
}

/** What each command is given besides the flag: its documented arguments (things that do not exist), and one too many. */
const ARGS: Record<string, string[]> = {
  run: ['/nonexistent/repo'],
  status: ['norun'],
  list: [],
  init: ['/nonexistent/repo'],
  check: ['/nonexistent/ratchet.yml'],
  retry: ['norun'],
  restart: ['norun'],
  resume: ['norun'],
  plan: ['norun'],
  recover: ['/nonexistent/repo'],
  trust: ['/nonexistent/repo'],
  serve: [],
  stats: [],
  merge: ['norun'],
  review: ['norun'],
  doctor: [],
  worker: [],
  stop: ['norun'],
};

async function ratchet(argv: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; err: string; out: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += String(d)));
  stderr.on('data', (d) => (err += String(d)));
  const stdin = Object.assign(new PassThrough(), { isTTY: false });
  const code = await (await mainFor(argv))(argv, { stdout, stderr, stdin, env });
  return { code, out, err };
}

describe('every documented flag', () => {
  const file = join(tempDir(), 'flag-value.txt');
  writeFileSync(file, `${DEAD_TEAM}\n`);
  const docs = docsFlags(file);
  const commands = Object.keys(COMMAND_USAGE);

  it('docs/cli.md and --help name the same commands', () => {
    expect([...docs.keys()].sort()).toEqual([...commands].sort());
  });

  it('the parser accepts each flag each command is documented with (docs/cli.md and --help), through the entry the CLI starts from', async () => {
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, RATCHET_HOME: join(tempDir(), 'home') };
    const refused: string[] = [];
    const walked: string[] = [];
    for (const command of commands) {
      const flags = distinct([...flagsIn(COMMAND_USAGE[command] as string, file), ...(docs.get(command) ?? [])]);
      for (const f of flags) {
        if (f.name === '--help' || f.name === '-h') continue;
        // One argument too many: a command stops at its own check of its arguments, after its flags were parsed, and
        // does nothing (no server, no worker); a team command that takes any number reaches the dead database.
        const argv = [command, ...(ARGS[command] ?? []), f.name, ...(f.value === null ? [] : [f.value]), 'one-too-many'];
        const r = await ratchet(argv, env);
        walked.push(`${command} ${f.name}`);
        if (PARSER_ERROR.test(r.err)) refused.push(`ratchet ${argv.join(' ')}: ${r.err.split('\n')[0]}`);
      }
    }
    expect(refused).toEqual([]);
    // The walk covered the team flags of the team commands, the list that used to refuse them among them.
    expect(walked.length).toBeGreaterThan(70);
    expect(walked).toEqual(
      expect.arrayContaining([
        'list --team',
        'list --team-file',
        'list --local',
        'stop --team',
        'run --detach',
        'worker --allow-env',
        'resume -y',
        'serve --port',
      ]),
    );
  }, 120_000);

  it("`ratchet worker --allow-env` refuses the worker's API key and Ratchet's own variables (exit 2), before it starts", async () => {
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, RATCHET_HOME: join(tempDir(), 'home') };
    for (const name of ['ANTHROPIC_API_KEY', 'CI,RATCHET_TEAM_URL']) {
      const r = await ratchet(['worker', '--team', DEAD_TEAM, '--no-sandbox', '--allow-env', name], env);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/never passes its API key or Ratchet's own variables/);
    }
  });

  it.each(['list', 'status', 'stats', 'stop', 'retry', 'resume', 'worker'])(
    '`ratchet %s` uses the team in RATCHET_TEAM_URL, and in RATCHET_TEAM_URL_FILE',
    async (command) => {
      const args = [command, ...(ARGS[command] ?? []), ...(command === 'worker' ? ['--no-sandbox'] : [])];
      const base = { PATH: process.env.PATH, HOME: process.env.HOME, RATCHET_HOME: join(tempDir(), 'home') };
      for (const env of [
        { ...base, RATCHET_TEAM_URL: DEAD_TEAM },
        { ...base, RATCHET_TEAM_URL_FILE: file },
      ]) {
        const r = await ratchet(args, env);
        expect(r.err).toMatch(/team database at postgres:\/\/team:\*\*\*@127\.0\.0\.1:1\/ratchet/);
        expect(r.err).not.toContain(':pw@');
        expect(r.code).not.toBe(0);
      }
      // --local: the command is the local one again.
      const local = await ratchet([...args, '--local'], { ...base, RATCHET_TEAM_URL: DEAD_TEAM });
      expect(local.err).not.toMatch(/team database at/);
    },
    60_000,
  );
});
